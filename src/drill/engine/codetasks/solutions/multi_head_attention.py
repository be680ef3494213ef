import math

import numpy as np


def _attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -2, -1) / math.sqrt(Q.shape[-1])   # QKᵀ / √d_k
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)                    # mask 在 softmax 之前
    row_max = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isneginf(row_max), 0.0, row_max))
    total = e.sum(axis=-1, keepdims=True)
    return (e / np.where(total == 0.0, 1.0, total)) @ V


def multi_head_attention(X, W_Q, W_K, W_V, W_O, h, mask=None):
    d_model = W_Q.shape[1]
    if d_model % h:
        raise ValueError(f"d_model={d_model} 不能被 h={h} 整除")
    d_k = d_model // h

    def split(x):                                        # [..., S, d_model] → [..., h, S, d_k]
        x = x.reshape(x.shape[:-1] + (h, d_k))           # 先拆成 [..., S, h, d_k]
        return np.swapaxes(x, -3, -2)                    # 再把 h 换到 S 前面

    Q, K, V = split(X @ W_Q), split(X @ W_K), split(X @ W_V)
    if mask is not None:
        mask = np.asarray(mask)[..., None, :, :]         # 每个头共用同一个 mask
    out = _attention(Q, K, V, mask)                      # [..., h, S, d_k]
    out = np.swapaxes(out, -3, -2)                       # [..., S, h, d_k]
    out = out.reshape(out.shape[:-2] + (d_model,))       # 拼接多头 → [..., S, d_model]
    return out @ W_O                                     # 过 W_O 融合各头
