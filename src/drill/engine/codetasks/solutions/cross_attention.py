import math

import numpy as np


def cross_attention(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    Q = X_dec @ W_Q                                      # Q 来自 Decoder
    K = X_enc @ W_K                                      # K、V 来自 Encoder
    V = X_enc @ W_V
    scores = Q @ np.swapaxes(K, -2, -1) / math.sqrt(Q.shape[-1])   # [..., S_dec, S_enc]
    if enc_mask is not None:
        scores = np.where(np.asarray(enc_mask)[..., None, :], scores, -np.inf)  # 遮 key（Encoder 的 PAD）
    row_max = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isneginf(row_max), 0.0, row_max))
    total = e.sum(axis=-1, keepdims=True)
    A = e / np.where(total == 0.0, 1.0, total)           # 不需要 causal mask
    return A @ V, A                                      # 输出长度 = Decoder 长度
