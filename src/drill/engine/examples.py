"""The chapter's computations as named, reproducible traces: `build_example("worked")` etc.

Every number here is computed, never copied from the chapter; data/checks.yaml holds what the chapter printed
and drill.engine.verify compares the two. Step names are listed in drill.engine.catalog (stable).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from drill.engine import ops
from drill.engine.attention import attention_trace, cross_attention_trace, decode_with_cache
from drill.engine.trace import Step, Trace
from drill.errors import InputError

# The chapter's worked example (7.5, 7.7, 7.12).
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
W_Q = np.array([[1.0, 0.0], [1.0, 1.0]])
W_K = np.array([[0.0, 1.0], [1.0, 0.0]])
W_V = np.eye(2)


def _arr(value) -> np.ndarray:
    return np.asarray(value, dtype=np.float64)


def _named(trace: Trace, name: str, title: str, section: str) -> Trace:
    return replace(trace, title=title, example=name, section=section)


def worked() -> Trace:
    return attention_trace(X, W_Q, W_K, W_V, title="7.12 Worked example: 3 tokens × 2 dims")


def xxt() -> Trace:
    s = X @ X.T
    shared = X @ W_Q @ W_Q.T @ X.T
    q, k = X @ W_Q, X @ W_K
    bilinear = W_Q @ W_K.T
    sym = bool(np.allclose(bilinear, bilinear.T))
    steps = (
        Step("x", "Input", "X", "the worked example's three tokens", ("X",), X, "[S, d_model]"),
        Step(
            "xxt",
            "Raw scores without projections",
            r"S = X X^\top",
            "S_ij = x_i · x_j = S_ji: symmetric",
            ("x",),
            s,
            "[S, S]",
        ),
        Step(
            "softmax",
            "Row-wise softmax of X Xᵀ",
            r"A = \mathrm{softmax}(X X^\top)",
            "each row normalises by its own sum, so A_ij ≠ A_ji in general (no √d_k here, as in 7.6)",
            ("xxt",),
            ops.softmax(s),
            "[S, S]",
            note="S is symmetric but A is not: A[0, 2] ≠ A[2, 0] because rows 0 and 2 have different sums",
        ),
        Step(
            "w_shared",
            "One shared projection",
            "W = W_Q",
            "use the same W for queries and keys",
            ("W",),
            W_Q,
            "[d_model, d_k]",
        ),
        Step(
            "shared_scores",
            "Scores with a shared projection",
            r"S = X W W^\top X^\top",
            "(XW)(XW)ᵀ is still symmetric",
            ("x", "w_shared"),
            shared,
            "[S, S]",
        ),
        Step(
            "shared_softmax",
            "Softmax of the shared-projection scores",
            r"A = \mathrm{softmax}(X W W^\top X^\top)",
            "symmetric logits, asymmetric weights",
            ("shared_scores",),
            ops.softmax(shared),
            "[S, S]",
        ),
        Step(
            "project_q",
            "Query projection",
            "Q = X W_Q",
            "separate projection for queries",
            ("x", "W_Q"),
            q,
            "[S, d_k]",
        ),
        Step(
            "project_k",
            "Key projection",
            "K = X W_K",
            "separate projection for keys",
            ("x", "W_K"),
            k,
            "[S, d_k]",
        ),
        Step(
            "bilinear",
            "The bilinear form of separate projections",
            r"W_Q W_K^\top",
            "S_ij = x_i W_Q W_Kᵀ x_jᵀ; S is symmetric for every X iff this matrix is",
            ("W_Q", "W_K"),
            bilinear,
            "[d_model, d_model]",
            note=(
                "W_Q W_Kᵀ is symmetric for the chapter's W_Q, W_K, so this S = QKᵀ is symmetric for every X: "
                "S_12 = S_21 is not a coincidence here (the chapter's 7.7 says it is)"
            )
            if sym
            else None,
        ),
        Step(
            "separate_scores",
            "Scores with separate projections",
            r"S = Q K^\top",
            "independent W_Q, W_K allow (but do not force) an asymmetric S",
            ("project_q", "project_k"),
            q @ k.T,
            "[S, S]",
        ),
    )
    return Trace(
        "7.6 Symmetric raw scores, asymmetric weights",
        steps,
        {"X": X, "W": W_Q, "W_Q": W_Q, "W_K": W_K},
        example="xxt",
        section="7.6",
    )


def scaling() -> Trace:
    raw = _arr([0, 1, 2, 3])
    row = _arr([3, 2, 1])
    dks = _arr([1, 16, 64])
    scaled_rows = row[None, :] / np.sqrt(dks)[:, None]
    soft = ops.softmax(scaled_rows)
    unscaled = row * math.sqrt(64)
    table_dks = _arr([1, 4, 16, 64, 256, 1024])
    with_scaling = np.full_like(table_dks, ops.softmax(row).max())
    without = np.array([ops.softmax(row * math.sqrt(d)).max() for d in table_dks])
    table = np.stack([table_dks, with_scaling, without], axis=1)
    rng = np.random.default_rng(0)
    var_dks = [1, 16, 64, 256]
    var_rows = []
    for d in var_dks:
        q = rng.standard_normal((20000, d))
        k = rng.standard_normal((20000, d))
        dots = (q * k).sum(axis=1)
        var_rows.append([d, dots.var(), (dots / math.sqrt(d)).var()])
    steps = (
        Step(
            "raw",
            "Raw scores of the worked example",
            "s",
            "the distinct values in QKᵀ (7.12)",
            (),
            raw,
            "[4]",
        ),
        Step(
            "scale",
            "Scaled by √2",
            r"s / \sqrt{d_k},\ d_k = 2",
            "√2 ≈ 1.414",
            ("raw",),
            raw / math.sqrt(2),
            "[4]",
        ),
        Step("row", "A row of scores", "s = [3, 2, 1]", "the chapter's example row", (), row, "[3]"),
        Step(
            "scaled_rows",
            "The row divided by √d_k",
            r"s / \sqrt{d_k},\ d_k \in \{1, 16, 64\}",
            "one row per d_k",
            ("row",),
            scaled_rows,
            "[3, 3]",
            note="the chapter divides the same row by √d_k; real raw scores would grow like √d_k (see table)",
        ),
        Step(
            "softmax_rows",
            "Softmax of each scaled row",
            r"\mathrm{softmax}(s / \sqrt{d_k})",
            "row-wise",
            ("scaled_rows",),
            soft,
            "[3, 3]",
        ),
        Step(
            "max_prob",
            "Largest probability per d_k",
            r"\max_j A_j",
            "d_k = 1, 16, 64",
            ("softmax_rows",),
            soft.max(axis=1),
            "[3]",
        ),
        Step(
            "unscaled_row",
            "Unscaled scores at d_k = 64",
            r"s \cdot \sqrt{64}",
            "a dot product of 64 unit-variance terms has std √64 = 8",
            ("row",),
            unscaled,
            "[3]",
        ),
        Step(
            "unscaled_softmax",
            "Softmax without scaling",
            r"\mathrm{softmax}(s \sqrt{d_k})",
            "saturates",
            ("unscaled_row",),
            ops.softmax(unscaled),
            "[3]",
        ),
        Step(
            "unscaled_max_prob",
            "Largest probability without scaling",
            r"\max_j A_j",
            "≈ one-hot",
            ("unscaled_softmax",),
            np.asarray(ops.softmax(unscaled).max()),
            "[]",
        ),
        Step(
            "table",
            "Max probability with and without scaling",
            r"\left[d_k,\ \max \mathrm{softmax}(s),\ \max \mathrm{softmax}(s\sqrt{d_k})\right]",
            "raw scores s·√d_k: scaling brings them back to s whatever d_k is; unscaled they saturate",
            ("row",),
            table,
            "[6, 3]",
        ),
        Step(
            "dot_variance",
            "Variance of q·k (20 000 random pairs)",
            r"\left[d_k,\ \mathrm{Var}(q \cdot k),\ \mathrm{Var}(q \cdot k / \sqrt{d_k})\right]",
            "unit-variance q, k: the dot product's variance is d_k; after scaling it is 1",
            (),
            np.array(var_rows),
            "[4, 3]",
        ),
    )
    return Trace("7.9 Why divide by √d_k", steps, {}, example="scaling", section="7.9")


def softmax_example() -> Trace:
    logits = (X @ W_Q) @ (X @ W_K).T / math.sqrt(2)
    e = np.exp(logits)
    total = e.sum(axis=1)
    m = logits.max(axis=1)
    shifted = logits - m[:, None]
    se = np.exp(shifted)
    sig = ops.sigmoid(logits)
    limits = np.array([math.log(float(np.finfo(t).max)) for t in (np.float16, np.float32, np.float64)])
    steps = (
        Step(
            "logits",
            "Scaled scores (7.12 step 3)",
            r"s = QK^\top / \sqrt{d_k}",
            "one row per query",
            (),
            logits,
            "[S, S]",
        ),
        Step(
            "exp",
            "Exponentials",
            r"e^{s_{ij}}",
            "non-negative, and bigger scores grow faster",
            ("logits",),
            e,
            "[S, S]",
        ),
        Step(
            "row_sum", "Row sums", r"\sum_j e^{s_{ij}}", "the normaliser of each row", ("exp",), total, "[S]"
        ),
        Step(
            "softmax",
            "Normalise",
            r"A_{ij} = e^{s_{ij}} / \sum_{j'} e^{s_{ij'}}",
            "each row sums to 1",
            ("exp", "row_sum"),
            e / total[:, None],
            "[S, S]",
        ),
        Step(
            "row_max",
            "Row maxima",
            r"m_i = \max_j s_{ij}",
            "subtracting it changes nothing but the scale",
            ("logits",),
            m,
            "[S]",
        ),
        Step(
            "shifted",
            "Shifted scores",
            r"s_{ij} - m_i",
            "every row's largest entry becomes 0",
            ("logits", "row_max"),
            shifted,
            "[S, S]",
        ),
        Step(
            "stable_exp",
            "Exponentials of the shifted scores",
            r"e^{s_{ij} - m_i}",
            "all in (0, 1]: no overflow",
            ("shifted",),
            se,
            "[S, S]",
        ),
        Step(
            "stable_softmax",
            "Stable softmax",
            r"\frac{e^{s_{ij} - m_i}}{\sum_{j'} e^{s_{ij'} - m_i}}",
            "the same A as the naive formula",
            ("stable_exp",),
            se / se.sum(axis=1, keepdims=True),
            "[S, S]",
        ),
        Step(
            "sigmoid",
            "Sigmoid instead (wrong)",
            r"\sigma(s_{ij})",
            "element-wise: rows do not sum to 1",
            ("logits",),
            sig,
            "[S, S]",
        ),
        Step(
            "sigmoid_row_sum",
            "Sigmoid row sums",
            r"\sum_j \sigma(s_{ij})",
            "not a distribution",
            ("sigmoid",),
            sig.sum(axis=1),
            "[S]",
        ),
        Step(
            "overflow_threshold",
            "Where e^x overflows",
            r"\ln(\mathrm{max\ float})",
            "float16, float32, float64: e^x is inf beyond these x",
            (),
            limits,
            "[3]",
            note="float16 overflows already at e^11.09 (max 65504); e^89 is the float32 limit (≈ e^88.72)",
        ),
    )
    return Trace("7.10 Softmax, row by row", steps, {}, example="softmax", section="7.10")


def causal() -> Trace:
    return attention_trace(X, W_Q, W_K, W_V, causal=True, title="7.17 Causal mask on the worked example")


def padding() -> Trace:
    scores = _arr([[2, 1, 3, 2, 4, 5]])
    keep = _arr([1, 1, 1, 1, 0, 0])
    add = ops.additive_mask(keep.astype(bool))[None, :]
    masked = scores + add
    steps = (
        Step("scores", "One row of raw scores", "s", "[CLS] my dog [SEP] PAD PAD", (), scores, "[1, S]"),
        Step("pad_mask", "Padding mask", r"m_j \in \{0, 1\}", "1 = real token, 0 = PAD", (), keep, "[S]"),
        Step(
            "softmax_unmasked",
            "Softmax without the mask",
            r"\mathrm{softmax}(s)",
            "the PADs take most weight",
            ("scores",),
            ops.softmax(scores),
            "[1, S]",
        ),
        Step(
            "mask",
            "Additive mask",
            r"M_j = 0 \text{ if } m_j = 1 \text{ else } -\infty",
            "PAD → -inf",
            ("pad_mask",),
            add,
            "[1, S]",
        ),
        Step(
            "masked", "Masked scores", "s + M", "PAD scores become -inf", ("scores", "mask"), masked, "[1, S]"
        ),
        Step(
            "softmax",
            "Softmax with the mask",
            r"\mathrm{softmax}(s + M)",
            "weights only on real tokens, still summing to 1",
            ("masked",),
            ops.softmax(masked),
            "[1, S]",
        ),
    )
    return Trace("7.16 Padding mask on one row", steps, {"pad": keep}, example="padding", section="7.16")


def padding_batch() -> Trace:
    xb = np.stack([X, np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])])
    return attention_trace(
        xb,
        W_Q,
        W_K,
        W_V,
        pad=[[1, 1, 1], [1, 1, 0]],
        title="7.16 A [B, S] padding mask broadcast over a batch",
    )


def causal_padding() -> Trace:
    return attention_trace(
        X, W_Q, W_K, W_V, causal=True, pad=[1, 1, 0], title="Causal and padding masks together"
    )


def fully_masked() -> Trace:
    return attention_trace(
        X,
        W_Q,
        W_K,
        W_V,
        causal=True,
        pad=[0, 1, 1],
        title="Left padding + causal: a query with no visible key",
    )


MHA_X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
MHA_WQ = np.array([[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, -1.0]])
MHA_WK = np.array([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0], [1.0, 0.0, 0.0, 0.0]])
MHA_WV = np.eye(4)


def mha() -> Trace:
    return attention_trace(
        MHA_X,
        MHA_WQ,
        MHA_WK,
        MHA_WV,
        np.eye(4),
        heads=2,
        title="7.14 Multi-head attention: d_model = 4, h = 2 (W_O = I)",
    )


def mha_concat() -> Trace:
    h1, h2 = _arr([0.6, 0.8]), _arr([0.2, 0.5])
    cat = np.concatenate([h1, h2])
    steps = (
        Step(
            "head_1",
            "Head 1's output for one token",
            r"\mathrm{head}_1",
            "d_v = d_model / h = 2",
            (),
            h1,
            "[d_v]",
        ),
        Step("head_2", "Head 2's output", r"\mathrm{head}_2", "d_v = 2", (), h2, "[d_v]"),
        Step(
            "concat_heads",
            "Concatenate",
            r"\mathrm{Concat}(\mathrm{head}_1, \mathrm{head}_2)",
            "back to d_model = 4",
            ("head_1", "head_2"),
            cat,
            "[h·d_v]",
        ),
        Step(
            "output_proj",
            "Times W_O = I",
            r"\mathrm{Concat}(\ldots) W_O",
            "the identity keeps it unchanged",
            ("concat_heads", "W_O"),
            cat @ np.eye(4),
            "[d_model]",
        ),
    )
    return Trace(
        "7.14 Concatenating two heads", steps, {"W_O": np.eye(4)}, example="mha_concat", section="7.14"
    )


def _gqa_weights(kv_heads: int):
    rng = np.random.default_rng(7)
    x = np.round(rng.uniform(-1, 1, (3, 8)), 1)
    wq = np.round(rng.uniform(-1, 1, (8, 8)), 1)
    wk = np.round(rng.uniform(-1, 1, (8, 2 * kv_heads)), 1)
    wv = np.round(rng.uniform(-1, 1, (8, 2 * kv_heads)), 1)
    wo = np.round(rng.uniform(-1, 1, (8, 8)), 1)
    return x, wq, wk, wv, wo


def _shared_kv(kv_heads: int, title: str) -> Trace:
    """4 query heads over ``kv_heads`` shared key/value heads (GQA; MQA when there is one)."""
    return attention_trace(*_gqa_weights(kv_heads), heads=4, kv_heads=kv_heads, title=title)


def gqa() -> Trace:
    return _shared_kv(2, "GQA: 4 query heads share 2 KV heads (d_model = 8, d_k = 2)")


def mqa() -> Trace:
    return _shared_kv(1, "MQA: 4 query heads share 1 KV head (d_model = 8, d_k = 2)")


def cross() -> Trace:
    x_dec = np.array([[1.0, 0.0], [0.5, 1.0]])
    return cross_attention_trace(
        x_dec, X, W_Q, W_K, W_V, title="7.18 Cross-attention: 2 decoder queries over 3 encoder tokens"
    )


def residual() -> Trace:
    sub = worked()["weighted_sum"].output
    layers = _arr([1, 4, 12, 24])
    steps = (
        Step("x", "Sub-layer input", "x", "the worked example's X", ("X",), X, "[S, d_model]"),
        Step(
            "sublayer",
            "Sub-layer output",
            "F(x) = \\mathrm{Attention}(x)",
            "the worked example's output",
            ("x",),
            sub,
            "[S, d_model]",
        ),
        Step(
            "add",
            "Residual add",
            "y = x + F(x)",
            "element-wise: shapes must match",
            ("x", "sublayer"),
            X + sub,
            "[S, d_model]",
        ),
        Step("layers", "Depth n", "n", "the table's layer counts", (), layers, "[4]"),
        Step(
            "without_residual",
            "Gradient without residual",
            r"0.7^n",
            "a product of sub-layer factors vanishes",
            ("layers",),
            0.7**layers,
            "[4]",
        ),
        Step(
            "with_residual",
            "Gradient with one skip around the stack",
            r"1 + 0.7^n",
            "the identity path contributes 1 whatever the depth",
            ("layers",),
            1 + 0.7**layers,
            "[4]",
            note=(
                "1 + 0.7^n is the chapter's formula: one skip around n plain layers. With a residual around "
                "every layer the scalar gradient is (1 + 0.7)^n (see residual_chain); either way it never vanishes"
            ),
        ),
        Step(
            "residual_chain",
            "Gradient with a residual in every layer",
            r"\prod_{l=1}^{n} (1 + 0.7) = 1.7^n",
            "d(x + F(x))/dx = 1 + F' per layer, multiplied through the stack",
            ("layers",),
            1.7**layers,
            "[4]",
        ),
    )
    return Trace("7.19 Residual connections", steps, {"X": X}, example="residual", section="7.19")


def layernorm() -> Trace:
    x = _arr([1, 2, 3, 4])
    eps = 1e-5
    gamma, beta = np.ones(4), np.zeros(4)
    mu = x.mean()
    var = ((x - mu) ** 2).mean()
    std = math.sqrt(var + eps)
    norm = (x - mu) / std
    rms = math.sqrt((x**2).mean() + 1e-6)
    steps = (
        Step("x", "One token's vector", "x", "d = 4", ("x",), x, "[d]"),
        Step(
            "mean",
            "Mean over the features",
            r"\mu = \frac{1}{d}\sum_i x_i",
            "within this token only",
            ("x",),
            np.asarray(mu),
            "[]",
        ),
        Step("centered", "Centre", r"x - \mu", "", ("x", "mean"), x - mu, "[d]"),
        Step(
            "variance",
            "Variance (biased)",
            r"\sigma^2 = \frac{1}{d}\sum_i (x_i - \mu)^2",
            "divide by d, not d - 1, as PyTorch's LayerNorm does",
            ("centered",),
            np.asarray(var),
            "[]",
        ),
        Step(
            "std",
            "Standard deviation",
            r"\sqrt{\sigma^2 + \epsilon}",
            "ε = 1e-5 inside the root",
            ("variance",),
            np.asarray(std),
            "[]",
        ),
        Step(
            "normalized",
            "Normalise",
            r"\hat x = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}",
            "mean 0, variance 1",
            ("centered", "std"),
            norm,
            "[d]",
        ),
        Step(
            "affine",
            "Scale and shift",
            r"\gamma \odot \hat x + \beta",
            "γ = 1, β = 0 at initialisation",
            ("normalized", "gamma", "beta"),
            gamma * norm + beta,
            "[d]",
        ),
        Step(
            "rms",
            "Root mean square (RMSNorm)",
            r"\mathrm{RMS}(x) = \sqrt{\frac{1}{d}\sum_i x_i^2 + \epsilon}",
            "no mean subtracted (LLaMA)",
            ("x",),
            np.asarray(rms),
            "[]",
        ),
        Step(
            "rmsnorm",
            "RMSNorm",
            r"\gamma \odot x / \mathrm{RMS}(x)",
            "cheaper: no centring, no β",
            ("x", "rms"),
            x / rms,
            "[d]",
        ),
    )
    return Trace(
        "7.20 LayerNorm and RMSNorm on x = [1, 2, 3, 4]",
        steps,
        {"x": x, "gamma": gamma, "beta": beta},
        example="layernorm",
        section="7.20",
    )


FFN_W1 = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]])
FFN_W2 = FFN_W1.T.copy()
FFN_W3 = np.array([[0.5, 1.0, -1.0, 0.0], [1.0, -0.5, 0.0, 1.0]])


def ffn() -> Trace:
    x = np.array([[1.0, 0.0], [-1.0, 0.5]])
    hidden = x @ FFN_W1
    r = ops.relu(hidden)
    g = ops.gelu(hidden)
    gate = ops.silu(x @ FFN_W1)
    up = x @ FFN_W3
    steps = (
        Step(
            "x",
            "Tokens",
            "x",
            "row 0 is the chapter's x = [1, 0]; each row is processed alone",
            ("x",),
            x,
            "[S, d_model]",
        ),
        Step(
            "hidden",
            "Up-projection",
            "x W_1 + b_1",
            "d_model = 2 → d_ff = 4 (b_1 = 0)",
            ("x", "W_1"),
            hidden,
            "[S, d_ff]",
        ),
        Step("relu", "ReLU", r"\max(0, h)", "negative entries become 0", ("hidden",), r, "[S, d_ff]"),
        Step(
            "output",
            "Down-projection",
            r"\mathrm{ReLU}(x W_1) W_2 + b_2",
            "back to d_model (b_2 = 0)",
            ("relu", "W_2"),
            r @ FFN_W2,
            "[S, d_model]",
            note="W_2 is not printed in the chapter; W_2 = W_1ᵀ reproduces its result [2, 0]",
        ),
        Step(
            "gelu",
            "GELU (exact)",
            r"h\,\Phi(h) = \tfrac{h}{2}\left(1 + \mathrm{erf}(h/\sqrt{2})\right)",
            "smooth; small negatives pass slightly",
            ("hidden",),
            g,
            "[S, d_ff]",
        ),
        Step(
            "gelu_tanh",
            "GELU, tanh approximation",
            r"\tfrac{h}{2}\left(1 + \tanh\left(\sqrt{2/\pi}\,(h + 0.044715 h^3)\right)\right)",
            "GPT-2's approximation of GELU, not the exact function",
            ("hidden",),
            ops.gelu_tanh(hidden),
            "[S, d_ff]",
        ),
        Step(
            "gelu_output",
            "GELU FFN output",
            r"\mathrm{GELU}(x W_1) W_2",
            "",
            ("gelu", "W_2"),
            g @ FFN_W2,
            "[S, d_model]",
        ),
        Step(
            "swiglu_gate",
            "SwiGLU gate",
            r"\mathrm{SiLU}(x W_1) = x W_1 \, \sigma(x W_1)",
            "",
            ("x", "W_1"),
            gate,
            "[S, d_ff]",
        ),
        Step("swiglu_up", "SwiGLU value path", "x W_3", "a third matrix", ("x", "W_3"), up, "[S, d_ff]"),
        Step(
            "swiglu_hidden",
            "Gated hidden",
            r"\mathrm{SiLU}(x W_1) \odot x W_3",
            "element-wise product",
            ("swiglu_gate", "swiglu_up"),
            gate * up,
            "[S, d_ff]",
        ),
        Step(
            "swiglu_output",
            "SwiGLU FFN output",
            r"(\mathrm{SiLU}(x W_1) \odot x W_3) W_2",
            "",
            ("swiglu_hidden", "W_2"),
            (gate * up) @ FFN_W2,
            "[S, d_model]",
        ),
    )
    return Trace(
        "7.21 Position-wise FFN",
        steps,
        {"x": x, "W_1": FFN_W1, "W_2": FFN_W2, "W_3": FFN_W3},
        example="ffn",
        section="7.21",
    )


def posenc() -> Trace:
    d, s = 8, 4
    rng = np.random.default_rng(3)
    emb = rng.normal(0.0, 1.0 / math.sqrt(d), (s, d))
    pe = ops.sinusoidal_pe(s, d)
    big_d, big_s = 512, 512
    big_emb = rng.normal(0.0, 1.0 / math.sqrt(big_d), (big_s, big_d))
    big_pe = ops.sinusoidal_pe(big_s, big_d)
    # PE(pos + k) = R_k PE(pos): each (sin, cos) pair rotates by the angle k·ω_i.
    k = 3
    omega = 1.0 / 10000 ** (2.0 * np.arange(big_d // 2) / big_d)
    sin_p, cos_p = big_pe[:-k, 0::2], big_pe[:-k, 1::2]
    shifted_sin = sin_p * np.cos(k * omega) + cos_p * np.sin(k * omega)
    shifted_cos = cos_p * np.cos(k * omega) - sin_p * np.sin(k * omega)
    err = max(np.abs(shifted_sin - big_pe[k:, 0::2]).max(), np.abs(shifted_cos - big_pe[k:, 1::2]).max())
    steps = (
        Step(
            "embedding",
            "Token embeddings",
            r"E,\ \mathrm{Var}(E_{ij}) = 1/d_{model}",
            "d_model = 8, 4 tokens",
            (),
            emb,
            "[S, d_model]",
        ),
        Step(
            "scaled_embedding",
            "Embeddings × √d_model",
            r"E \sqrt{d_{model}}",
            "variance back to about 1",
            ("embedding",),
            emb * math.sqrt(d),
            "[S, d_model]",
        ),
        Step(
            "pe",
            "Sinusoidal positional encoding",
            r"PE_{(pos, 2i)} = \sin(pos / 10000^{2i/d}),\ PE_{(pos, 2i+1)} = \cos(pos / 10000^{2i/d})",
            "fast frequencies in the first columns, slow ones in the last",
            (),
            pe,
            "[S, d_model]",
        ),
        Step(
            "input",
            "Transformer input",
            r"E \sqrt{d_{model}} + PE",
            "embedding and position added",
            ("scaled_embedding", "pe"),
            emb * math.sqrt(d) + pe,
            "[S, d_model]",
        ),
        Step(
            "embedding_var",
            "Variance of raw embeddings (d = 512)",
            r"\mathrm{Var}(E)",
            "≈ 1/512",
            (),
            np.asarray(big_emb.var()),
            "[]",
        ),
        Step(
            "scaled_var",
            "Variance after × √512",
            r"\mathrm{Var}(E \sqrt{d})",
            "≈ 1",
            (),
            np.asarray((big_emb * math.sqrt(big_d)).var()),
            "[]",
        ),
        Step(
            "pe_mean_square",
            "Mean square of PE (512 × 512)",
            r"\overline{PE^2}",
            "sin² + cos² = 1 per pair, so exactly 1/2",
            (),
            np.asarray((big_pe**2).mean()),
            "[]",
        ),
        Step(
            "pe_variance",
            "Variance of PE values (512 positions × 512 dims)",
            r"\mathrm{Var}(PE)",
            "slow dimensions sit near sin = 0, cos = 1",
            (),
            np.asarray(big_pe.var()),
            "[]",
            note="the PE values are not uniform on [-1, 1]: their spread depends on S and d",
        ),
        Step(
            "shift_error",
            "PE(pos + 3) as a rotation of PE(pos)",
            r"\max \left| R_k\,PE(pos) - PE(pos + k) \right|,\ k = 3",
            "sin(a + b) = sin a cos b + cos a sin b: a fixed linear map per offset",
            (),
            np.asarray(err),
            "[]",
        ),
    )
    return Trace("7.3 Positional encoding and embedding scaling", steps, {}, example="posenc", section="7.3")


def rope_example() -> Trace:
    s = 5
    q = _arr([1.0, 0.0, 0.5, -1.0])
    k = _arr([0.5, 1.0, -1.0, 0.5])
    pos = np.arange(s)
    qr = ops.rope(np.tile(q, (s, 1)), pos)
    kr = ops.rope(np.tile(k, (s, 1)), pos)
    scores = qr @ kr.T
    offsets = np.arange(-(s - 1), s)
    by_offset = np.array([q @ ops.rope(k[None, :], np.array([o]))[0] for o in offsets])
    toeplitz = max(abs(scores[m, n] - by_offset[n - m + s - 1]) for m in range(s) for n in range(s))
    steps = (
        Step("q", "A query vector", "q", "the same q placed at positions 0..4", (), q, "[d]"),
        Step("k", "A key vector", "k", "the same k placed at positions 0..4", (), k, "[d]"),
        Step(
            "angles",
            "Rotation angles",
            r"\theta_{m,i} = m \cdot 10000^{-2i/d}",
            "one angle per position and pair",
            (),
            ops.rope_angles(pos, 4),
            "[S, d/2]",
        ),
        Step(
            "q_rot",
            "Rotated queries",
            r"R_m q",
            "pairs (q_{2i}, q_{2i+1}) rotated by θ_{m,i}",
            ("q", "angles"),
            qr,
            "[S, d]",
        ),
        Step("k_rot", "Rotated keys", r"R_n k", "same rotation for keys", ("k", "angles"), kr, "[S, d]"),
        Step(
            "scores",
            "Scores between positions",
            r"(R_m q)^\top (R_n k)",
            "constant along each diagonal",
            ("q_rot", "k_rot"),
            scores,
            "[S, S]",
        ),
        Step(
            "offset_scores",
            "Scores by relative offset",
            r"q^\top R_{n-m} k,\ n - m = -4..4",
            "the score depends on n - m only",
            ("q", "k"),
            by_offset,
            "[2S-1]",
        ),
        Step(
            "toeplitz_error",
            "Largest deviation from the offset rule",
            r"\max_{m,n} |(R_m q)^\top R_n k - q^\top R_{n-m} k|",
            "0 up to rounding",
            ("scores", "offset_scores"),
            np.asarray(toeplitz),
            "[]",
        ),
    )
    return Trace(
        "RoPE: rotations whose dot products see only the offset", steps, {}, example="rope", section="7.3"
    )


def kvcache() -> Trace:
    x = np.vstack([X, [[0.5, -1.0]]])
    full = attention_trace(x, W_Q, W_K, W_V, causal=True)["weighted_sum"].output
    decoded, cache, _ = decode_with_cache(x, W_Q, W_K, W_V)
    s = x.shape[0]
    steps = (
        Step("x", "Four tokens", "X", "<BOS> I love AI", ("X",), x, "[S, d_model]"),
        Step(
            "full_causal",
            "Training: one causal pass",
            r"\mathrm{softmax}(QK^\top / \sqrt{d_k} + M) V",
            "all positions at once",
            ("x",),
            full,
            "[S, d_v]",
        ),
        Step(
            "decoded",
            "Inference: one token at a time with a KV cache",
            r"o_t = \mathrm{softmax}(q_t K_{\le t}^\top / \sqrt{d_k}) V_{\le t}",
            "each step projects only the new token and reads the cache",
            ("x",),
            decoded,
            "[S, d_v]",
        ),
        Step(
            "max_difference",
            "Cache vs full pass",
            r"\max |o^{cache} - o^{full}|",
            "0 up to rounding",
            ("full_causal", "decoded"),
            np.asarray(np.abs(full - decoded).max()),
            "[]",
        ),
        Step(
            "cache_k", "Cached keys", r"K_{\le S}", "grows by one row per step", ("x",), cache.k, "[S, d_k]"
        ),
        Step(
            "cache_v", "Cached values", r"V_{\le S}", "grows by one row per step", ("x",), cache.v, "[S, d_v]"
        ),
        Step(
            "passes",
            "Forward passes",
            "[1,\\ S - 1]",
            "training: one pass for all positions; inference: one pass per generated token after <BOS>",
            (),
            _arr([1, s - 1]),
            "[2]",
        ),
        Step(
            "kv_projections",
            "K/V projections computed",
            r"\left[\tfrac{S(S+1)}{2},\ S\right]",
            "recomputing the prefix every step vs caching it",
            (),
            _arr([s * (s + 1) // 2, s]),
            "[2]",
        ),
    )
    return Trace(
        "KV-cache decoding equals the full causal pass",
        steps,
        {"X": x, "W_Q": W_Q, "W_K": W_K, "W_V": W_V},
        example="kvcache",
        section="7.22",
    )


def noam() -> Trace:
    d_model, warmup = 512, 4000
    step = _arr([1, 1000, 2000, 4000, 8000, 16000, 100000])
    steps = (
        Step(
            "step", "Training steps", "step", f"warmup_steps = {warmup}, d_model = {d_model}", (), step, "[7]"
        ),
        Step(
            "lr",
            "Learning rate",
            r"d_{model}^{-0.5} \min(\mathrm{step}^{-0.5},\ \mathrm{step} \cdot \mathrm{warmup}^{-1.5})",
            "linear warm-up, then 1/√step decay",
            ("step",),
            ops.noam_lr(step, d_model, warmup),
            "[7]",
        ),
        Step(
            "peak",
            "Peak learning rate",
            r"(d_{model} \cdot \mathrm{warmup})^{-0.5}",
            "reached at step = warmup",
            (),
            np.asarray(ops.noam_lr(warmup, d_model, warmup)),
            "[]",
        ),
    )
    return Trace("7.23 The Noam learning-rate schedule", steps, {}, example="noam", section="7.23")


def params() -> Trace:
    d, h, d_ff = 768, 12, 3072
    d_swiglu = 8 * d // 3
    attn = _arr([d * d, d * d, d * d, d * d, 4 * d * d])
    ffn_p = _arr([d * d_ff, d_ff * d, 2 * d * d_ff])
    swi = _arr([d * d_swiglu, d * d_swiglu, d_swiglu * d, 3 * d * d_swiglu])
    qkv = _arr([3 * d * d, h * 3 * d * (d // h), h * 3 * d * d])
    steps = (
        Step(
            "attention",
            "Attention weights",
            "W_Q, W_K, W_V, W_O: 4 d_{model}^2",
            f"d_model = {d}, h = {h} (biases left out)",
            (),
            attn,
            "[5]",
        ),
        Step(
            "ffn",
            "FFN weights",
            r"W_1, W_2: 2\, d_{model} d_{ff}",
            f"d_ff = 4 d_model = {d_ff}",
            (),
            ffn_p,
            "[3]",
        ),
        Step(
            "swiglu",
            "SwiGLU weights",
            r"W_1, W_3, W_2: 3\, d_{model} d_{ff}',\ d_{ff}' = \tfrac{8}{3} d_{model}",
            f"d_ff' = {d_swiglu} keeps the FFN's budget",
            (),
            swi,
            "[4]",
        ),
        Step(
            "qkv_heads",
            "Q/K/V weights: one head, h reduced heads, h full heads",
            r"\left[3 d^2,\ h \cdot 3 d \tfrac{d}{h},\ h \cdot 3 d^2\right]",
            "reducing each head to d/h keeps the budget; full-size heads cost h times more",
            (),
            qkv,
            "[3]",
        ),
        Step(
            "kv_cache_fraction",
            "KV-cache size vs MHA, 32 query heads",
            r"\left[G / h\ (G = 8),\ 1 / h\ (\mathrm{MQA})\right],\ h = 32",
            "GQA with 8 KV heads keeps 1/4 of the cache, MQA 1/32",
            (),
            _arr([8 / 32, 1 / 32]),
            "[2]",
        ),
        Step(
            "per_d2",
            "In units of d_model²",
            r"\left[\mathrm{QKV}_h,\ \mathrm{attn},\ \mathrm{FFN},\ \mathrm{SwiGLU}\right] / d^2",
            "3, 4, 8, 8",
            ("qkv_heads", "attention", "ffn", "swiglu"),
            _arr([qkv[1], attn[4], ffn_p[2], swi[3]]) / (d * d),
            "[4]",
        ),
    )
    return Trace("Parameter counts: attention vs FFN", steps, {}, example="params", section="7.21")


def complexity() -> Trace:
    s, d = 512, 512
    lengths = _arr([s, 2 * s])
    elements = lengths**2
    flops = 2 * lengths**2 * d * 2  # QKᵀ and A·V, 2 flops per multiply-add
    steps = (
        Step("lengths", "Sequence lengths", "S,\\ 2S", "doubling the context", (), lengths, "[2]"),
        Step(
            "elements",
            "Entries of the score matrix",
            "S^2",
            "one score per (query, key) pair",
            ("lengths",),
            elements,
            "[2]",
        ),
        Step(
            "flops",
            "Floating-point operations in QKᵀ and A·V",
            "2 \\cdot 2 S^2 d",
            f"d = {d}",
            ("lengths",),
            flops,
            "[2]",
        ),
        Step(
            "ratio",
            "Growth when S doubles",
            "(2S)^2 / S^2",
            "4×: time and memory of the S × S matrix",
            ("elements",),
            np.asarray(elements[1] / elements[0]),
            "[]",
        ),
    )
    return Trace("7.4 Why attention is O(S²)", steps, {}, example="complexity", section="7.4")


@dataclass(frozen=True)
class Example:
    name: str
    section: str
    summary: str
    build: Callable[[], Trace]


_SECTIONS = {
    "worked": ("7.12", "3 tokens × 2 dims, every step by hand"),
    "xxt": ("7.6", "X Xᵀ and shared projections: symmetric scores, asymmetric weights"),
    "scaling": ("7.9", "dividing by √d_k and the max-probability table"),
    "softmax": ("7.10", "row-wise softmax, naive and stable"),
    "causal": ("7.17", "causal mask on the worked example"),
    "padding": ("7.16", "one row with two PAD keys"),
    "padding_batch": ("7.16", "a [B, S] key mask broadcast over a batch"),
    "causal_padding": ("7.16", "causal and padding masks together"),
    "fully_masked": ("7.16", "a query whose every key is masked → zeros"),
    "mha": ("7.14", "multi-head: split, attend, concat, W_O"),
    "mha_concat": ("7.14", "the chapter's two-head concatenation"),
    "gqa": ("7.15", "grouped-query attention: 4 Q heads, 2 KV heads"),
    "mqa": ("7.15", "multi-query attention: 4 Q heads, 1 KV head"),
    "cross": ("7.18", "decoder queries over encoder keys"),
    "residual": ("7.19", "residual add and the gradient table"),
    "layernorm": ("7.20", "LayerNorm and RMSNorm on [1, 2, 3, 4]"),
    "ffn": ("7.21", "FFN with ReLU, GELU and SwiGLU"),
    "posenc": ("7.3", "sinusoidal PE and embedding × √d_model"),
    "rope": ("7.3", "RoPE and its relative-position property"),
    "kvcache": ("7.22", "KV-cache decoding equals the causal pass"),
    "noam": ("7.23", "the Noam learning-rate schedule"),
    "params": ("7.21", "parameter counts: attention vs FFN"),
    "complexity": ("7.4", "O(S²): doubling S quadruples the score matrix"),
}

_BUILDERS: dict[str, Callable[[], Trace]] = {
    "worked": worked,
    "xxt": xxt,
    "scaling": scaling,
    "softmax": softmax_example,
    "causal": causal,
    "padding": padding,
    "padding_batch": padding_batch,
    "causal_padding": causal_padding,
    "fully_masked": fully_masked,
    "mha": mha,
    "mha_concat": mha_concat,
    "gqa": gqa,
    "mqa": mqa,
    "cross": cross,
    "residual": residual,
    "layernorm": layernorm,
    "ffn": ffn,
    "posenc": posenc,
    "rope": rope_example,
    "kvcache": kvcache,
    "noam": noam,
    "params": params,
    "complexity": complexity,
}

EXAMPLES: dict[str, Example] = {
    name: Example(name, _SECTIONS[name][0], _SECTIONS[name][1], builder)
    for name, builder in _BUILDERS.items()
}


def build_example(name: str) -> Trace:
    """The named example's trace; InputError for an unknown name (listing the known ones)."""
    example = EXAMPLES.get(name)
    if example is None:
        raise InputError(f"unknown example {name!r}; choose one of: {', '.join(EXAMPLES)}")
    trace = example.build()
    if trace.example != name:
        trace = _named(trace, name, trace.title, example.section)
    return trace
