import numpy as np


def sinusoidal_pe(S, d_model):
    pos = np.arange(S)[:, None]                          # [S, 1]
    two_i = np.arange(0, d_model, 2)[None, :]            # 2i = 0, 2, 4, ...
    angle = pos / 10000 ** (two_i / d_model)             # pos / 10000^(2i/d)
    pe = np.zeros((S, d_model))
    pe[:, 0::2] = np.sin(angle)                          # 偶数维：sin
    pe[:, 1::2] = np.cos(angle)                          # 奇数维：cos
    return pe
