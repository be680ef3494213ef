import math

import numpy as np


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]                                # 缩放因子
    scores = Q @ np.swapaxes(K, -2, -1)              # QKᵀ → [..., S_q, S_k]（只交换最后两维）
    scores = scores / math.sqrt(d_k)                 # 除以 √d_k

    if mask is not None:                             # True = 可以关注
        scores = np.where(mask, scores, -np.inf)     # 被遮住的位置 = -∞（在 softmax 之前）

    row_max = scores.max(axis=-1, keepdims=True)
    row_max = np.where(np.isneginf(row_max), 0.0, row_max)   # 整行被遮住：避免 -∞ - (-∞)
    e = np.exp(scores - row_max)                     # 减最大值，数值稳定
    total = e.sum(axis=-1, keepdims=True)
    A = e / np.where(total == 0.0, 1.0, total)       # 逐行 softmax；整行被遮住 → 全 0，不是 NaN
    return A @ V, A                                  # 加权求和 → [..., S_q, d_v]
