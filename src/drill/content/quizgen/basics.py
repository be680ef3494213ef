"""Templates for 7.1 – 7.8: why attention, parameters, positional encoding, cost, Q/K/V shapes and scores."""

from __future__ import annotations

from drill.content.generated import format_scalar
from drill.content.quizgen.base import (
    CONCEPT,
    FORMULA,
    HAND,
    SHAPE,
    Draft,
    _givens,
    _hand,
    _vec,
    _wrong,
    count,
    f3,
    shape,
    steps,
    template,
    times,
)
from drill.i18n import _


@template("path-length", "7.1", steps, CONCEPT)
def _path(rng):
    from drill.engine.sizes import path_length

    distance, kernel = rng.randint(6, 40), rng.choice((3, 5))
    args = ("attention", distance, kernel)
    return Draft(
        _(
            "In a sentence, token 1 and token {last} are {distance} positions apart. In one layer of "
            "self-attention, how many steps long is the path that carries information from the first to the "
            "second? (Compare: an RNN passes it on step by step; a CNN has kernel width {kernel}.)"
        ).format(last=distance + 1, distance=distance, kernel=kernel),
        path_length(*args),
        _wrong(["path_length/rnn", "path_length/cnn", "path_length/log-depth"], *args),
        _(
            "In self-attention any two positions interact directly through a dot product: path length O(1), "
            "one step."
        ),
        {"distance": distance, "kernel": kernel},
    )


@template("layer-params", "7.2", count, FORMULA)
def _layer_params(rng):
    from drill.engine.sizes import layer_params

    d = rng.choice((256, 384, 512, 640, 768, 1024))
    args = (d, 4 * d)
    return Draft(
        _(
            "An Encoder layer: d_model = {d_model}, FFN inner dimension d_ff = {d_ff}. Not counting biases and "
            "LayerNorm, how many parameters do the attention and FFN weight matrices have in all?"
        ).format(d_model=d, d_ff=4 * d),
        layer_params(*args),
        _wrong(
            [
                "layer_params/no-output-projection",
                "layer_params/output-projection-twice",
                "layer_params/ffn-one-matrix",
            ],
            *args,
        ),
        _(
            "Attention's W_Q, W_K, W_V, W_O: 4·d² = {attention:,}; the FFN's W_1, W_2: 2·d·d_ff = 8·d² = {ffn:,}."
        ).format(attention=4 * d * d, ffn=8 * d * d),
        {"d_model": d, "d_ff": 4 * d},
    )


