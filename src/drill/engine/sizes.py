"""Counts the chapter reasons with: parameters, KV-cache bytes, per-head width, growth of the S×S matrix.

Plain integer arithmetic over the chapter's formulas, one function per quantity, so a quiz's answer and a
test's oracle (PyTorch modules' parameter counts, numpy arrays' ``nbytes``) meet in one place. Biases are left
out of parameter counts, as in the chapter's 7.21 table.
"""

from __future__ import annotations

from drill.errors import InputError
from drill.i18n import _


def head_dim(d_model: int, heads: int) -> int:
    """d_k = d_model / h (7.14): each head works in a reduced space."""
    if heads < 1 or d_model % heads:
        raise InputError(
            _("d_model = {d_model} is not divisible by h = {heads}").format(d_model=d_model, heads=heads)
        )
    return d_model // heads


def attention_params(d_model: int) -> int:
    """W_Q, W_K, W_V, W_O: 4·d_model² whatever the number of heads (7.14, 7.21)."""
    return 4 * d_model * d_model


def ffn_params(d_model: int, d_ff: int) -> int:
    """W_1 [d_model, d_ff] and W_2 [d_ff, d_model] (7.21)."""
    return 2 * d_model * d_ff


def layer_params(d_model: int, d_ff: int) -> int:
    """One encoder layer's weight matrices: attention plus FFN (7.2); LayerNorm's 4·d_model left out."""
    return attention_params(d_model) + ffn_params(d_model, d_ff)


def kv_cache_bytes(layers: int, kv_heads: int, d_head: int, tokens: int, bytes_per_value: int = 2) -> int:
    """K and V for every layer, KV head and cached token (7.15, 7.22): 2·L·G·d_head·S·bytes."""
    return 2 * layers * kv_heads * d_head * tokens * bytes_per_value


def score_entries(length: int) -> int:
    """Entries of one head's score matrix QKᵀ: S² (7.4)."""
    return length * length


def score_growth(length: int, factor: int) -> float:
    """How many times the S×S matrix grows when the sequence is ``factor`` times longer (7.4, 7.15)."""
    return score_entries(length * factor) / score_entries(length)


def additive_cost_ratio(d: int, length: int) -> float:
    """Multiply-adds of additive attention over dot-product attention for ``length`` tokens of width ``d`` (7.8,
    erratum e7.8-additive-complexity): additive projects each query and key once (2·S·d²) and then takes one
    d-wide dot product with v per pair (S²·d); dot-product takes one d-wide dot product per pair (S²·d).
    (2Sd² + S²d) / (S²d) = 1 + 2d/S."""
    return (2 * length * d * d + length * length * d) / (length * length * d)


def residual_gradient(factor: float, layers: int) -> float:
    """∂y/∂x for one skip around ``layers`` plain layers with gradient factor each: 1 + factor^n (7.19)."""
    return 1.0 + factor**layers


def path_length(kind: str, distance: int, kernel: int = 3) -> int:
    """Sequential steps for information to travel ``distance`` positions (7.1): RNN distance, CNN
    ⌈distance/(k−1)⌉ stacked layers, attention 1."""
    if kind == "attention":
        return 1
    if kind == "rnn":
        return distance
    if kind == "cnn":
        return -(-distance // (kernel - 1))
    raise InputError(f"unknown path kind {kind!r}")
