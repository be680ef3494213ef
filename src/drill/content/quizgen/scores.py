"""Templates for 7.9 – 7.12: the scaled score, softmax, the output and the attention weights."""

from __future__ import annotations

import math

from drill.content.generated import format_matrix, format_scalar
from drill.content.quizgen.base import (
    FORMULA,
    HAND,
    Draft,
    _givens,
    _hand,
    _small,
    _vec,
    _wrong,
    f3,
    key,
    template,
)
from drill.i18n import _


@template("scaled-score", "7.9", f3, HAND)
def _scaled(rng):
    hand = _hand(rng)
    if hand is None:
        return None
    x, wq, wk, _wv, d_k, trace = hand
    cells = [(i, j) for i in range(len(x)) for j in range(len(x)) if trace["scores"].output[i, j] != 0]
    if not cells:
        return None
    i, j = rng.choice(cells)
    raw = float(trace["scores"].output[i, j])
    return Draft(
        _(
            "Q = X·W_Q, K = X·W_K, S = QKᵀ. What is the scaled score S[{row},{column}]/√d_k (counting from 1)?"
            "\n\n{givens}"
        ).format(row=i + 1, column=j + 1, givens=_givens(x, wq, wk, d_k)),
        float(trace["scale"].output[i, j]),
        _wrong(["scaled_score/scale-by-dk", "scaled_score/no-scale", "scaled_score/multiply"], raw, d_k),
        _("S[{row},{column}] = {score}, √d_k = √{d_k} ≈ {root:.3f}, divided ≈ {scaled:.4f}.").format(
            row=i + 1,
            column=j + 1,
            score=format_scalar(raw),
            d_k=d_k,
            root=math.sqrt(d_k),
            scaled=float(trace["scale"].output[i, j]),
        ),
        {"X": x, "W_Q": wq, "W_K": wk, "d_k": d_k, "i": i, "j": j},
    )


@template("softmax-row", "7.10", f3, FORMULA)
def _softmax_row(rng):
    import numpy as np

    from drill.engine import ops

    logits = np.array(_small(rng, 2, 3, (-1, 0, 1, 2, 3)), dtype=float)
    i, j = rng.randrange(2), rng.randrange(3)
    right = float(ops.softmax(logits, axis=-1)[i, j])
    wrong = [
        (mid, float(v[i, j]))
        for mid, v in _wrong(["softmax/wrong-axis", "softmax/whole-array", "softmax/sigmoid"], logits)
    ]
    return Draft(
        _(
            "Below are the (already scaled) scores of two queries for three keys; softmax as attention does it "
            "gives the weights P. What is P[{row},{column}] (counting from 1)?\n\n{scores}"
        ).format(row=i + 1, column=j + 1, scores=format_matrix(_("scores"), logits.astype(int).tolist())),
        right,
        wrong,
        _("softmax row by row (dim=-1): row {row} {scores} → {weights}.").format(
            row=i + 1, scores=_vec(logits[i]), weights=_vec(ops.softmax(logits, axis=-1)[i])
        ),
        {"scores": logits.tolist(), "i": i, "j": j},
    )


def _attention_mistakes(x, wq, wk, wv, i, j, column: str):
    import numpy as np

    from drill.engine.mistakes import MISTAKES

    q, k, v = (np.array(x, dtype=float) @ np.array(w, dtype=float) for w in (wq, wk, wv))
    out = []
    for mid in (
        "attention/scale-by-dk",
        "attention/no-scale",
        "attention/softmax-wrong-axis",
        "attention/weights-times-k",
    ):
        result, weights = MISTAKES[mid].evaluate(q, k, v)
        out.append((mid, float((weights if column == "weights" else result)[i, j])))
    return out


@template("output-value", "7.11", f3, HAND)
def _output(rng):
    hand = _hand(rng, d_k=2)
    if hand is None:
        return None
    x, wq, wk, wv, d_k, trace = hand
    i, j = rng.randrange(len(x)), rng.randrange(d_k)
    right = float(trace["weighted_sum"].output[i, j])
    wrong = [w for w in _attention_mistakes(x, wq, wk, wv, i, j, "output") if w[0] != "attention/scale-by-dk"]
    return Draft(
        _(
            "Q = X·W_Q, K = X·W_K, V = X·W_V, P = softmax(QKᵀ/√d_k), output O = P·V. What is O[{row},{column}] "
            "(counting from 1)?\n\n{givens}"
        ).format(row=i + 1, column=j + 1, givens=_givens(x, wq, wk, d_k, wv)),
        right,
        wrong,
        _("Row {row} of P {weights} times column {column} of V {values} gives {output:.4f}.").format(
            row=i + 1,
            weights=_vec(trace["softmax"].output[i]),
            column=j + 1,
            values=_vec(trace["project_v"].output[:, j]),
            output=right,
        ),
        {"X": x, "W_Q": wq, "W_K": wk, "W_V": wv, "i": i, "j": j},
    )


