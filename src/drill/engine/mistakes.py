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
MASK_CONVENTION = "**不同框架的 mask 约定相反**：HuggingFace 用 1=保留，PyTorch 的 `attn_mask` 用 True=遮住，写错会导致「只注意 PAD」。"
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
    "softmax",
    "sigmoid",
    "7.10",
    "softmax",
    "**不是 Sigmoid**：Sigmoid 逐元素独立，不保证和为 1；Softmax 是竞争性的（此消彼长）。",
)
def _softmax_sigmoid(x):
    return ops.sigmoid(_f(x))


# ---------------------------------------------------------------- 2. attention (7.9-7.13)


def _attend(
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


@mistake(
    "attention",
    "scale-by-dk",
    "7.9",
    "scale",
    "**不是除以 $d_k$**：方差随 $d_k$ 线性增长，要除的是标准差 $\\sqrt{d_k}$。除以 $d_k$ 会让分布过平、区分度不足。",
)
def _attn_dk(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, scale=lambda d: d)


@mistake(
    "attention",
    "no-scale",
    "7.9",
    "scale",
    "没有除以 $\\sqrt{d_k}$：$QK^\\top$ 的方差随 $d_k$ 线性增长，softmax 会饱和。",
    verbatim=False,
)
def _attn_unscaled(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, scale=lambda d: 1.0)


@mistake(
    "attention",
    "softmax-wrong-axis",
    "7.13",
    "softmax",
    "**`F.softmax(dim=-1)` 的维度必须写对**：写 `dim=1`（对 S 维）语义就错了。",
)
def _attn_axis(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, axis=-2)


@mistake("attention", "no-max-subtraction", "7.10", "softmax", NO_MAX)
def _attn_no_max(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, stable=False)


@mistake(
    "attention", "mask-after-softmax", "7.13", "mask", "**mask 要在 softmax 之前加**，加在之后是无效的。"
)
def _attn_after(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, after=True)


@mistake("attention", "mask-fill-zero", "7.17", "mask", "**填 0**：softmax(0) = 正数权重，等于没遮；")
def _attn_fill_zero(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, fill=0.0)


@mistake("attention", "mask-inverted", "7.16", "mask", MASK_CONVENTION)
def _attn_inverted(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, invert=True)


@mistake(
    "attention",
    "fully-masked-nan",
    "7.13",
    "softmax",
    "整行都被遮住时分数全是 −∞，softmax 变成 0/0：这一行应当输出 0（PyTorch SDPA 的约定），而不是 NaN。",
    verbatim=False,
)
def _attn_nan(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, guard=False)


@mistake("attention", "transpose-0-1", "7.13", "scores", TRANSPOSE)
def _attn_t01(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, kt=lambda k: np.swapaxes(k, 0, 1))


@mistake(
    "attention",
    "transpose-all-axes",
    "7.13",
    "scores",
    "`K.T` 在批量输入上会把所有轴都反转（连 batch 一起）；" + TRANSPOSE,
    verbatim=False,
)
def _attn_tall(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, kt=lambda k: k.T)


@mistake(
    "attention",
    "weights-times-k",
    "7.11",
    "weighted_sum",
    "最后乘的是 V 不是 K：K 只负责匹配打分，V 提供内容；**输出维度是 $d_v$，不是 $d_k$**。",
    verbatim=False,
)
def _attn_times_k(Q, K, V, mask=None):
    return _attend(Q, K, V, mask, values=lambda k, v: k)


# ---------------------------------------------------------------- 3. causal mask (7.17)


@mistake(
    "causal_mask",
    "upper-triangle",
    "7.17",
    "mask",
    "如果预测第 3 个词时模型能看到第 4 个词，它就「抄答案」了。所以把每个位置右边（未来）的注意力分数设为 −∞，softmax 后这些位置权重为 0。",
)
def _causal_upper(S):
    return np.triu(np.ones((S, S), dtype=bool))


@mistake("causal_mask", "masked-convention", "7.16", "mask", MASK_CONVENTION)
def _causal_masked(S):
    return np.triu(np.ones((S, S), dtype=bool), k=1)


@mistake(
    "causal_mask",
    "no-diagonal",
    "7.17",
    "mask",
    "对角线要保留：位置 i 可以关注 j ≤ i，包括它自己（`triu(..., 1)` 遮的是严格上三角）。",
    verbatim=False,
)
def _causal_no_diag(S):
    return np.tril(np.ones((S, S), dtype=bool), k=-1)


# ---------------------------------------------------------------- 4. padding mask (7.16)


def _real(lengths, S):
    return np.arange(S)[None, :] < np.asarray(lengths).reshape(-1)[:, None]


@mistake(
    "padding_mask",
    "masks-queries",
    "7.16",
    "mask",
    "**padding mask 遮的是 key 维度**（哪些位置不能被关注）；query 位置的 PAD 输出是垃圾但会被忽略。",
)
def _pad_queries(lengths, S):
    return _real(lengths, S)[:, :, None]


@mistake("padding_mask", "inverted", "7.16", "mask", MASK_CONVENTION)
def _pad_inverted(lengths, S):
    return ~_real(lengths, S)[:, None, :]


@mistake(
    "padding_mask",
    "no-broadcast-axis",
    "7.16",
    "mask",
    "构造 [B, S] 的 0/1 mask（1=真实 token，0=PAD），广播成 [B, 1, S]（多头再加 head 维）",
)
def _pad_flat(lengths, S):
    return _real(lengths, S)


@mistake(
    "padding_mask",
    "off-by-one",
    "7.16",
    "mask",
    "长度为 L 的序列，真实 token 是位置 0…L−1（共 L 个）；位置 L 起才是 PAD。",
    verbatim=False,
)
def _pad_off_by_one(lengths, S):
    return (np.arange(S)[None, :] <= np.asarray(lengths).reshape(-1)[:, None])[:, None, :]


# ---------------------------------------------------------------- 5-6. multi-head and grouped-query attention (7.14)


def _heads(x, h):
    """[..., S, h*d] -> [..., h, S, d] (split the last axis, then move heads before the sequence)."""
    return np.swapaxes(x.reshape(x.shape[:-1] + (h, x.shape[-1] // h)), -2, -3)


def _merge(x):
    """[..., h, S, d] -> [..., S, h*d]."""
    x = np.swapaxes(x, -2, -3)
    return x.reshape(x.shape[:-2] + (-1,))


def _heads_no_transpose(x, h):
    """The bug: reshape [..., S, h*d] straight to [..., h, S, d], which mixes tokens and heads."""
    return x.reshape(x.shape[:-2] + (h, x.shape[-2], x.shape[-1] // h))


def _mha(
    X,
    W_Q,
    W_K,
    W_V,
    W_O,
    h,
    g=None,
    mask=None,
    *,
    split=_heads,
    merge=_merge,
    proj=True,
    scale=None,
    repeat="repeat",
):
    X = _f(X)
    g = h if g is None else g
    d_model = W_Q.shape[1]
    if d_model % h or h % g:
        raise ValueError("heads do not divide")
    q, k, v = split(X @ W_Q, h), split(X @ W_K, g), split(X @ W_V, g)
    if g < h:
        k, v = (
            np.repeat(a, h // g, axis=-3) if repeat == "repeat" else np.tile(a, (h // g, 1, 1))
            for a in (k, v)
        )
    m = None if mask is None else np.asarray(mask, dtype=bool)[..., None, :, :]
    out, _ = _attend(q, k, v, m, scale=scale)
    out = merge(out)
    return out @ W_O if proj else out


def _mha_merge_no_transpose(x):
    return x.reshape(x.shape[:-3] + (x.shape[-2], -1))


@mistake(
    "multi_head_attention",
    "heads-no-transpose",
    "7.14",
    "split_heads",
    "拆头要先 reshape 成 [B, S, h, d_k] 再 transpose 成 [B, h, S, d_k]；直接 reshape 成 [B, h, S, d_k] 会把不同 token 的维度混进同一个头。",
    verbatim=False,
)
def _mha_no_transpose(X, W_Q, W_K, W_V, W_O, h, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, mask=mask, split=_heads_no_transpose, merge=_mha_merge_no_transpose)


@mistake(
    "multi_head_attention",
    "no-output-projection",
    "7.14",
    "output_proj",
    "**必须拼接后再过 $W_O$**：$W_O$ 负责融合各头信息，不能省。",
)
def _mha_no_wo(X, W_Q, W_K, W_V, W_O, h, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, mask=mask, proj=False)


@mistake(
    "multi_head_attention",
    "scale-by-d-model",
    "7.14",
    "scale",
    "每个头的维度是 $d_k = d_{model}/h$，缩放除以的是 $\\sqrt{d_k}$，不是 $\\sqrt{d_{model}}$。",
    verbatim=False,
)
def _mha_scale_dmodel(X, W_Q, W_K, W_V, W_O, h, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, mask=mask, scale=lambda d: math.sqrt(d * h))


@mistake(
    "grouped_query_attention",
    "kv-heads-tiled",
    "7.14",
    "repeat_k",
    "GQA 分组共享：相邻的 h/g 个 Query head 共用同一组 K/V（repeat_interleave）；用 tile 会让第 i 个 Q head 配到第 i mod g 组。",
    verbatim=False,
)
def _gqa_tiled(X, W_Q, W_K, W_V, W_O, h, g, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, g, mask, repeat="tile")


@mistake(
    "grouped_query_attention",
    "heads-no-transpose",
    "7.14",
    "split_heads",
    "拆头要先 reshape 成 [B, S, h, d_k] 再 transpose 成 [B, h, S, d_k]；直接 reshape 成 [B, h, S, d_k] 会把不同 token 的维度混进同一个头。",
    verbatim=False,
)
def _gqa_no_transpose(X, W_Q, W_K, W_V, W_O, h, g, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, g, mask, split=_heads_no_transpose, merge=_mha_merge_no_transpose)


# ---------------------------------------------------------------- 7. cross-attention (7.18)


def _cross(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None, *, swap=False, causal=False, on_queries=False):
    q_src, kv_src = (X_enc, X_dec) if swap else (X_dec, X_enc)
    Q, K, V = _f(q_src) @ W_Q, _f(kv_src) @ W_K, _f(kv_src) @ W_V
    mask = None
    if enc_mask is not None:
        m = np.asarray(enc_mask, dtype=bool)
        mask = m[..., :, None] if on_queries else m[..., None, :]
    if causal:
        c = ops.causal_allowed(Q.shape[-2], K.shape[-2])
        mask = c if mask is None else mask & c
    return _attend(Q, K, V, mask)


@mistake(
    "cross_attention",
    "q-from-encoder",
    "7.18",
    "project_q",
    "**Q 来自 Decoder，K/V 来自 Encoder**——记反是最常见的错误。",
)
def _cross_swapped(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    return _cross(X_dec, X_enc, W_Q, W_K, W_V, enc_mask, swap=True)


@mistake(
    "cross_attention",
    "causal-mask",
    "7.18",
    "mask",
    "**Cross-Attention 不需要 causal mask**：Encoder 是双向可见的，遮的是「输入」而不是「未来」。",
)
def _cross_causal(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    return _cross(X_dec, X_enc, W_Q, W_K, W_V, enc_mask, causal=True)


@mistake(
    "cross_attention",
    "mask-on-queries",
    "7.16",
    "mask",
    "**padding mask 遮的是 key 维度**（哪些位置不能被关注）；query 位置的 PAD 输出是垃圾但会被忽略。",
)
def _cross_mask_queries(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    return _cross(X_dec, X_enc, W_Q, W_K, W_V, enc_mask, on_queries=True)


# ---------------------------------------------------------------- 8. LayerNorm (7.20)


def _ln(x, gamma, beta, eps, *, ddof=0, eps_outside=False, axis=-1):
    x = _f(x)
    mu = x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, keepdims=True, ddof=ddof)
    sd = np.sqrt(var) + eps if eps_outside else np.sqrt(var + eps)
    return gamma * (x - mu) / sd + beta


@mistake(
    "layer_norm",
    "unbiased-variance",
    "7.20",
    "variance",
    "LayerNorm 的 $\\sigma^2$ 是有偏方差（除以 d，PyTorch 的 `unbiased=False`），不是除以 d−1 的无偏方差。",
    verbatim=False,
)
def _ln_unbiased(x, gamma, beta, eps=1e-5):
    return _ln(x, gamma, beta, eps, ddof=1)


@mistake(
    "layer_norm",
    "eps-outside-sqrt",
    "7.20",
    "normalize",
    "$\\epsilon$ 在根号里面：$\\sqrt{\\sigma^2 + \\epsilon}$，不是 $\\sqrt{\\sigma^2} + \\epsilon$。",
    verbatim=False,
)
def _ln_eps_outside(x, gamma, beta, eps=1e-5):
    return _ln(x, gamma, beta, eps, eps_outside=True)


@mistake("layer_norm", "wrong-axis", "7.20", "mean", "**不跨 token、不跨 batch**")
def _ln_axis(x, gamma, beta, eps=1e-5):
    return _ln(x, gamma, beta, eps, axis=-2 if np.ndim(x) >= 2 else -1)


# ---------------------------------------------------------------- 9. FFN (7.21)


@mistake(
    "ffn",
    "gelu-tanh",
    "7.21",
    "activation",
    'GELU 是 $x\\Phi(x)$（含 erf），tanh 公式只是它的近似（PyTorch 的 `approximate="tanh"`）。',
    verbatim=False,
)
def _ffn_tanh(x, W_1, b_1, W_2, b_2, activation="relu"):
    act = ops.gelu_tanh if activation == "gelu" else ops.relu
    return act(_f(x) @ W_1 + b_1) @ W_2 + b_2


@mistake(
    "ffn",
    "activation-after-output",
    "7.21",
    "activation",
    "FFN 是两个线性层夹一个激活：W₂σ(W₁x+b₁)+b₂",
    verbatim=True,
)
def _ffn_act_out(x, W_1, b_1, W_2, b_2, activation="relu"):
    act = ops.gelu if activation == "gelu" else ops.relu
    return act(act(_f(x) @ W_1 + b_1) @ W_2 + b_2)


# ---------------------------------------------------------------- 10. positional encodings (7.3)


def _angles(S, d_model, index):
    pos = np.arange(S, dtype=np.float64)[:, None]
    j = np.arange(d_model, dtype=np.float64)[None, :]
    two_i = j if index else 2 * (j // 2)
    return pos / 10000.0 ** (two_i / d_model)


@mistake(
    "sinusoidal_pe",
    "sin-cos-swapped",
    "7.3",
    "encode",
    "偶数维 $2i$ 用 sin，奇数维 $2i+1$ 用 cos：$PE_{(pos,2i)} = \\sin(\\cdot)$，$PE_{(pos,2i+1)} = \\cos(\\cdot)$。",
    verbatim=False,
)
def _pe_swapped(S, d_model):
    a = _angles(S, d_model, False)
    pe = np.cos(a)
    pe[:, 1::2] = np.sin(a[:, 1::2])
    return pe


@mistake(
    "sinusoidal_pe",
    "exponent-uses-dimension",
    "7.3",
    "frequency",
    "频率的指数是 $2i/d$，其中 $i$ 是维度对的编号：第 $2i$ 和 $2i+1$ 维用同一个频率，不是用维度下标本身。",
    verbatim=False,
)
def _pe_index(S, d_model):
    a = _angles(S, d_model, True)
    pe = np.sin(a)
    pe[:, 1::2] = np.cos(a[:, 1::2])
    return pe


@mistake(
    "sinusoidal_pe",
    "halves-not-interleaved",
    "7.3",
    "encode",
    "sin 和 cos 是交错放的（第 $2i$ 维 sin、第 $2i+1$ 维 cos），不是前一半 sin、后一半 cos。",
    verbatim=False,
)
def _pe_halves(S, d_model):
    a = _angles(S, d_model, False)[:, 0::2]
    return np.concatenate([np.sin(a), np.cos(a)], axis=-1)


@mistake(
    "rope",
    "half-split-pairs",
    "7.3",
    "rotate",
    "本题约定相邻两维 $(x_{2i}, x_{2i+1})$ 为一对旋转（RoFormer）；把 $x_i$ 与 $x_{i+d/2}$ 配对是另一种约定（LLaMA 的 HF 实现）。",
    verbatim=False,
)
def _rope_half(x, positions):
    x = _f(x)
    d = x.shape[-1]
    theta = ops.rope_angles(np.asarray(positions), d)
    cos, sin = np.cos(theta), np.sin(theta)
    a, b = x[..., : d // 2], x[..., d // 2 :]
    return np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=-1)


@mistake(
    "rope",
    "rotation-sign",
    "7.3",
    "rotate",
    "旋转矩阵是 $\\begin{pmatrix}\\cos\\theta & -\\sin\\theta\\\\ \\sin\\theta & \\cos\\theta\\end{pmatrix}$：转反了方向，相对位置的符号就反了。",
    verbatim=False,
)
def _rope_sign(x, positions):
    return ops.rope(_f(x), -np.asarray(positions, dtype=np.float64))


# ---------------------------------------------------------------- 11. KV cache step (7.22)


def _kv(x_t, W_Q, W_K, W_V, K_cache, V_cache, *, tril=False, append_after=False):
    x_t = _f(x_t)
    K_new = np.vstack([_f(K_cache), x_t @ W_K])
    V_new = np.vstack([_f(V_cache), x_t @ W_V])
    K, V = (_f(K_cache), _f(V_cache)) if append_after else (K_new, V_new)
    mask = np.tril(np.ones((1, K.shape[0]), dtype=bool)) if tril else None
    out, _ = _attend(x_t @ W_Q, K, V, mask)
    return out, K_new, V_new


@mistake(
    "kv_cache_step",
    "causal-mask-on-step",
    "7.22",
    "mask",
    "**推理时不用 causal mask，但结果等价**：因为没有未来 token 可看。",
)
def _kv_tril(x_t, W_Q, W_K, W_V, K_cache, V_cache):
    return _kv(x_t, W_Q, W_K, W_V, K_cache, V_cache, tril=True)


@mistake(
    "kv_cache_step",
    "append-after-attend",
    "7.22",
    "attend",
    "第 t 步要先把当前 token 的 k、v 追加进缓存再做注意力：它可以关注自己（j ≤ t）。",
    verbatim=False,
)
def _kv_after(x_t, W_Q, W_K, W_V, K_cache, V_cache):
    return _kv(x_t, W_Q, W_K, W_V, K_cache, V_cache, append_after=True)


# ---------------------------------------------------------------- 12. Noam schedule (7.23)


@mistake(
    "noam_lr",
    "max-not-min",
    "7.23",
    "lr",
    "公式里是 $\\min(\\text{step}^{-0.5},\\ \\text{step} \\cdot \\text{warmup\\_steps}^{-1.5})$：前 warmup 步线性增长，之后按 step^-0.5 衰减。",
    verbatim=False,
)
def _noam_max(step, d_model, warmup):
    s = _f(step)
    return d_model**-0.5 * np.maximum(s**-0.5, s * warmup**-1.5)


@mistake(
    "noam_lr",
    "warmup-exponent",
    "7.23",
    "lr",
    "warmup 项是 $\\text{step} \\cdot \\text{warmup\\_steps}^{-1.5}$（指数 −1.5，不是 −0.5），两段在 step = warmup 处相接。",
    verbatim=False,
)
def _noam_exp(step, d_model, warmup):
    s = _f(step)
    return d_model**-0.5 * np.minimum(s**-0.5, s * warmup**-0.5)


@mistake(
    "noam_lr",
    "no-d-model-factor",
    "7.23",
    "lr",
    "别漏了前面的 $d_{model}^{-0.5}$：模型越宽，学习率越小。",
    verbatim=False,
)
def _noam_no_d(step, d_model, warmup):
    s = _f(step)
    return np.minimum(s**-0.5, s * warmup**-1.5)


from drill.engine import quiz_mistakes as _quiz_mistakes  # noqa: E402,F401  (registers the quiz's counts and shapes)
