"""Attention basics (7.5–7.12): the worked example, X Xᵀ against separate projections, why scores are
divided by √d_k, and softmax naive and stable."""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops
from drill.engine.attention import attention_trace
from drill.engine.examples.common import W_K, W_Q, W_V, X, arr
from drill.engine.examples.registry import example
from drill.engine.trace import Step, Trace
from drill.i18n import N_


@example("worked", section="7.12", summary=N_("3 tokens × 2 dims, every step by hand"))
def worked() -> Trace:
    return attention_trace(X, W_Q, W_K, W_V, title=N_("7.12 Worked example: 3 tokens × 2 dims"))


@example(
    "xxt", section="7.6", summary=N_("X Xᵀ and shared projections: symmetric scores, asymmetric weights")
)
def xxt() -> Trace:
    s = X @ X.T
    shared = X @ W_Q @ W_Q.T @ X.T
    q, k = X @ W_Q, X @ W_K
    bilinear = W_Q @ W_K.T
    sym = bool(np.allclose(bilinear, bilinear.T))
    steps = (
        Step(
            name="x",
            title=N_("Input"),
            formula="X",
            explanation=N_("the worked example's three tokens"),
            inputs=("X",),
            output=X,
            shape="[S, d_model]",
        ),
        Step(
            name="xxt",
            title=N_("Raw scores without projections"),
            formula=r"S = X X^\top",
            explanation=N_("S_ij = x_i · x_j = S_ji: symmetric"),
            inputs=("x",),
            output=s,
            shape="[S, S]",
        ),
        Step(
            name="softmax",
            title=N_("Row-wise softmax of X Xᵀ"),
            formula=r"A = \mathrm{softmax}(X X^\top)",
            explanation=N_(
                "each row normalises by its own sum, so A_ij ≠ A_ji in general (no √d_k here, as in 7.6)"
            ),
            inputs=("xxt",),
            output=ops.softmax(s),
            shape="[S, S]",
            note=N_("S is symmetric but A is not: A₁₃ ≠ A₃₁ because rows 1 and 3 have different sums"),
        ),
        Step(
            name="w_shared",
            title=N_("One shared projection"),
            formula="W = W_Q",
            explanation=N_("use the same W for queries and keys"),
            inputs=("W",),
            output=W_Q,
            shape="[d_model, d_k]",
        ),
        Step(
            name="shared_scores",
            title=N_("Scores with a shared projection"),
            formula=r"S = X W W^\top X^\top",
            explanation=N_("(XW)(XW)ᵀ is still symmetric"),
            inputs=("x", "w_shared"),
            output=shared,
            shape="[S, S]",
        ),
        Step(
            name="shared_softmax",
            title=N_("Softmax of the shared-projection scores"),
            formula=r"A = \mathrm{softmax}(X W W^\top X^\top)",
            explanation=N_("symmetric logits, asymmetric weights"),
            inputs=("shared_scores",),
            output=ops.softmax(shared),
            shape="[S, S]",
        ),
        Step(
            name="project_q",
            title=N_("Query projection"),
            formula="Q = X W_Q",
            explanation=N_("separate projection for queries"),
            inputs=("x", "W_Q"),
            output=q,
            shape="[S, d_k]",
        ),
        Step(
            name="project_k",
            title=N_("Key projection"),
            formula="K = X W_K",
            explanation=N_("separate projection for keys"),
            inputs=("x", "W_K"),
            output=k,
            shape="[S, d_k]",
        ),
        Step(
            name="bilinear",
            title=N_("The bilinear form of separate projections"),
            formula=r"W_Q W_K^\top",
            explanation=N_("S_ij = x_i W_Q W_Kᵀ x_jᵀ; S is symmetric for every X iff this matrix is"),
            inputs=("W_Q", "W_K"),
            output=bilinear,
            shape="[d_model, d_model]",
            note=N_(
                "W_Q W_Kᵀ is symmetric for the chapter's W_Q, W_K, so this S = QKᵀ is symmetric for every X: "
                "S₁₂ = S₂₁ is not a coincidence here (the chapter's 7.7 says it is)"
            )
            if sym
            else None,
        ),
        Step(
            name="separate_scores",
            title=N_("Scores with separate projections"),
            formula=r"S = Q K^\top",
            explanation=N_("independent W_Q, W_K allow (but do not force) an asymmetric S"),
            inputs=("project_q", "project_k"),
            output=q @ k.T,
            shape="[S, S]",
        ),
    )
    return Trace(
        N_("7.6 Symmetric raw scores, asymmetric weights"), steps, {"X": X, "W": W_Q, "W_Q": W_Q, "W_K": W_K}
    )


