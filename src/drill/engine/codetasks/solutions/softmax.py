import numpy as np


def softmax(x):
    x = np.asarray(x, dtype=np.float64)
    x = x - x.max(axis=-1, keepdims=True)        # 减去每行最大值：e^(x - max) 不会溢出
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)     # 逐行（dim=-1）归一化，每行和为 1
