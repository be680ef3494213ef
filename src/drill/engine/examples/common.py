"""The chapter's worked example (7.5, 7.7, 7.12), which several topics reuse, and a small helper."""

from __future__ import annotations

import numpy as np

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
W_Q = np.array([[1.0, 0.0], [1.0, 1.0]])
W_K = np.array([[0.0, 1.0], [1.0, 0.0]])
W_V = np.eye(2)


def arr(value) -> np.ndarray:
    """A float64 array of ``value``."""
    return np.asarray(value, dtype=np.float64)