@template("pe-value", "7.3", f3, FORMULA)
def _pe(rng):
    from drill.engine import ops

    d, s = rng.choice((4, 6, 8)), rng.randint(2, 6)
    pos, i = rng.randint(1, s - 1), rng.randint(0, d - 1)
    right = float(ops.sinusoidal_pe(s, d)[pos, i])
    wrong = [
        (mid, float(v[pos, i]))
        for mid, v in _wrong(
            [
                "sinusoidal_pe/sin-cos-swapped",
                "sinusoidal_pe/exponent-uses-dimension",
                "sinusoidal_pe/halves-not-interleaved",
            ],
            s,
            d,
        )
    ]
    kind = "sin" if i % 2 == 0 else "cos"
    return Draft(
        _(
            "Sinusoidal positional encoding, d_model = {d_model}: PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), "
            "PE(pos, 2i+1) = cos(the same angle). What is the value at position pos = {pos}, dimension {dim} "
            "(counting from 0)?"
        ).format(d_model=d, pos=pos, dim=i),
        right,
        wrong,
        _(
            "Dimension {dim} belongs to pair {pair}, which uses {function}: angle {pos}/10000^({exponent}/{d_model}), "
            "value {value:.4f}."
        ).format(dim=i, pair=i // 2, function=kind, pos=pos, exponent=2 * (i // 2), d_model=d, value=right),
        {"d_model": d, "pos": pos, "dim": i},
    )


@template("rope-value", "7.3", f3, FORMULA)
def _rope(rng):
    import numpy as np

    from drill.engine import ops

    d, m, k = 4, rng.randint(2, 6), rng.randrange(4)
    x = [rng.choice((-2, -1, 1, 2, 3)) for _ in range(d)]
    rotated = ops.rope(np.array([x], dtype=float), np.array([m]))[0]
    wrong = [
        (mid, float(np.asarray(v)[0, k]))
        for mid, v in _wrong(
            ["rope/half-split-pairs", "rope/rotation-sign", "rope_value/angle-without-position"], [x], [m]
        )
    ]
    pair = k // 2
    return Draft(
        _(
            "RoPE (the RoFormer convention: neighbouring dimensions (x₁, x₂), (x₃, x₄) form pairs; pair i "
            "(counting from 0) is rotated counter-clockwise by the angle m·θ_i, θ_i = 10000^(−2i/d)). d = 4, the "
            "vector at position m = {m} is x = {x}. What is dimension {dim} (counting from 1) after the rotation?"
        ).format(m=m, x=_vec(x), dim=k + 1),
        float(rotated[k]),
        wrong,
        _(
            "Dimension {dim} belongs to pair {pair}: angle {m}·10000^(−{exponent}/4) ≈ {angle:.4f} radians; "
            "(a, b) → (a·cos − b·sin, a·sin + b·cos), rotated: {rotated}."
        ).format(
            dim=k + 1,
            pair=pair,
            m=m,
            exponent=2 * pair,
            angle=m * 10000 ** (-2 * pair / 4),
            rotated=_vec(rotated),
        ),
        {"x": x, "m": m, "k": k},
    )


@template("score-growth", "7.4", times, CONCEPT)
def _growth(rng):
    from drill.engine.sizes import score_growth

    s, r = rng.choice((256, 512, 1024, 2048)), rng.randint(2, 6)
    return Draft(
        _(
            "The sequence length goes from {length} to {longer} ({factor} times as long), d_model unchanged. By "
            "what factor does self-attention's S×S score matrix (compute and memory) grow?"
        ).format(length=s, longer=s * r, factor=r),
        score_growth(s, r),
        _wrong(["score_growth/linear", "score_growth/cubic", "score_growth/doubling"], s, r),
        _("The score matrix has S² entries: ({longer})² / {length}² = {factor}² = {growth}.").format(
            longer=s * r, length=s, factor=r, growth=r * r
        ),
        {"S": s, "factor": r},
    )


def _dims(rng):
    b, s, d_k, d_model = rng.sample(range(2, 10), 4)
    return b, s, d_model, d_k


@template("q-shape", "7.5", shape, SHAPE)
def _q_shape(rng):
    import numpy as np

    from drill.engine.attention import attention_trace

    b, s, d_model, d_k = _dims(rng)
    w = np.zeros((d_model, d_k))
    right = tuple(attention_trace(np.zeros((b, s, d_model)), w, w, w)["project_q"].output.shape)
    return Draft(
        _(
            "The input X has shape [{batch}, {length}, {d_model}] (batch = {batch}, sequence length {length}, "
            "d_model = {d_model}), W_Q has shape [{d_model}, {d_k}]. What is the shape of Q = X·W_Q?"
        ).format(batch=b, length=s, d_model=d_model, d_k=d_k),
        right,
        _wrong(["q_shape/keeps-d-model", "q_shape/transposed", "q_shape/no-batch"], b, s, d_model, d_k),
        _(
            "Each token's {d_model}-dimensional vector times W_Q becomes {d_k}-dimensional: Q is [batch, S, d_k] "
            "= {shape}."
        ).format(d_model=d_model, d_k=d_k, shape=shape(right)),
        {"B": b, "S": s, "d_model": d_model, "d_k": d_k},
    )


@template("raw-score", "7.6", f3, HAND)
def _raw(rng):
    hand = _hand(rng)
    if hand is None:
        return None
    x, wq, wk, _wv, d_k, trace = hand
    s = len(x)
    i, j = rng.sample(range(s), 2)
    right = float(trace["scores"].output[i, j])
    q, k = trace["project_q"].output, trace["project_k"].output
    return Draft(
        _(
            "The standard Transformer uses separate projections: Q = X·W_Q, K = X·W_K, scores S = QKᵀ. What is "
            "the raw score S[{row},{column}] of token {row} for token {column} (unscaled, counting from 1)?"
            "\n\n{givens}"
        ).format(row=i + 1, column=j + 1, givens=_givens(x, wq, wk, d_k)),
        right,
        _wrong(
            ["raw_score/no-projection", "raw_score/shared-projection", "raw_score/swapped-roles"],
            x,
            wq,
            wk,
            i,
            j,
        ),
        _("q{row} = {query}, k{column} = {key}, dot product {score}.").format(
            row=i + 1, query=_vec(q[i]), column=j + 1, key=_vec(k[j]), score=format_scalar(right)
        ),
        {"X": x, "W_Q": wq, "W_K": wk, "i": i, "j": j},
    )


@template("score-shape", "7.7", shape, SHAPE)
def _score_shape(rng):
    import numpy as np

    from drill.engine.attention import attention_trace

    b, s, d_model, d_k = _dims(rng)
    w = np.zeros((d_model, d_k))
    right = tuple(attention_trace(np.zeros((b, s, d_model)), w, w, w)["scores"].output.shape)
    return Draft(
        _(
            "Self-attention: batch = {batch}, sequence length S = {length}, d_model = {d_model}, d_k = {d_k}. What "
            "is the shape of the score matrix QKᵀ?"
        ).format(batch=b, length=s, d_model=d_model, d_k=d_k),
        right,
        _wrong(["score_shape/q-shape", "score_shape/qt-k", "score_shape/no-batch"], b, s, d_model, d_k),
        _(
            "QKᵀ = [{batch}, {length}, {d_k}]·[{batch}, {d_k}, {length}] = {shape}: one score per query per key."
        ).format(batch=b, length=s, d_k=d_k, shape=shape(right)),
        {"B": b, "S": s, "d_model": d_model, "d_k": d_k},
    )


@template("additive-cost", "7.8", times, CONCEPT)
def _additive(rng):
    from drill.engine.sizes import additive_cost_ratio

    d, length = rng.choice((16, 32, 64, 128)), rng.choice((64, 128, 256, 512))
    return Draft(
        _(
            "S = {length} tokens of width d = {d}. Additive attention projects each query and each key once "
            "(W_q·q and W_k·k, d×d each), then for every (query, key) pair takes tanh of their sum and its dot "
            "product with v (d multiply-adds). Dot-product attention takes one d-dimensional dot product per pair. "
            "Counting multiply-adds, how many times as much work is additive attention in all?"
        ).format(length=length, d=d),
        additive_cost_ratio(d, length),
        _wrong(
            [
                "additive_cost/same-cost",
                "additive_cost/per-pair-projection",
                "additive_cost/chapter-factor-d",
            ],
            d,
            length,
        ),
        _(
            "Projections once per token: 2·S·d² = {proj:,}; one d-wide dot product per pair: S²·d = {pairs:,} "
            "for each. (2Sd² + S²d) / S²d = 1 + 2d/S = {ratio:g}: O(S·d² + S²·d), not O(S²·d²)."
        ).format(proj=2 * length * d * d, pairs=length * length * d, ratio=additive_cost_ratio(d, length)),
        {"d": d, "S": length},
    )
