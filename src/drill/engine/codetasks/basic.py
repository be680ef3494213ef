"""Tasks 1-4: softmax, scaled dot-product attention, the causal mask, the padding mask (7.9-7.17)."""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops
from drill.engine.codetasks.model import Case, Output, Task
from drill.i18n import N_

# ---------------------------------------------------------------- oracles (the engine's answers)


def softmax_oracle(x):
    return ops.softmax(np.asarray(x, dtype=np.float64), axis=-1)


def attention_oracle(Q, K, V, mask=None):
    Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
    scores = Q @ np.swapaxes(K, -1, -2) / math.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    A = ops.softmax(scores, axis=-1)  # a fully masked row comes back as zeros, as SDPA
    return A @ V, A


def causal_oracle(S):
    return ops.causal_allowed(int(S))


def padding_oracle(lengths, S):
    lengths = np.asarray(lengths).reshape(-1)
    return (np.arange(int(S))[None, :] < lengths[:, None])[:, None, :]


# ---------------------------------------------------------------- hidden tests


def _shape(rng, lo=1, hi=5):
    return int(rng.integers(lo, hi + 1))


def softmax_cases(rng) -> list[Case]:
    cases = []
    for i, ndim in enumerate((1, 2, 2, 3)):
        shape = tuple(_shape(rng, 2, 6) for _ in range(ndim))
        cases.append(Case(f"random-{i + 1}", (rng.normal(0, 3, shape),)))
    rows = rng.normal(0, 2, (3, 5))
    cases += [
        Case(
            "large-logits",
            (np.array([[1000.0, 1001.0, 1002.0], [-1000.0, -999.0, -1001.0]]) + rows[:2, :3],),
            pitfall="softmax/no-max-subtraction",
        ),
        Case("rows-not-columns", (rows,), pitfall="softmax/wrong-axis"),
        Case("batch-axes", (rng.normal(0, 1, (2, 3, 4)),), pitfall="softmax/whole-array"),
        Case("sums-to-one", (rng.normal(0, 1, (2, 4)),), pitfall="softmax/sigmoid"),
        Case("single-element", (rng.normal(0, 1, (1, 1)),)),
    ]
    return cases


def _qkv(rng, lead, s_q, s_k, d_k, d_v, scale=1.0):
    return (
        rng.normal(0, scale, lead + (s_q, d_k)),
        rng.normal(0, 1, lead + (s_k, d_k)),
        rng.normal(0, 1, lead + (s_k, d_v)),
    )


def _mask_no_empty_rows(rng, shape):
    mask = rng.random(shape) < 0.7
    mask[..., 0] = True  # every query keeps at least one key
    return mask


