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

# drill's own wordings (in English, through the catalogs); the chapter's are quoted word for word in the table
SCALE_BY_SQRT_SK = N_(
    "Dividing by $\\sqrt{S_k}$ (the square root of the number of keys) instead of $\\sqrt{d_k}$: the variance of a score $q \\cdot k$ grows with the dimension $d_k$ it sums over, not with the sequence length."
)
FILL_LARGE_NEGATIVE = N_(
    "Filling masked scores with a large negative number (−1e9) instead of −∞: the same while a row keeps one unmasked key, but a fully masked row then gets uniform weights (the mean of V) where it should output 0 (PyTorch SDPA's convention)."
)
FULLY_MASKED_NAN = N_(
    "When a whole row is masked its scores are all −∞ and softmax becomes 0/0: the row should output 0 (PyTorch SDPA's convention), not NaN."
)
TRANSPOSE_ALL_AXES = N_(
    "`K.T` reverses every axis of a batched input (batch included); **`transpose(-2, -1)`, not `transpose(0, 1)`**: the former swaps only the last two dimensions and is batch-friendly; the latter transposes the batch away too."
)
WEIGHTS_TIMES_K = N_(
    "The weights multiply V, not K: K is only matched against (the scores), V supplies the content; **the output dimension is $d_v$, not $d_k$**."
)
AXIS = "**`F.softmax(dim=-1)` 的维度必须写对**：写 `dim=1`（对 S 维）语义就错了。"
AFTER = "**mask 要在 softmax 之前加**，加在之后是无效的。"
FILL_ZERO = "**填 0**：softmax(0) = 正数权重，等于没遮；"


def _knobs(**how):
    """A wrong attention: `attend` (drill.engine.mistakes.common) with the given knobs turned."""

    def wrong(Q, K, V, mask=None):
        return attend(Q, K, V, mask, **how)

    return wrong


def _by_sqrt_keys(Q, K, V, mask=None):
    n_keys = np.shape(K)[-2]
    return attend(Q, K, V, mask, scale=lambda d: np.sqrt(n_keys))


VERBATIM, OWN, FROM_TEXT = (
    (True, None),
    (False, None),
    (True, False),
)  # (verbatim, pitfall): the wording's origin

# Registered in this order (a submission is matched against them in it): name, section, step, wording, origin,
# the wrong computation.
_ATTENTION = (
    ("scale-by-dk", "7.9", "scale", SCALE_BY_DK, VERBATIM, _knobs(scale=lambda d: d)),
    ("scale-by-sqrt-sk", "7.9", "scale", SCALE_BY_SQRT_SK, OWN, _by_sqrt_keys),
    ("no-scale", "7.9", "scale", NO_SCALE, OWN, _knobs(scale=lambda d: 1.0)),
    ("softmax-wrong-axis", "7.13", "softmax", AXIS, VERBATIM, _knobs(axis=-2)),
    ("no-max-subtraction", "7.10", "softmax", NO_MAX, VERBATIM, _knobs(stable=False)),
    ("mask-after-softmax", "7.13", "mask", AFTER, VERBATIM, _knobs(after=True)),
    ("mask-fill-zero", "7.17", "mask", FILL_ZERO, FROM_TEXT, _knobs(fill=0.0)),
    ("mask-fill-large-negative", "7.17", "mask", FILL_LARGE_NEGATIVE, OWN, _knobs(fill=-1e9)),
    ("mask-inverted", "7.16", "mask", MASK_CONVENTION, VERBATIM, _knobs(invert=True)),
    ("fully-masked-nan", "7.13", "softmax", FULLY_MASKED_NAN, OWN, _knobs(guard=False)),
    ("transpose-0-1", "7.13", "scores", TRANSPOSE, VERBATIM, _knobs(kt=lambda k: np.swapaxes(k, 0, 1))),
    ("transpose-all-axes", "7.13", "scores", TRANSPOSE_ALL_AXES, OWN, _knobs(kt=lambda k: k.T)),
    ("weights-times-k", "7.11", "weighted_sum", WEIGHTS_TIMES_K, OWN, _knobs(values=lambda k, v: k)),
)
for _name, _section, _step, _wording, (_verbatim, _pitfall), _wrong in _ATTENTION:
    mistake("attention", _name, _section, _step, _wording, verbatim=_verbatim, pitfall=_pitfall)(_wrong)
