import numpy as np


def noam_lr(step, d_model, warmup):
    step = np.asarray(step, dtype=float)
    return d_model ** -0.5 * np.minimum(step ** -0.5, step * warmup ** -1.5)   # 先线性增长，再按 step^-0.5 衰减
