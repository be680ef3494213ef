import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)                  # 该 token 向量内的均值（不跨 token、不跨 batch）
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)   # 有偏方差：除以 d
    x_hat = (x - mu) / np.sqrt(var + eps)                # ε 在根号里
    return gamma * x_hat + beta                          # 可学习的缩放、平移
