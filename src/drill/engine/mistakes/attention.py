"""Named mistakes of softmax (7.10) and scaled dot-product attention (7.9-7.13): the `drill code` tasks' wrong variants (see drill.engine.mistakes)."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.mistakes.common import (
    MASK_CONVENTION,
    NO_MAX,
    NO_SCALE,
    ROW_NOT_COLUMN,
    SCALE_BY_DK,
    TRANSPOSE,
    as_float,
    attend,
    softmax_plain,
)
from drill.engine.mistakes.registry import mistake
from drill.i18n import N_

# ---------------------------------------------------------------- 1. softmax (7.10)


@mistake("softmax", "no-max-subtraction", "7.10", "softmax", NO_MAX)
def _softmax_no_max(x):
    return softmax_plain(as_float(x))


@mistake("softmax", "wrong-axis", "7.10", "softmax", ROW_NOT_COLUMN)
def _softmax_columns(x):
    x = as_float(x)
    return ops.softmax(x, axis=-2 if x.ndim >= 2 else -1)


@mistake(
    "softmax",
    "whole-array",
    "7.10",
    "softmax",
    N_(
        "Normalising over the whole matrix at once: softmax runs along each row (dim=-1), one distribution per query; over every entry the matrix sums to 1 and no row does."
    ),
    verbatim=False,
)
def _softmax_whole(x):
    x = as_float(x)
    e = np.exp(x - x.max())
    return e / e.sum()


@mistake(
    "softmax",
    "sigmoid",
    "7.10",
    "softmax",
    "**不是 Sigmoid**：Sigmoid 逐元素独立，不保证和为 1；Softmax 是竞争性的（此消彼长）。",
)
def _softmax_sigmoid(x):
    return ops.sigmoid(as_float(x))


# ---------------------------------------------------------------- 2. attention (7.9-7.13)


@mistake(
    "attention",
    "scale-by-dk",
    "7.9",
    "scale",
    SCALE_BY_DK,
)
def _attn_dk(Q, K, V, mask=None):
    return attend(Q, K, V, mask, scale=lambda d: d)


@mistake(
    "attention",
    "scale-by-sqrt-sk",
    "7.9",
    "scale",
    N_(
        "Dividing by $\\sqrt{S_k}$ (the square root of the number of keys) instead of $\\sqrt{d_k}$: the variance of a score $q \\cdot k$ grows with the dimension $d_k$ it sums over, not with the sequence length."
    ),
    verbatim=False,
)
def _attn_sqrt_sk(Q, K, V, mask=None):
    n_keys = np.shape(K)[-2]
    return attend(Q, K, V, mask, scale=lambda d: np.sqrt(n_keys))


@mistake(
    "attention",
    "no-scale",
    "7.9",
    "scale",
    NO_SCALE,
    verbatim=False,
)
def _attn_unscaled(Q, K, V, mask=None):
    return attend(Q, K, V, mask, scale=lambda d: 1.0)


@mistake(
    "attention",
    "softmax-wrong-axis",
    "7.13",
    "softmax",
    "**`F.softmax(dim=-1)` 的维度必须写对**：写 `dim=1`（对 S 维）语义就错了。",
)
def _attn_axis(Q, K, V, mask=None):
    return attend(Q, K, V, mask, axis=-2)


@mistake("attention", "no-max-subtraction", "7.10", "softmax", NO_MAX)
def _attn_no_max(Q, K, V, mask=None):
    return attend(Q, K, V, mask, stable=False)


@mistake(
    "attention", "mask-after-softmax", "7.13", "mask", "**mask 要在 softmax 之前加**，加在之后是无效的。"
)
def _attn_after(Q, K, V, mask=None):
    return attend(Q, K, V, mask, after=True)


@mistake(
    "attention",
    "mask-fill-zero",
    "7.17",
    "mask",
    "**填 0**：softmax(0) = 正数权重，等于没遮；",
    pitfall=False,
)
def _attn_fill_zero(Q, K, V, mask=None):
    return attend(Q, K, V, mask, fill=0.0)


@mistake(
    "attention",
    "mask-fill-large-negative",
    "7.17",
    "mask",
    N_(
        "Filling masked scores with a large negative number (−1e9) instead of −∞: the same while a row keeps one unmasked key, but a fully masked row then gets uniform weights (the mean of V) where it should output 0 (PyTorch SDPA's convention)."
    ),
    verbatim=False,
)
def _attn_fill_large_negative(Q, K, V, mask=None):
    return attend(Q, K, V, mask, fill=-1e9)


@mistake("attention", "mask-inverted", "7.16", "mask", MASK_CONVENTION)
def _attn_inverted(Q, K, V, mask=None):
    return attend(Q, K, V, mask, invert=True)


@mistake(
    "attention",
    "fully-masked-nan",
    "7.13",
    "softmax",
    N_(
        "When a whole row is masked its scores are all −∞ and softmax becomes 0/0: the row should output 0 (PyTorch SDPA's convention), not NaN."
    ),
    verbatim=False,
)
def _attn_nan(Q, K, V, mask=None):
    return attend(Q, K, V, mask, guard=False)


@mistake("attention", "transpose-0-1", "7.13", "scores", TRANSPOSE)
def _attn_t01(Q, K, V, mask=None):
    return attend(Q, K, V, mask, kt=lambda k: np.swapaxes(k, 0, 1))


@mistake(
    "attention",
    "transpose-all-axes",
    "7.13",
    "scores",
    N_(
        "`K.T` reverses every axis of a batched input (batch included); **`transpose(-2, -1)`, not `transpose(0, 1)`**: the former swaps only the last two dimensions and is batch-friendly; the latter transposes the batch away too."
    ),
    verbatim=False,
)
def _attn_tall(Q, K, V, mask=None):
    return attend(Q, K, V, mask, kt=lambda k: k.T)


@mistake(
    "attention",
    "weights-times-k",
    "7.11",
    "weighted_sum",
    N_(
        "The weights multiply V, not K: K is only matched against (the scores), V supplies the content; **the output dimension is $d_v$, not $d_k$**."
    ),
    verbatim=False,
)
def _attn_times_k(Q, K, V, mask=None):
    return attend(Q, K, V, mask, values=lambda k, v: k)
