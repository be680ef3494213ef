"""What several topics of the mistakes catalogue share: the words (the chapter's, or drill's own) that name more
than one mistake (declared once here), and the right computations each wrong variant bends (``attend``: one knob per
mistake)."""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops
from drill.i18n import N_

# The chapter's words, shared by several mistakes.
NO_MAX = "**忘了减最大值**：FP16 下 $e^{89}$ 就溢出了。"
ROW_NOT_COLUMN = "**是逐行（dim=-1）不是逐列**：每一行是一个 token 的注意力分布。"
MASK_CONVENTION = "**不同框架的 mask 约定相反**：HuggingFace 用 1=保留，PyTorch 的 `attn_mask` 用 True=遮住，写错会导致「只注意 PAD」。"
TRANSPOSE = "**`transpose(-2, -1)` 不是 `transpose(0, 1)`**：前者只交换最后两维，对 batch 友好；后者会把 batch 也转掉。"
SCALE_BY_DK = "**不是除以 $d_k$**：方差随 $d_k$ 线性增长，要除的是标准差 $\\sqrt{d_k}$。除以 $d_k$ 会让分布过平、区分度不足。"
PAD_KEYS = "**padding mask 遮的是 key 维度**（哪些位置不能被关注）；query 位置的 PAD 输出是垃圾但会被忽略。"

# drill's own words (English, marked for the catalogs; `Mistake.wording` shows them in the UI language), shared
# by several mistakes.
NO_SCALE = N_(
    "Not dividing by $\\sqrt{d_k}$: the variance of $QK^\\top$ grows linearly with $d_k$, so softmax saturates."
)
HEADS_NO_TRANSPOSE = N_(
    "To split heads, reshape to [B, S, h, d_k] and then transpose to [B, h, S, d_k]; reshaping straight to [B, h, S, d_k] mixes dimensions of different tokens into one head."
)
FFN_ONE_MATRIX = N_("Counting only one FFN matrix: it has two, $W_1 [d, d_{ff}]$ and $W_2 [d_{ff}, d]$.")


def softmax_plain(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def as_float(x):
    return np.asarray(x, dtype=np.float64)


def attend(
    Q,
    K,
    V,
    mask=None,
    *,
    kt=None,
    scale=None,
    axis=-1,
    fill=-np.inf,
    stable=True,
    guard=True,
    after=False,
    invert=False,
    values=None,
):
    """Scaled dot-product attention with one knob per mistake (the defaults are the right computation)."""
    Q, K, V = as_float(Q), as_float(K), as_float(V)
    d_k = Q.shape[-1]
    scores = Q @ (np.swapaxes(K, -1, -2) if kt is None else kt(K))
    scores = scores / (math.sqrt(d_k) if scale is None else scale(d_k))
    allowed = None
    if mask is not None:
        allowed = np.asarray(mask, dtype=bool)
        if invert:
            allowed = ~allowed
        allowed = np.broadcast_to(allowed, scores.shape)
        if not after:
            scores = np.where(allowed, scores, fill)
    if stable and guard:
        A = ops.softmax(scores, axis=axis)
    elif stable:
        A = softmax_plain(scores - scores.max(axis=axis, keepdims=True), axis=axis)
    else:
        A = softmax_plain(scores, axis=axis)
    if after and allowed is not None:
        A = np.where(allowed, A, 0.0)
    return A @ (V if values is None else values(K, V)), A
