import numpy as np


def padding_mask(lengths, S):
    lengths = np.asarray(lengths)
    real = np.arange(S)[None, :] < lengths[:, None]   # [B, S]：True = 真实 token
    return real[:, None, :]                           # [B, 1, S]：遮的是 key 维度，广播到每个 query