def dot_variance(d_k: int) -> tuple[float, float]:
    """Var(q·k) and Var(q·k / √d_k) for q, k with independent components of ±1 (mean 0, variance 1), exactly.

    Not sampled: the distribution of one product q_i k_i is worked out from the components' distribution, the
    sum's by convolving it d_k times (a lattice of 2 d_k + 1 values), and the variances are read off the result.
    So the chapter's "Var(q·k) = d_k" is computed, not assumed, and costs microseconds instead of millions of
    random draws.
    """
    values = np.array([-1.0, 1.0])  # one component: -1 or +1, each with probability 1/2
    probs = np.array([0.5, 0.5])
    # q_i k_i on the lattice -1, 0, +1 (index = value + 1)
    term = np.zeros(3)
    for qv, qp in zip(values, probs, strict=True):
        for kv, kp in zip(values, probs, strict=True):
            term[int(qv * kv) + 1] += qp * kp
    pmf = np.ones(1)
    for _ in range(d_k):
        pmf = np.convolve(pmf, term)  # the sum's values run from -d_k to d_k
    dots = np.arange(-d_k, d_k + 1, dtype=np.float64)
    mean = float(pmf @ dots)
    var = float(pmf @ (dots - mean) ** 2)
    scaled = dots / math.sqrt(d_k)
    scaled_mean = float(pmf @ scaled)
    return var, float(pmf @ (scaled - scaled_mean) ** 2)


@example("scaling", section="7.9", summary=N_("dividing by √d_k and the max-probability table"))
def scaling() -> Trace:
    raw = arr([0, 1, 2, 3])
    row = arr([3, 2, 1])
    dks = arr([1, 16, 64])
    scaled_rows = row[None, :] / np.sqrt(dks)[:, None]
    soft = ops.softmax(scaled_rows)
    unscaled = row * math.sqrt(64)
    table_dks = arr([1, 4, 16, 64, 256, 1024])
    with_scaling = np.full_like(table_dks, ops.softmax(row).max())
    without = np.array([ops.softmax(row * math.sqrt(d)).max() for d in table_dks])
    table = np.stack([table_dks, with_scaling, without], axis=1)
    var_rows = [[d, *dot_variance(d)] for d in (1, 16, 64, 256)]
    steps = (
        Step(
            name="raw",
            title=N_("Raw scores of the worked example"),
            formula="s",
            explanation=N_("the distinct values in QKᵀ (7.12)"),
            inputs=(),
            output=raw,
            shape="[4]",
        ),
        Step(
            name="scale",
            title=N_("Scaled by √2"),
            formula=r"s / \sqrt{d_k},\ d_k = 2",
            explanation="√2 ≈ 1.414",
            inputs=("raw",),
            output=raw / math.sqrt(2),
            shape="[4]",
        ),
        Step(
            name="row",
            title=N_("A row of scores"),
            formula="s = [3, 2, 1]",
            explanation=N_("the chapter's example row"),
            inputs=(),
            output=row,
            shape="[3]",
        ),
        Step(
            name="scaled_rows",
            title=N_("The row divided by √d_k"),
            formula=r"s / \sqrt{d_k},\ d_k \in \{1, 16, 64\}",
            explanation=N_("one row per d_k"),
            inputs=("row",),
            output=scaled_rows,
            shape="[3, 3]",
            note=N_(
                "the chapter divides the same row by √d_k; real raw scores would grow like √d_k (see table)"
            ),
        ),
        Step(
            name="softmax_rows",
            title=N_("Softmax of each scaled row"),
            formula=r"\mathrm{softmax}(s / \sqrt{d_k})",
            explanation=N_("row-wise"),
            inputs=("scaled_rows",),
            output=soft,
            shape="[3, 3]",
        ),
        Step(
            name="max_prob",
            title=N_("Largest probability per d_k"),
            formula=r"\max_j A_j",
            explanation="d_k = 1, 16, 64",
            inputs=("softmax_rows",),
            output=soft.max(axis=1),
            shape="[3]",
        ),
        Step(
            name="unscaled_row",
            title=N_("Unscaled scores at d_k = 64"),
            formula=r"s \cdot \sqrt{64}",
            explanation=N_("a dot product of 64 unit-variance terms has std √64 = 8"),
            inputs=("row",),
            output=unscaled,
            shape="[3]",
        ),
        Step(
            name="unscaled_softmax",
            title=N_("Softmax without scaling"),
            formula=r"\mathrm{softmax}(s \sqrt{d_k})",
            explanation=N_("saturates"),
            inputs=("unscaled_row",),
            output=ops.softmax(unscaled),
            shape="[3]",
        ),
        Step(
            name="unscaled_max_prob",
            title=N_("Largest probability without scaling"),
            formula=r"\max_j A_j",
            explanation=N_("≈ one-hot"),
            inputs=("unscaled_softmax",),
            output=np.asarray(ops.softmax(unscaled).max()),
            shape="[]",
        ),
        Step(
            name="table",
            title=N_("Max probability with and without scaling"),
            formula=r"\left[d_k,\ \max \mathrm{softmax}(s),\ \max \mathrm{softmax}(s\sqrt{d_k})\right]",
            explanation=N_(
                "raw scores s·√d_k: scaling brings them back to s whatever d_k is; unscaled they saturate"
            ),
            inputs=("row",),
            output=table,
            shape="[6, 3]",
        ),
        Step(
            name="dot_variance",
            title=N_("Variance of q·k, exactly (components ±1)"),
            formula=r"\left[d_k,\ \mathrm{Var}(q \cdot k),\ \mathrm{Var}(q \cdot k / \sqrt{d_k})\right]",
            explanation=N_(
                "q, k with independent ±1 components (mean 0, variance 1): the exact distribution of q·k "
                "has variance d_k; after scaling it is 1"
            ),
            inputs=(),
            output=np.array(var_rows),
            shape="[4, 3]",
        ),
    )
    return Trace(N_("7.9 Why divide by √d_k"), steps, {})