def attention_cases(rng) -> list[Case]:
    cases = []
    for i, lead in enumerate(((), (_shape(rng, 2, 3),), (_shape(rng, 2, 3), _shape(rng, 2, 3)))):
        s_q, s_k, d_k, d_v = (_shape(rng, 2, 6) for _ in range(4))
        cases.append(Case(f"random-{i + 1}", _qkv(rng, lead, s_q, s_k, d_k, d_v)))
    s_q, s_k, d_k, d_v = 4, 5, 3, 2
    Q, K, V = _qkv(rng, (2,), s_q, s_k, d_k, d_v)
    cases.append(
        Case(
            "random-masked",
            (Q, K, V),
            {"mask": _mask_no_empty_rows(rng, (2, s_q, s_k))},
            pitfall="attention/mask-after-softmax",
        )
    )
    d = 8
    Q, K, V = _qkv(rng, (), 3, 4, d, d)
    cases.append(Case("scale", (Q * 2, K * 2, V), pitfall="attention/scale-by-dk"))
    cases.append(Case("unscaled", (Q * 2, K, V), pitfall="attention/no-scale"))
    Q, K, V = _qkv(rng, (), 3, 4, 4, 3)
    cases.append(Case("large-logits", (Q * 40, K * 40, V), pitfall="attention/no-max-subtraction"))
    Q, K, V = _qkv(rng, (), 3, 5, 2, 4)
    cases.append(Case("rows-not-columns", (Q, K, V), pitfall="attention/softmax-wrong-axis"))
    Q, K, V = _qkv(rng, (), 4, 4, 3, 3)
    causal = ops.causal_allowed(4)
    cases.append(Case("causal-mask", (Q, K, V), {"mask": causal}, pitfall="attention/mask-fill-zero"))
    B, S = 2, 4
    Q, K, V = _qkv(rng, (B,), S, S, 3, 2)
    pad = (np.arange(S)[None, :] < np.array([4, 2])[:, None])[:, None, :]
    cases.append(Case("padding-mask", (Q, K, V), {"mask": pad}, pitfall="attention/mask-inverted"))
    Q, K, V = _qkv(rng, (), 3, 3, 2, 2)
    full = np.ones((3, 3), dtype=bool)
    full[1] = False
    cases.append(Case("fully-masked-row", (Q, K, V), {"mask": full}, pitfall="attention/fully-masked-nan"))
    Q, K, V = _qkv(rng, (3,), 3, 3, 3, 3)  # B = S = d_k: a batch-transposing K still runs, and is wrong
    cases.append(Case("batch-axes", (Q, K, V), pitfall="attention/transpose-0-1"))
    Q, K, V = _qkv(rng, (), 3, 4, 2, 5)
    cases.append(Case("dk-ne-dv", (Q, K, V), pitfall="attention/weights-times-k"))
    Q, K, V = _qkv(rng, (3,), 2, 2, 2, 2)
    cases.append(Case("dk-eq-dv", (Q, K, V), pitfall="attention/weights-times-k"))
    cases.append(Case("s-eq-1", _qkv(rng, (), 1, 1, 3, 2)))
    cases.append(Case("sq-ne-sk", _qkv(rng, (2,), 2, 6, 3, 3)))
    return cases


def causal_cases(rng) -> list[Case]:
    sizes = sorted({int(s) for s in rng.integers(2, 9, size=3)})
    cases = [Case(f"random-{i + 1}", (s,)) for i, s in enumerate(sizes)]
    cases += [
        Case("s-eq-4", (4,), pitfall="causal_mask/upper-triangle"),
        Case("true-may-attend", (3,), pitfall="causal_mask/masked-convention"),
        Case("diagonal", (5,), pitfall="causal_mask/no-diagonal"),
        Case("s-eq-1", (1,)),
    ]
    return cases


def padding_cases(rng) -> list[Case]:
    cases = []
    for i in range(3):
        S = _shape(rng, 2, 7)
        B = _shape(rng, 1, 4)
        cases.append(Case(f"random-{i + 1}", (rng.integers(1, S + 1, size=B), S)))
    cases += [
        Case("keys-not-queries", (np.array([3, 1]), 4), pitfall="padding_mask/masks-queries"),
        Case("true-is-real", (np.array([2, 4, 1]), 4), pitfall="padding_mask/inverted"),
        Case("broadcast-shape", (np.array([1, 3]), 3), pitfall="padding_mask/no-broadcast-axis"),
        Case("lengths", (np.array([2, 5, 3]), 6), pitfall="padding_mask/off-by-one"),
        Case("no-padding", (np.array([3, 3]), 3)),
        Case("batch-of-one", (np.array([2]), 5)),
    ]
    return cases


# ---------------------------------------------------------------- the tasks

