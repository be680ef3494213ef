import math

import numpy as np


def kv_cache_step(x_t, W_Q, W_K, W_V, K_cache, V_cache):
    q = x_t @ W_Q                                        # 只算当前 token 的 q、k、v
    K_cache = np.vstack([K_cache, x_t @ W_K])            # 先追加，再做注意力：可以关注自己
    V_cache = np.vstack([V_cache, x_t @ W_V])
    scores = q @ K_cache.T / math.sqrt(q.shape[-1])      # [1, t+1]；缓存里只有 ≤ t 的 token，不需要 mask
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    A = e / e.sum(axis=-1, keepdims=True)
    return A @ V_cache, K_cache, V_cache
