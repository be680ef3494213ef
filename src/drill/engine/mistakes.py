"""The catalogue of named mistakes: wrong variants of the chapter's computations, each tied to its pitfall.

One catalogue, pure numpy, shared by `drill code` (a submission that agrees with a wrong variant on a failing
test is told which mistake it made) and by anything else that needs plausible wrong answers (quiz
distractors). Each `Mistake` has a stable ``id`` (``<task>/<name>``, never reused), the chapter ``section``,
the chapter's own ``wording`` (word for word from the section's 常见误区 or text, Markdown and ``$LaTeX$`` as
written, when ``verbatim``; otherwise drill's wording in the chapter's terms), the ``step`` of the computation
where it goes wrong, and ``wrong``: the wrong computation, with the same signature as the task's function, so
it can be evaluated on any inputs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from drill.engine import ops


@dataclass(frozen=True)
class Mistake:
    id: str
    task: str
    section: str
    step: str
    wording: str
    verbatim: bool
    wrong: Callable

    def evaluate(self, *args, **kwargs):
        """The wrong computation on the given inputs (floating-point warnings silenced: overflow is the point)."""
        with np.errstate(all="ignore"):
            return self.wrong(*args, **kwargs)


MISTAKES: dict[str, Mistake] = {}


def mistake(task: str, name: str, section: str, step: str, wording: str, *, verbatim: bool = True):
    """Register the decorated function as the wrong computation of mistake ``task/name``."""

    def register(fn: Callable) -> Callable:
        mid = f"{task}/{name}"
        if mid in MISTAKES:
            raise ValueError(f"duplicate mistake id {mid}")
        MISTAKES[mid] = Mistake(mid, task, section, step, wording.strip(), verbatim, fn)
        return fn

    return register


def mistakes_for(task: str) -> list[Mistake]:
    return [m for m in MISTAKES.values() if m.task == task]


# The chapter's words, shared by several mistakes.
NO_MAX = "**忘了减最大值**：FP16 下 $e^{89}$ 就溢出了。"
ROW_NOT_COLUMN = "**是逐行（dim=-1）不是逐列**：每一行是一个 token 的注意力分布。"
MASK_CONVENTION = (
    "**不同框架的 mask 约定相反**：HuggingFace 用 1=保留，PyTorch 的 `attn_mask` 用 True=遮住，写错会导致「只注意 PAD」。"
)
TRANSPOSE = "**`transpose(-2, -1)` 不是 `transpose(0, 1)`**：前者只交换最后两维，对 batch 友好；后者会把 batch 也转掉。"


def _softmax_plain(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def _f(x):
    return np.asarray(x, dtype=np.float64)


# ---------------------------------------------------------------- 1. softmax (7.10)


@mistake("softmax", "no-max-subtraction", "7.10", "softmax", NO_MAX)
def _softmax_no_max(x):
    return _softmax_plain(_f(x))


@mistake("softmax", "wrong-axis", "7.10", "softmax", ROW_NOT_COLUMN)
def _softmax_columns(x):
    x = _f(x)
    return ops.softmax(x, axis=-2 if x.ndim >= 2 else -1)


@mistake("softmax", "whole-array", "7.10", "softmax", ROW_NOT_COLUMN)
def _softmax_whole(x):
    x = _f(x)
    e = np.exp(x - x.max())
    return e / e.sum()


@mistake(
    "softmax", "sigmoid", "7.10", "softmax",
    "**不是 Sigmoid**：Sigmoid 逐元素独立，不保证和为 1；Softmax 是竞争性的（此消彼长）。",
)
def _softmax_sigmoid(x):
    return ops.sigmoid(_f(x))


# ---------------------------------------------------------------- 2. attention (7.9-7.13)


def _attend(Q, K, V, mask=None, *, kt=None, scale=None, axis=-1, fill=-np.inf, stable=True, guard=True,
            after=False, invert=False, values=None):
    """Scaled dot-product attention with one knob per mistake (the defaults are the right computation)."""
    Q, K, V = _f(Q), _f(K), _f(V)
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
        A = _softmax_plain(scores - scores.max(axis=axis, keepdims=True), axis=axis)
    else:
        A = _softmax_plain(scores, axis=axis)
    if after and allowed is not None:
        A = np.where(allowed, A, 0.0)
    return A @ (V if values is None else values(K, V)), A


@mistake("attention", "scale-by-dk", "7.9", "scale",
         "**不是除以 $d_k$**：方差随 $d_k$ 线性增长，要除的是标准差 $\\sqrt{d_k}$。除以 $d_k$ 会让分布过平、区分度不足。")
def _attn_dk(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, scale=lambda d: d)


@mistake("attention", "no-scale", "7.9", "scale",
         "没有除以 $\\sqrt{d_k}$：$QK^\\top$ 的方差随 $d_k$ 线性增长，softmax 会饱和。", verbatim=False)
def _attn_unscaled(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, scale=lambda d: 1.0)


@mistake("attention", "softmax-wrong-axis", "7.13", "softmax",
         "**`F.softmax(dim=-1)` 的维度必须写对**：写 `dim=1`（对 S 维）语义就错了。")
def _attn_axis(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, axis=-2)


@mistake("attention", "no-max-subtraction", "7.10", "softmax", NO_MAX)
def _attn_no_max(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, stable=False)


@mistake("attention", "mask-after-softmax", "7.13", "mask", "**mask 要在 softmax 之前加**，加在之后是无效的。")
def _attn_after(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, after=True)


@mistake("attention", "mask-fill-zero", "7.17", "mask", "**填 0**：softmax(0) = 正数权重，等于没遮；")
def _attn_fill_zero(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, fill=0.0)


@mistake("attention", "mask-inverted", "7.16", "mask", MASK_CONVENTION)
def _attn_inverted(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, invert=True)


@mistake("attention", "fully-masked-nan", "7.13", "softmax",
         "整行都被遮住时分数全是 −∞，softmax 变成 0/0：这一行应当输出 0（PyTorch SDPA 的约定），而不是 NaN。",
         verbatim=False)
def _attn_nan(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, guard=False)


@mistake("attention", "transpose-0-1", "7.13", "scores", TRANSPOSE)
def _attn_t01(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, kt=lambda k: np.swapaxes(k, 0, 1))


@mistake("attention", "transpose-all-axes", "7.13", "scores",
         "`K.T` 在批量输入上会把所有轴都反转（连 batch 一起）；" + TRANSPOSE, verbatim=False)
def _attn_tall(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, kt=lambda k: k.T)


@mistake("attention", "weights-times-k", "7.11", "weighted_sum",
         "最后乘的是 V 不是 K：K 只负责匹配打分，V 提供内容；**输出维度是 $d_v$，不是 $d_k$**。", verbatim=False)
def _attn_times_k(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, values=lambda k, v: k)


# ---------------------------------------------------------------- 3. causal mask (7.17)


@mistake("causal_mask", "upper-triangle", "7.17", "mask",
         "如果预测第 3 个词时模型能看到第 4 个词，它就「抄答案」了。所以把每个位置右边（未来）的注意力分数设为 −∞，softmax 后这些位置权重为 0。")
def _causal_upper(S):
    return np.triu(np.ones((S, S), dtype=bool))


@mistake("causal_mask", "masked-convention", "7.16", "mask", MASK_CONVENTION)
def _causal_masked(S):
    return np.triu(np.ones((S, S), dtype=bool), k=1)


@mistake("causal_mask", "no-diagonal", "7.17", "mask",
         "对角线要保留：位置 i 可以关注 j ≤ i，包括它自己（`triu(..., 1)` 遮的是严格上三角）。", verbatim=False)
def _causal_no_diag(S):
    return np.tril(np.ones((S, S), dtype=bool), k=-1)


# ---------------------------------------------------------------- 4. padding mask (7.16)


def _real(lengths, S):
    return np.arange(S)[None, :] < np.asarray(lengths).reshape(-1)[:, None]


@mistake("padding_mask", "masks-queries", "7.16", "mask",
         "**padding mask 遮的是 key 维度**（哪些位置不能被关注）；query 位置的 PAD 输出是垃圾但会被忽略。")
def _pad_queries(lengths, S):
    return _real(lengths, S)[:, :, None]


@mistake("padding_mask", "inverted", "7.16", "mask", MASK_CONVENTION)
def _pad_inverted(lengths, S):
    return ~_real(lengths, S)[:, None, :]


@mistake("padding_mask", "no-broadcast-axis", "7.16", "mask",
         "构造 [B, S] 的 0/1 mask（1=真实 token，0=PAD），广播成 [B, 1, S]（多头再加 head 维）")
def _pad_flat(lengths, S):
    return _real(lengths, S)


@mistake("padding_mask", "off-by-one", "7.16", "mask",
         "长度为 L 的序列，真实 token 是位置 0…L−1（共 L 个）；位置 L 起才是 PAD。", verbatim=False)
def _pad_off_by_one(lengths, S):
    return (np.arange(S)[None, :] <= np.asarray(lengths).reshape(-1)[:, None])[:, None, :]