SOFTMAX = Task(
    name="softmax",
    number=1,
    section="7.10",
    title_msgid=N_("Numerically stable row-wise softmax"),
    prompt_msgid=N_(
        "Implement a numerically stable softmax that normalises over the **last dimension** "
        "(dim=-1, row by row):\n"
        "\n"
        "$$\\text{softmax}(x)_i = \\frac{e^{x_i - \\max_j x_j}}{\\sum_j e^{x_j - \\max_j x_j}}$$\n"
        "\n"
        "- Input `x`: a float array of any shape `[..., n]`\n"
        "- Return an array of the same shape as `x`, each row (last dimension) summing to 1\n"
        "- Scores can be large (e.g. 1000): subtract each row's maximum first to avoid overflow"
    ),
    formula="\\text{softmax}(x)_i = \\frac{e^{x_i - \\max_j x_j}}{\\sum_j e^{x_j - \\max_j x_j}}",
    signature="softmax(x)",
    outputs=(Output("weights", "softmax"),),
    order=(0,),
    budget_s=300,
    make_cases=softmax_cases,
    oracle=softmax_oracle,
)

ATTENTION = Task(
    name="attention",
    number=2,
    section="7.13",
    title_msgid=N_("Scaled dot-product attention"),
    prompt_msgid=N_(
        "Implement scaled dot-product attention (worked by hand in 7.12, in code in 7.13):\n"
        "\n"
        "$$\\text{Attention}(Q,K,V) = \\text{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}} + M\\right)V$$\n"
        "\n"
        "- `Q`: `[..., S_q, d_k]`, `K`: `[..., S_k, d_k]`, `V`: `[..., S_k, d_v]`, with any number "
        "of leading batch dimensions\n"
        "- `mask`: a boolean array broadcastable to `[..., S_q, S_k]`; **True = may attend** "
        "(PyTorch SDPA's convention); scores where it is False are set to −∞\n"
        "- Return `(out, A)`: `out` is `[..., S_q, d_v]`, `A` the attention weights `[..., S_q, "
        "S_k]`\n"
        "- When a whole row is masked, that row of `A` and of `out` is 0, never NaN"
    ),
    formula="\\text{Attention}(Q,K,V) = \\text{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}} + M\\right)V",
    signature="attention(Q, K, V, mask=None)",
    outputs=(Output("out", "weighted_sum"), Output("A", "softmax")),
    order=(1, 0),
    budget_s=600,
    make_cases=attention_cases,
    oracle=attention_oracle,
)

CAUSAL_MASK = Task(
    name="causal_mask",
    number=3,
    section="7.17",
    title_msgid=N_("Causal Mask"),
    prompt_msgid=N_(
        "Build the causal mask of length `S` (7.17): position i may attend only to positions j ≤ i "
        "(itself included).\n"
        "\n"
        "$$M_{ij} = \\begin{cases} \\text{True} & j \\le i \\\\ \\text{False} & j > i \\end{cases}$$\n"
        "\n"
        "- Input `S`: a positive integer\n"
        "- Return a boolean array `[S, S]`, **True = may attend** (the same convention as "
        "`attention`'s `mask`)"
    ),
    formula="M_{ij} = \\text{True} \\iff j \\le i",
    signature="causal_mask(S)",
    outputs=(Output("mask", "mask", "bool"),),
    order=(0,),
    budget_s=180,
    make_cases=causal_cases,
    oracle=causal_oracle,
)

PADDING_MASK = Task(
    name="padding_mask",
    number=4,
    section="7.16",
    title_msgid=N_("Padding mask from lengths"),
    prompt_msgid=N_(
        "Build a padding mask from each sample's true length (7.16): PAD positions must not be "
        "attended to.\n"
        "\n"
        "- `lengths`: an integer array `[B]`; the first `lengths[b]` positions of sample b are "
        "real tokens, the rest are PAD\n"
        "- `S`: the padded sequence length\n"
        "- Return a boolean array `[B, 1, S]`: **True = a real token (may be attended to)**; the "
        "middle 1 broadcasts it to every query, so it masks the key dimension"
    ),
    formula="M_{b,1,j} = \\text{True} \\iff j < \\text{lengths}_b",
    signature="padding_mask(lengths, S)",
    outputs=(Output("mask", "mask", "bool"),),
    order=(0,),
    budget_s=240,
    make_cases=padding_cases,
    oracle=padding_oracle,
)

TASKS = (SOFTMAX, ATTENTION, CAUSAL_MASK, PADDING_MASK)
