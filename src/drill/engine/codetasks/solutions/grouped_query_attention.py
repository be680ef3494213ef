import math

import numpy as np


def _attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -2, -1) / math.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    row_max = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isneginf(row_max), 0.0, row_max))
    total = e.sum(axis=-1, keepdims=True)
    return (e / np.where(total == 0.0, 1.0, total)) @ V


def grouped_query_attention(X, W_Q, W_K, W_V, W_O, h, g, mask=None):
    d_model = W_Q.shape[1]
    if d_model % h or h % g:
        raise ValueError(f"需要 h | d_model 且 g | h（d_model={d_model}, h={h}, g={g}）")
    d_k = d_model // h

    def split(x, heads):                                 # [..., S, heads*d_k] → [..., heads, S, d_k]
        return np.swapaxes(x.reshape(x.shape[:-1] + (heads, d_k)), -3, -2)

    Q = split(X @ W_Q, h)
    K = np.repeat(split(X @ W_K, g), h // g, axis=-3)    # 相邻 h/g 个 Q head 共享一组 K/V
    V = np.repeat(split(X @ W_V, g), h // g, axis=-3)
    if mask is not None:
        mask = np.asarray(mask)[..., None, :, :]
    out = np.swapaxes(_attention(Q, K, V, mask), -3, -2)
    return out.reshape(out.shape[:-2] + (d_model,)) @ W_O
