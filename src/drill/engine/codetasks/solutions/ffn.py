import math

import numpy as np

_erf = np.vectorize(math.erf, otypes=[float])


def ffn(x, W_1, b_1, W_2, b_2, activation="relu"):
    hidden = x @ W_1 + b_1                               # 升维：d_model → d_ff
    if activation == "relu":
        hidden = np.maximum(hidden, 0.0)
    elif activation == "gelu":
        hidden = 0.5 * hidden * (1.0 + _erf(hidden / math.sqrt(2.0)))   # xΦ(x)，精确形式
    else:
        raise ValueError(f"unknown activation {activation!r}")
    return hidden @ W_2 + b_2                            # 降维：d_ff → d_model（逐 token 独立）