@template("softmax-weight", "7.12", f3, HAND)
def _weight(rng):
    hand = _hand(rng)
    if hand is None:
        return None
    x, wq, wk, wv, d_k, trace = hand
    i, j = rng.randrange(len(x)), rng.randrange(len(x))
    right = float(trace["softmax"].output[i, j])
    wrong = [
        w for w in _attention_mistakes(x, wq, wk, wv, i, j, "weights") if w[0] != "attention/weights-times-k"
    ]
    return Draft(
        _(
            "All by hand: Q = X·W_Q, K = X·W_K, P = softmax(QKᵀ/√d_k) row by row. What is the weight "
            "P[{row},{column}] of query {row} for key {column} (counting from 1)?\n\n{givens}"
        ).format(row=i + 1, column=j + 1, givens=_givens(x, wq, wk, d_k)),
        right,
        wrong,
        _("Row {row}: scores {scores}, divided by √{d_k}: {scaled}, softmax: {weights}.").format(
            row=i + 1,
            scores=_vec(trace["scores"].output[i]),
            d_k=d_k,
            scaled=_vec(trace["scale"].output[i]),
            weights=_vec(trace["softmax"].output[i]),
        ),
        {"X": x, "W_Q": wq, "W_K": wk, "i": i, "j": j},
    )


def _top(row) -> int | None:
    """The index of the largest entry, or None when two share it (the question would have two answers)."""
    import numpy as np

    row = np.asarray(row, dtype=float)
    best = np.flatnonzero(np.isclose(row, row.max(), rtol=0, atol=1e-9))
    return int(best[0]) if len(best) == 1 else None


ARGMAX_MISTAKES = ("raw_score/no-projection", "raw_score/swapped-roles", "attention/softmax-wrong-axis")


def _argmax_values(x, wq, wk, i):
    """The most-attended key of query ``i`` by each named mistake (None on a tie), from the mistakes' own
    computations: the raw-score ones over every key of the row, softmax-wrong-axis from its weights."""
    import numpy as np

    from drill.engine.mistakes import MISTAKES

    xs = np.array(x, dtype=float)
    q, k = xs @ np.array(wq, dtype=float), xs @ np.array(wk, dtype=float)
    out = []
    for mid in ARGMAX_MISTAKES:
        m = MISTAKES[mid]
        if mid.startswith("raw_score/"):
            out.append((mid, _top([m.evaluate(x, wq, wk, i, j) for j in range(len(x))])))
        else:
            out.append((mid, _top(m.evaluate(q, k, k)[1][i])))
    return out


@template("argmax-key", "7.12", key, HAND)
def _argmax(rng):
    import numpy as np

    from drill.engine.attention import attention_trace

    # Four different keys from the right rule and three mistakes are rare on small integers: look for inputs
    # here (cheap numpy) rather than let the generator give up after its 200 draws.
    for _attempt in range(200):
        x = _small(rng, 5, 2, (-2, -1, 0, 1, 2, 3))
        wq, wk = (_small(rng, 2, 2, (-1, 0, 1, 2)) for _ in range(2))
        if min(np.linalg.matrix_rank(np.array(m)) for m in (x, wq, wk)) < 2:
            continue
        i = rng.randrange(5)
        xs = np.array(x, dtype=float)
        first = _top(
            (xs @ np.array(wq) @ (xs @ np.array(wk)).T)[i]
        )  # a screen only: the answer is the trace's
        wrong = _argmax_values(x, wq, wk, i)
        values = [first, *(v for _, v in wrong)]
        if None not in values and len(set(values)) == 4:
            break
    else:
        return None
    trace = attention_trace(np.array(x), np.array(wq), np.array(wk), np.eye(2))
    right = _top(trace["softmax"].output[i])
    if right is None:
        return None
    weights = trace["softmax"].output[i]
    return Draft(
        _(
            "Q = X·W_Q, K = X·W_K, P = softmax(QKᵀ/√d_k) row by row. Which key does query {row} attend to most "
            "(the largest weight)?\n\n{givens}"
        ).format(row=i + 1, givens=_givens(x, wq, wk, 2)),
        right,
        wrong,
        _(
            "Row {row}: scores {scores}, weights {weights}: the largest is key {key}. Neither dividing by √d_k "
            "nor softmax changes the order, so this row of the scores S is enough."
        ).format(row=i + 1, scores=_vec(trace["scores"].output[i]), weights=_vec(weights), key=right + 1),
        {"X": x, "W_Q": wq, "W_K": wk, "i": i},
    )
