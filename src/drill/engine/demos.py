"""Computations behind `drill demo`'s live controls that no named example covers: each a pure function of the
control values, returning named float64 arrays (what the screen shows, and what its tests recompute).
"""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops

SCALING_ROW = (3.0, 2.0, 1.0)  # 7.9's example row of scores


def softmax_pipeline(logits) -> dict[str, np.ndarray]:
    """7.10: subtract the maximum, exp, sum, normalise. The outputs are positive and sum to 1 for any finite
    logits (the max-subtraction keeps exp from overflowing)."""
    s = np.asarray(logits, dtype=np.float64)
    m = s.max()
    shifted = s - m
    e = np.exp(shifted)
    total = e.sum()
    return {
        "logits": s,
        "max": np.asarray(m),
        "shifted": shifted,
        "exp": e,
        "sum": np.asarray(total),
        "softmax": e / total,
    }


def scaling_compare(d_k: int, row=SCALING_ROW) -> dict[str, np.ndarray]:
    """7.9: raw scores grow like √d_k (a dot product of d_k unit-variance terms has std √d_k), modelled as
    ``row · √d_k``. Unscaled, softmax saturates as d_k grows; divided by √d_k it is softmax(row) whatever d_k."""
    if d_k < 1:
        raise ValueError(f"d_k must be ≥ 1, got {d_k}")
    base = np.asarray(row, dtype=np.float64)
    raw = base * math.sqrt(d_k)
    scaled = raw / math.sqrt(d_k)
    return {
        "raw": raw,
        "unscaled_softmax": ops.softmax(raw),
        "scaled": scaled,
        "scaled_softmax": ops.softmax(scaled),
    }
