"""Tasks 5-12: multi-head, grouped-query and cross-attention, LayerNorm, FFN, positional encodings, one
KV-cache step, the Noam schedule (7.3, 7.14-7.23)."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.codetasks.basic import attention_oracle
from drill.engine.codetasks.model import Case, Output, Task

# ---------------------------------------------------------------- oracles


def _split(x, h):
    return np.swapaxes(x.reshape(x.shape[:-1] + (h, x.shape[-1] // h)), -2, -3)


def _merge(x):
    x = np.swapaxes(x, -2, -3)
    return x.reshape(x.shape[:-2] + (-1,))


def gqa_oracle(X, W_Q, W_K, W_V, W_O, h, g, mask=None):
    X = np.asarray(X, dtype=np.float64)
    d_model = W_Q.shape[1]
    if d_model % h:
        raise ValueError(f"d_model = {d_model} is not a multiple of h = {h}")
    if h % g:
        raise ValueError(f"h = {h} is not a multiple of g = {g}")
    q, k, v = _split(X @ W_Q, h), _split(X @ W_K, g), _split(X @ W_V, g)
    k, v = (
        np.repeat(k, h // g, axis=-3),
        np.repeat(v, h // g, axis=-3),
    )  # query head i uses kv head i // (h/g)
    m = None if mask is None else np.asarray(mask, dtype=bool)[..., None, :, :]
    out, _ = attention_oracle(q, k, v, m)
    return _merge(out) @ W_O


def mha_oracle(X, W_Q, W_K, W_V, W_O, h, mask=None):
    return gqa_oracle(X, W_Q, W_K, W_V, W_O, h, h, mask)


def cross_oracle(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    Q, K, V = np.asarray(X_dec) @ W_Q, np.asarray(X_enc) @ W_K, np.asarray(X_enc) @ W_V
    mask = None if enc_mask is None else np.asarray(enc_mask, dtype=bool)[..., None, :]
    return attention_oracle(Q, K, V, mask)


def layer_norm_oracle(x, gamma, beta, eps=1e-5):
    return ops.layer_norm(np.asarray(x, dtype=np.float64), gamma, beta, eps)


def ffn_oracle(x, W_1, b_1, W_2, b_2, activation="relu"):
    act = {"relu": ops.relu, "gelu": ops.gelu}[activation]
    return act(np.asarray(x, dtype=np.float64) @ W_1 + b_1) @ W_2 + b_2


def pe_oracle(S, d_model):
    return ops.sinusoidal_pe(int(S), int(d_model))


def rope_oracle(x, positions):
    return ops.rope(np.asarray(x, dtype=np.float64), np.asarray(positions))


def kv_oracle(x_t, W_Q, W_K, W_V, K_cache, V_cache):
    K = np.vstack([K_cache, x_t @ W_K])
    V = np.vstack([V_cache, x_t @ W_V])
    out, _ = attention_oracle(x_t @ W_Q, K, V)  # the cache holds exactly the tokens <= t: no mask
    return out, K, V


def noam_oracle(step, d_model, warmup):
    return ops.noam_lr(step, d_model, warmup)


# ---------------------------------------------------------------- hidden tests


def _n(rng, *shape, scale=1.0):
    return rng.normal(0, scale, shape)


def _mha_args(rng, lead, S, d_model, h, g=None):
    d_k = d_model // h
    kv = d_model if g is None else g * d_k
    return (
        _n(rng, *lead, S, d_model),
        _n(rng, d_model, d_model, scale=0.5),
        _n(rng, d_model, kv, scale=0.5),
        _n(rng, d_model, kv, scale=0.5),
        _n(rng, d_model, d_model, scale=0.5),
    )


def mha_cases(rng) -> list[Case]:
    cases = []
    for i, (lead, h) in enumerate((((), 2), ((2,), 4), ((2,), 1))):
        S = int(rng.integers(2, 6))
        cases.append(Case(f"random-{i + 1}", _mha_args(rng, lead, S, 4 * h if h > 1 else 3, h) + (h,)))
    cases += [
        Case(
            "heads-gt-1",
            _mha_args(rng, (2,), 4, 6, 3) + (3,),
            pitfall="multi_head_attention/heads-no-transpose",
        ),
        Case(
            "output-projection",
            _mha_args(rng, (), 3, 4, 2) + (2,),
            pitfall="multi_head_attention/no-output-projection",
        ),
        Case(
            "scale-per-head",
            _mha_args(rng, (), 3, 8, 4) + (4,),
            pitfall="multi_head_attention/scale-by-d-model",
        ),
        Case("causal", _mha_args(rng, (2,), 4, 4, 2) + (2,), {"mask": ops.causal_allowed(4)}),
        Case("s-eq-1", _mha_args(rng, (), 1, 4, 2) + (2,)),
        Case("d-model-not-multiple-of-h", _mha_args(rng, (), 3, 6, 1) + (4,), expect_error=True),
    ]
    return cases


def gqa_cases(rng) -> list[Case]:
    cases = []
    for i, (lead, h, g) in enumerate((((), 4, 2), ((2,), 6, 3), ((2,), 4, 4))):
        cases.append(
            Case(f"random-{i + 1}", _mha_args(rng, lead, int(rng.integers(2, 6)), 2 * h, h, g) + (h, g))
        )
    cases += [
        Case(
            "groups",
            _mha_args(rng, (2,), 3, 8, 4, 2) + (4, 2),
            pitfall="grouped_query_attention/kv-heads-tiled",
        ),
        Case("mqa-g-eq-1", _mha_args(rng, (), 4, 6, 3, 1) + (3, 1)),
        Case(
            "heads-gt-1",
            _mha_args(rng, (2,), 4, 6, 3, 3) + (3, 3),
            pitfall="grouped_query_attention/heads-no-transpose",
        ),
        Case("causal", _mha_args(rng, (), 4, 8, 4, 2) + (4, 2), {"mask": ops.causal_allowed(4)}),
        Case("d-model-not-multiple-of-h", _mha_args(rng, (), 3, 6, 1, 1) + (4, 2), expect_error=True),
        Case("h-not-multiple-of-g", _mha_args(rng, (), 3, 6, 3, 1) + (3, 2), expect_error=True),
    ]
    return cases


def _cross_args(rng, lead, s_dec, s_enc, d_model, d_k, d_v):
    return (
        _n(rng, *lead, s_dec, d_model),
        _n(rng, *lead, s_enc, d_model),
        _n(rng, d_model, d_k),
        _n(rng, d_model, d_k),
        _n(rng, d_model, d_v),
    )


def cross_cases(rng) -> list[Case]:
    cases = [
        Case(
            f"random-{i + 1}",
            _cross_args(rng, lead, int(rng.integers(2, 5)), int(rng.integers(2, 7)), 4, 3, 2),
        )
        for i, lead in enumerate(((), (2,)))
    ]
    lengths = np.array([5, 3])
    cases += [
        Case("sdec-ne-senc", _cross_args(rng, (), 2, 5, 4, 3, 3), pitfall="cross_attention/q-from-encoder"),
        Case("no-causal", _cross_args(rng, (), 4, 4, 4, 2, 2), pitfall="cross_attention/causal-mask"),
        Case(
            "encoder-padding",
            _cross_args(rng, (2,), 3, 5, 4, 3, 2),
            {"enc_mask": np.arange(5)[None, :] < lengths[:, None]},
        ),
        Case(
            "mask-keys",
            _cross_args(rng, (2,), 4, 4, 4, 2, 2),
            {"enc_mask": np.arange(4)[None, :] < np.array([4, 2])[:, None]},
            pitfall="cross_attention/mask-on-queries",
        ),
        Case("s-eq-1", _cross_args(rng, (), 1, 1, 3, 2, 2)),
    ]
    return cases


def ln_cases(rng) -> list[Case]:
    def args(*shape, scale=1.0):
        d = shape[-1]
        return (
            _n(rng, *shape, scale=scale) + rng.normal(0, 2),
            1 + _n(rng, d, scale=0.3),
            _n(rng, d, scale=0.3),
        )

    cases = [Case(f"random-{i + 1}", args(*shape)) for i, shape in enumerate(((4,), (3, 5), (2, 3, 6)))]
    x, gamma, beta = args(3, 4)
    cases += [
        Case(
            "chapter-example",
            (np.array([[1.0, 2.0, 3.0, 4.0]]), np.ones(4), np.zeros(4)),
            pitfall="layer_norm/unbiased-variance",
        ),
        Case("eps-placement", (x * 1e-3, gamma, beta), {"eps": 1e-5}, pitfall="layer_norm/eps-outside-sqrt"),
        Case("per-token", args(4, 3), pitfall="layer_norm/wrong-axis"),
        Case("eps-given", args(2, 4), {"eps": 0.1}),
        Case("d-eq-2", args(3, 2)),
    ]
    return cases


def ffn_cases(rng) -> list[Case]:
    def args(lead, d, d_ff):
        return (
            _n(rng, *lead, d),
            _n(rng, d, d_ff),
            _n(rng, d_ff, scale=0.5),
            _n(rng, d_ff, d),
            _n(rng, d, scale=0.5),
        )

    cases = [
        Case(f"random-{i + 1}", args(lead, 3, 8), {"activation": act})
        for i, (lead, act) in enumerate((((4,), "relu"), ((2, 3), "gelu"), ((5,), "gelu")))
    ]
    cases += [
        Case("gelu-exact", args((4,), 2, 8), {"activation": "gelu"}, pitfall="ffn/gelu-tanh"),
        Case("relu-default", args((3,), 2, 8), pitfall="ffn/activation-after-output"),
        Case("per-token", args((2, 4), 4, 16), {"activation": "relu"}),
    ]
    return cases


def pe_cases(rng) -> list[Case]:
    cases = [
        Case(f"random-{i + 1}", (int(rng.integers(1, 20)), 2 * int(rng.integers(1, 9)))) for i in range(3)
    ]
    cases += [
        Case("sin-even-cos-odd", (4, 4), pitfall="sinusoidal_pe/sin-cos-swapped"),
        Case("frequencies", (6, 8), pitfall="sinusoidal_pe/exponent-uses-dimension"),
        Case("interleaved", (3, 6), pitfall="sinusoidal_pe/halves-not-interleaved"),
        Case("s-eq-1", (1, 4)),
        Case("d-eq-2", (5, 2)),
    ]
    return cases


def rope_cases(rng) -> list[Case]:
    cases = [
        Case(f"random-{i + 1}", (_n(rng, *lead, S, d), np.arange(S)))
        for i, (lead, S, d) in enumerate((((), 4, 4), ((2,), 3, 8), ((2, 2), 5, 6)))
    ]
    cases += [
        Case("pairs", (_n(rng, 3, 8), np.arange(3)), pitfall="rope/half-split-pairs"),
        Case("direction", (_n(rng, 4, 4), np.arange(4)), pitfall="rope/rotation-sign"),
        Case("offset-positions", (_n(rng, 3, 4), np.arange(7, 10))),
        Case("position-0-unchanged", (_n(rng, 1, 6), np.array([0]))),
    ]
    return cases


def kv_cases(rng) -> list[Case]:
    d_model, d_k, d_v, S = 4, 3, 2, 5
    x = _n(rng, S, d_model)
    W_Q, W_K, W_V = _n(rng, d_model, d_k), _n(rng, d_model, d_k), _n(rng, d_model, d_v)
    cases = []
    for t in range(S):
        pitfall = {2: "kv_cache_step/causal-mask-on-step", 3: "kv_cache_step/append-after-attend"}.get(t)
        cases.append(
            Case(f"step-{t + 1}", (x[t : t + 1], W_Q, W_K, W_V, x[:t] @ W_K, x[:t] @ W_V), pitfall=pitfall)
        )
    return cases


def noam_cases(rng) -> list[Case]:
    warmup = int(rng.integers(100, 4000))
    steps = np.unique(np.concatenate([rng.integers(1, 3 * warmup, size=6), [1, warmup, warmup + 1]]))
    return [
        Case("random-steps", (steps, int(rng.choice([128, 256, 512])), warmup)),
        Case(
            "chapter-setting",
            (np.array([1, 2000, 4000, 8000, 100000]), 512, 4000),
            pitfall="noam_lr/warmup-exponent",
        ),
        Case("after-warmup", (np.array([5000, 20000]), 512, 4000), pitfall="noam_lr/max-not-min"),
        Case("d-model", (np.array([10, 100]), 1024, 50), pitfall="noam_lr/no-d-model-factor"),
        Case("scalar-step", (1, 512, 4000)),
    ]


# ---------------------------------------------------------------- the tasks

_MHA_SHAPES = (
    "- `X`：`[..., S, d_model]`（前面可以有 batch 维）；`W_Q, W_K, W_V, W_O`：`[d_model, d_model]`（行向量约定：`X @ W`）\n"
    "- `h` 个头，每头 $d_k = d_{model}/h$；$d_{model}$ 不能被 $h$ 整除时抛出 `ValueError`\n"
    "- `mask`：可选布尔数组，可广播到 `[..., S, S]`，True = 可以关注，对每个头都一样\n"
)

MHA = Task(
    name="multi_head_attention",
    number=5,
    section="7.14",
    title="Multi-Head Attention",
    prompt=(
        "实现多头注意力：拆头 → 每头做缩放点积注意力 → 拼接 → 过 $W_O$。\n\n"
        "$$\\text{MultiHead}(X) = \\text{Concat}(\\text{head}_1, \\dots, \\text{head}_h)W_O,\\quad "
        "\\text{head}_i = \\text{Attention}(XW_Q^{(i)}, XW_K^{(i)}, XW_V^{(i)})$$\n\n"
        + _MHA_SHAPES
        + "- 第 i 个头用投影结果的第 i 段列（`[:, i*d_k:(i+1)*d_k]`）\n- 返回 `[..., S, d_model]`"
    ),
    formula="\\text{MultiHead}(X) = \\text{Concat}(\\text{head}_1, \\dots, \\text{head}_h)W_O",
    signature="multi_head_attention(X, W_Q, W_K, W_V, W_O, h, mask=None)",
    outputs=(Output("out", "output_proj"),),
    order=(0,),
    budget_s=900,
    make_cases=mha_cases,
    oracle=mha_oracle,
)

GQA = Task(
    name="grouped_query_attention",
    number=6,
    section="7.14",
    title="GQA / MQA",
    prompt=(
        "实现分组查询注意力：`h` 个 Query head，`g` 组 K/V head（g = 1 是 MQA，g = h 是 MHA）。\n\n"
        "- `X`：`[..., S, d_model]`；`W_Q, W_O`：`[d_model, d_model]`；`W_K, W_V`：`[d_model, g·d_k]`，"
        "$d_k = d_{model}/h$\n"
        "- 第 i 个 Query head 使用第 `i // (h // g)` 组 K/V（相邻的 h/g 个头共享一组，即 repeat_interleave）\n"
        "- $d_{model}$ 不能被 h 整除、或 h 不能被 g 整除时抛出 `ValueError`\n"
        "- `mask`：同 multi_head_attention；返回 `[..., S, d_model]`"
    ),
    formula="\\text{head}_i = \\text{Attention}(Q^{(i)}, K^{(\\lfloor i/(h/g) \\rfloor)}, V^{(\\lfloor i/(h/g) \\rfloor)})",
    signature="grouped_query_attention(X, W_Q, W_K, W_V, W_O, h, g, mask=None)",
    outputs=(Output("out", "output_proj"),),
    order=(0,),
    budget_s=900,
    make_cases=gqa_cases,
    oracle=gqa_oracle,
)

CROSS = Task(
    name="cross_attention",
    number=7,
    section="7.18",
    title="Cross-Attention",
    prompt=(
        "实现 Encoder-Decoder 的 Cross-Attention（单头）：Q 来自 Decoder，K/V 来自 Encoder。\n\n"
        "$$\\text{CrossAttn} = \\text{softmax}\\left(\\frac{(X_{dec}W_Q)(X_{enc}W_K)^\\top}{\\sqrt{d_k}}\\right)X_{enc}W_V$$\n\n"
        "- `X_dec`：`[..., S_dec, d_model]`，`X_enc`：`[..., S_enc, d_model]`；`W_Q, W_K`：`[d_model, d_k]`，"
        "`W_V`：`[d_model, d_v]`\n"
        "- `enc_mask`：可选布尔数组 `[..., S_enc]`，True = 真实 token（Encoder 的 padding mask）\n"
        "- 返回 `(out, A)`：`out` 为 `[..., S_dec, d_v]`，`A` 为 `[..., S_dec, S_enc]`"
    ),
    formula="\\text{softmax}\\left(\\frac{(X_{dec}W_Q)(X_{enc}W_K)^\\top}{\\sqrt{d_k}}\\right)X_{enc}W_V",
    signature="cross_attention(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None)",
    outputs=(Output("out", "weighted_sum"), Output("A", "softmax")),
    order=(1, 0),
    budget_s=600,
    make_cases=cross_cases,
    oracle=cross_oracle,
)

LAYER_NORM = Task(
    name="layer_norm",
    number=8,
    section="7.20",
    title="LayerNorm",
    prompt=(
        "对最后一维做 LayerNorm（每个 token 自己的向量）：\n\n"
        "$$\\text{LN}(x) = \\gamma \\cdot \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta$$\n\n"
        "- `x`：`[..., d]`；`gamma, beta`：`[d]`；`eps` 默认 1e-5\n"
        "- $\\mu$、$\\sigma^2$ 是该 token 向量内的均值和（有偏）方差\n- 返回与 `x` 同形状"
    ),
    formula="\\text{LN}(x) = \\gamma \\cdot \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta",
    signature="layer_norm(x, gamma, beta, eps=1e-5)",
    outputs=(Output("y", "affine"),),
    order=(0,),
    budget_s=300,
    make_cases=ln_cases,
    oracle=layer_norm_oracle,
)

FFN = Task(
    name="ffn",
    number=9,
    section="7.21",
    title="Position-wise FFN（ReLU / GELU）",
    prompt=(
        "实现逐位置前馈网络：两个线性层夹一个激活。\n\n"
        "$$\\text{FFN}(x) = \\sigma(xW_1 + b_1)W_2 + b_2$$\n\n"
        "- `x`：`[..., d_model]`；`W_1`：`[d_model, d_ff]`，`b_1`：`[d_ff]`，`W_2`：`[d_ff, d_model]`，`b_2`：`[d_model]`\n"
        '- `activation`：`"relu"`（默认）或 `"gelu"`；GELU 用精确形式 $x\\Phi(x) = \\tfrac{x}{2}(1 + '
        "\\text{erf}(x/\\sqrt2))$（`math.erf`）\n- 返回 `[..., d_model]`"
    ),
    formula="\\text{FFN}(x) = \\sigma(xW_1 + b_1)W_2 + b_2",
    signature='ffn(x, W_1, b_1, W_2, b_2, activation="relu")',
    outputs=(Output("y", "ffn"),),
    order=(0,),
    budget_s=300,
    make_cases=ffn_cases,
    oracle=ffn_oracle,
)

PE = Task(
    name="sinusoidal_pe",
    number=10,
    section="7.3",
    title="Sinusoidal 位置编码",
    prompt=(
        "实现原始 Transformer 的正弦位置编码：\n\n"
        "$$PE_{(pos,2i)} = \\sin\\left(\\frac{pos}{10000^{2i/d}}\\right), \\qquad "
        "PE_{(pos,2i+1)} = \\cos\\left(\\frac{pos}{10000^{2i/d}}\\right)$$\n\n"
        "- `S`：位置数（pos = 0 … S−1），`d_model`：偶数\n- 返回 `[S, d_model]`"
    ),
    formula="PE_{(pos,2i)} = \\sin(pos / 10000^{2i/d}),\\ PE_{(pos,2i+1)} = \\cos(pos / 10000^{2i/d})",
    signature="sinusoidal_pe(S, d_model)",
    outputs=(Output("PE", "encode"),),
    order=(0,),
    budget_s=300,
    make_cases=pe_cases,
    oracle=pe_oracle,
)

ROPE = Task(
    name="rope",
    number=11,
    section="7.3",
    title="RoPE 旋转位置编码",
    prompt=(
        "实现 RoPE：把向量的维度两两配对，按位置旋转。\n\n"
        "**配对约定（RoFormer，交错）**：第 i 对是 $(x_{2i}, x_{2i+1})$，旋转角 $\\theta_i \\cdot pos$，"
        "$\\theta_i = 10000^{-2i/d}$：\n\n"
        "$$\\begin{pmatrix} x'_{2i} \\\\ x'_{2i+1} \\end{pmatrix} = \\begin{pmatrix}\\cos & -\\sin \\\\ \\sin & \\cos"
        "\\end{pmatrix}\\begin{pmatrix} x_{2i} \\\\ x_{2i+1} \\end{pmatrix}$$\n\n"
        "- `x`：`[..., S, d]`（d 为偶数），`positions`：整数数组 `[S]`\n- 返回与 `x` 同形状"
    ),
    formula="x'_{2i} = x_{2i}\\cos(pos\\,\\theta_i) - x_{2i+1}\\sin(pos\\,\\theta_i)",
    signature="rope(x, positions)",
    outputs=(Output("x_rot", "rotate"),),
    order=(0,),
    budget_s=600,
    make_cases=rope_cases,
    oracle=rope_oracle,
)

KV_CACHE = Task(
    name="kv_cache_step",
    number=12,
    section="7.22",
    title="KV Cache：一步解码",
    prompt=(
        "实现自回归解码的一步（单头）：把当前 token 的 k、v 追加进缓存，再用当前的 q 对整个缓存做注意力。"
        "结果必须等于完整 causal 前向的第 t 行。\n\n"
        "- `x_t`：`[1, d_model]`（第 t 个 token）；`W_Q, W_K`：`[d_model, d_k]`，`W_V`：`[d_model, d_v]`\n"
        "- `K_cache`：`[t, d_k]`，`V_cache`：`[t, d_v]`（之前 t 个 token；t 可以是 0）\n"
        "- 返回 `(out, K_cache, V_cache)`：`out` 为 `[1, d_v]`，新缓存为 `[t+1, d_k]`、`[t+1, d_v]`"
    ),
    formula="o_t = \\text{softmax}\\left(\\frac{q_t K_{\\le t}^\\top}{\\sqrt{d_k}}\\right)V_{\\le t}",
    signature="kv_cache_step(x_t, W_Q, W_K, W_V, K_cache, V_cache)",
    outputs=(Output("out", "weighted_sum"), Output("K_cache", "append_k"), Output("V_cache", "append_v")),
    order=(1, 2, 0),
    budget_s=600,
    make_cases=kv_cases,
    oracle=kv_oracle,
)

NOAM = Task(
    name="noam_lr",
    number=13,
    section="7.23",
    title="Noam 学习率调度",
    prompt=(
        "实现原始论文的学习率调度：\n\n"
        "$$\\text{lr} = d_{model}^{-0.5} \\cdot \\min\\left(\\text{step}^{-0.5},\\ \\text{step} \\cdot "
        "\\text{warmup\\_steps}^{-1.5}\\right)$$\n\n"
        "- `step`：整数或整数数组（从 1 开始）；`d_model`、`warmup`：正整数\n"
        "- 返回与 `step` 同形状的浮点数（数组）"
    ),
    formula="\\text{lr} = d_{model}^{-0.5} \\cdot \\min(\\text{step}^{-0.5}, \\text{step} \\cdot \\text{warmup}^{-1.5})",
    signature="noam_lr(step, d_model, warmup)",
    outputs=(Output("lr", "lr"),),
    order=(0,),
    budget_s=240,
    make_cases=noam_cases,
    oracle=noam_oracle,
)

TASKS = (MHA, GQA, CROSS, LAYER_NORM, FFN, PE, ROPE, KV_CACHE, NOAM)
