"""Numerical building blocks (numpy float64), shared by every trace.

Conventions: row vectors (x @ W, as in PyTorch's Linear and the chapter's numeric examples); masks are
boolean with True = may attend / real token; masked scores are -inf.
"""

from __future__ import annotations

import math

import numpy as np

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def softmax(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along ``axis``: subtract the row maximum before exp.

    A row whose every entry is -inf (every key masked) has no distribution; it comes back as zeros, the
    way PyTorch's scaled_dot_product_attention returns them, never as NaN.
    """
    scores = np.asarray(scores, dtype=np.float64)
    return softmax_into(scores, np.empty_like(scores), axis=axis)


def softmax_into(scores: np.ndarray, out: np.ndarray, axis: int = -1) -> np.ndarray:
    """`softmax` written into ``out`` (same shape; may be ``scores`` itself). Fully masked rows give zeros."""
    row_max = np.max(scores, axis=axis, keepdims=True)
    empty = np.isneginf(row_max)
    if empty.any():
        row_max = np.where(empty, 0.0, row_max)
    np.subtract(scores, row_max, out=out)
    np.exp(out, out=out)
    total = np.sum(out, axis=axis, keepdims=True)
    if empty.any():
        total[empty] = 1.0  # an all -inf row is all zeros after exp: 0 / 1 = 0, not 0 / 0
    out /= total
    return out


def causal_allowed(s_q: int, s_k: int | None = None) -> np.ndarray:
    """[S, S] boolean: query i may attend key j iff j <= i (for S_k > S_q the queries are the last S_q)."""
    s_k = s_q if s_k is None else s_k
    return np.tril(np.ones((s_q, s_k), dtype=bool), k=s_k - s_q)


def additive_mask(allowed: np.ndarray) -> np.ndarray:
    """0 where allowed, -inf where masked."""
    return np.where(allowed, 0.0, -np.inf)


def layer_norm(x: np.ndarray, gamma=None, beta=None, eps: float = 1e-5) -> np.ndarray:
    """LayerNorm over the last axis: biased variance (divide by d), eps inside the square root."""
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    y = (x - mu) / np.sqrt(var + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def rms_norm(x: np.ndarray, gamma=None, eps: float = 1e-6) -> np.ndarray:
    """RMSNorm: x / sqrt(mean(x²) + eps), no centring, no bias."""
    y = x / np.sqrt((x**2).mean(axis=-1, keepdims=True) + eps)
    return y if gamma is None else y * gamma


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def _erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU: x Φ(x) = x (1 + erf(x / √2)) / 2."""
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """The tanh approximation of GELU (GPT-2, PyTorch approximate="tanh"), not the exact function."""
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1.0 + np.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x**3)))


def silu(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def sinusoidal_pe(positions: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """PE[pos, 2i] = sin(pos / base^(2i/d)), PE[pos, 2i+1] = cos(pos / base^(2i/d)). Shape [S, d]."""
    pos = np.arange(positions, dtype=np.float64)[:, None]
    i = np.arange((d_model + 1) // 2, dtype=np.float64)[None, :]
    angle = pos / base ** (2.0 * i / d_model)
    pe = np.zeros((positions, d_model))
    pe[:, 0::2] = np.sin(angle)[:, : (d_model + 1) // 2]
    pe[:, 1::2] = np.cos(angle)[:, : d_model // 2]
    return pe


def rope_angles(positions: np.ndarray, d: int, base: float = 10000.0) -> np.ndarray:
    """θ[pos, i] = pos · base^(-2i/d) for the d/2 rotation pairs. Shape [S, d/2]."""
    inv_freq = base ** (-np.arange(0, d // 2, dtype=np.float64) * 2.0 / d)
    return np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]


def rope(x: np.ndarray, positions: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """Rotary position embedding, interleaved convention (RoFormer): pair (x[2i], x[2i+1]) is rotated by
    θ_i · pos. (LLaMA's Hugging Face code pairs x[i] with x[i + d/2] instead; the property is the same.)"""
    x = np.asarray(x, dtype=np.float64)
    d = x.shape[-1]
    if d % 2:
        raise ValueError(f"RoPE needs an even dimension, got {d}")
    theta = rope_angles(positions, d, base)
    cos, sin = np.cos(theta), np.sin(theta)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def noam_lr(step, d_model: int, warmup: int) -> np.ndarray:
    """lr = d_model^-0.5 · min(step^-0.5, step · warmup^-1.5) (steps start at 1)."""
    step = np.asarray(step, dtype=np.float64)
    return d_model**-0.5 * np.minimum(step**-0.5, step * warmup**-1.5)