@example("softmax", section="7.10", summary=N_("row-wise softmax, naive and stable"))
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
            name="logits",
            title=N_("Scaled scores (7.12 step 3)"),
            formula=r"s = QK^\top / \sqrt{d_k}",
            explanation=N_("one row per query"),
            inputs=(),
            output=logits,
            shape="[S, S]",
        ),
        Step(
            name="exp",
            title=N_("Exponentials"),
            formula=r"e^{s_{ij}}",
            explanation=N_("non-negative, and bigger scores grow faster"),
            inputs=("logits",),
            output=e,
            shape="[S, S]",
        ),
        Step(
            name="row_sum",
            title=N_("Row sums"),
            formula=r"\sum_j e^{s_{ij}}",
            explanation=N_("the normaliser of each row"),
            inputs=("exp",),
            output=total,
            shape="[S]",
        ),
        Step(
            name="softmax",
            title=N_("Normalise"),
            formula=r"A_{ij} = e^{s_{ij}} / \sum_{j'} e^{s_{ij'}}",
            explanation=N_("each row sums to 1"),
            inputs=("exp", "row_sum"),
            output=e / total[:, None],
            shape="[S, S]",
        ),
        Step(
            name="row_max",
            title=N_("Row maxima"),
            formula=r"m_i = \max_j s_{ij}",
            explanation=N_("subtracting it changes nothing but the scale"),
            inputs=("logits",),
            output=m,
            shape="[S]",
        ),
        Step(
            name="shifted",
            title=N_("Shifted scores"),
            formula=r"s_{ij} - m_i",
            explanation=N_("every row's largest entry becomes 0"),
            inputs=("logits", "row_max"),
            output=shifted,
            shape="[S, S]",
        ),
        Step(
            name="stable_exp",
            title=N_("Exponentials of the shifted scores"),
            formula=r"e^{s_{ij} - m_i}",
            explanation=N_("all in (0, 1]: no overflow"),
            inputs=("shifted",),
            output=se,
            shape="[S, S]",
        ),
        Step(
            name="stable_softmax",
            title=N_("Stable softmax"),
            formula=r"\frac{e^{s_{ij} - m_i}}{\sum_{j'} e^{s_{ij'} - m_i}}",
            explanation=N_("the same A as the naive formula"),
            inputs=("stable_exp",),
            output=se / se.sum(axis=1, keepdims=True),
            shape="[S, S]",
        ),
        Step(
            name="sigmoid",
            title=N_("Sigmoid instead (wrong)"),
            formula=r"\sigma(s_{ij})",
            explanation=N_("element-wise: rows do not sum to 1"),
            inputs=("logits",),
            output=sig,
            shape="[S, S]",
        ),
        Step(
            name="sigmoid_row_sum",
            title=N_("Sigmoid row sums"),
            formula=r"\sum_j \sigma(s_{ij})",
            explanation=N_("not a distribution"),
            inputs=("sigmoid",),
            output=sig.sum(axis=1),
            shape="[S]",
        ),
        Step(
            name="overflow_threshold",
            title=N_("Where e^x overflows"),
            formula=r"\ln(\mathrm{max\ float})",
            explanation=N_("float16, float32, float64: e^x is inf beyond these x"),
            inputs=(),
            output=limits,
            shape="[3]",
            note=N_(
                "float16 overflows already at e^11.09 (max 65504); e^89 is the float32 limit (≈ e^88.72)"
            ),
        ),
    )
    return Trace(N_("7.10 Softmax, row by row"), steps, {})
