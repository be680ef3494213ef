import numpy as np


def causal_mask(S):
    # 下三角（含对角线）= True：位置 i 只能关注 j <= i
    return np.tril(np.ones((S, S), dtype=bool))
