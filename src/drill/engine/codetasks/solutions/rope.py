import numpy as np


def rope(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)         # θ_i = 10000^(-2i/d)
    angle = np.asarray(positions)[:, None] * theta       # [S, d/2]
    cos, sin = np.cos(angle), np.sin(angle)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]           # 第 i 对：(x_2i, x_2i+1)
    out = np.empty_like(x, dtype=float)
    out[..., 0::2] = x_even * cos - x_odd * sin          # 旋转 pos·θ_i
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
