"""Numeric quiz questions generated from the engine with small random inputs (`drill quiz --generated N`).

Four kinds, cycled in a seed-shuffled order:

- ``softmax-weight`` (numeric): given X, W_Q, W_K, what is A[i,j]?  (±0.005)
- ``scaled-score`` (numeric): given X, W_Q, W_K, what is S[i,j]/√d_k?  (±0.005)
- ``argmax-key`` (choice): which key does token i attend to most?
- ``score-shape`` (choice): the shape of the score matrix for given B, S, d_k, or S_dec/S_enc in cross-attention.

Answers come from the engine's traces (drill.engine.attention), never from a formula copied here. Inputs are
small integers so the question can be worked by hand, as in the chapter's 7.12. Generation is deterministic for
a seed. numpy and the engine are imported inside the functions: importing this module stays light.
"""

from __future__ import annotations

import math
import random
import re
import unicodedata
from dataclasses import dataclass, field

from drill.errors import InputError

NUMERIC, CHOICE = "numeric", "choice"
TOLERANCE = 0.005
KINDS = ("softmax-weight", "scaled-score", "argmax-key", "score-shape")
# the chapter sections each kind exercises (score-shape: 7.7 for self-attention, 7.18 for cross-attention)
SECTIONS = {
    "softmax-weight": ("7.12",),
    "scaled-score": ("7.9",),
    "argmax-key": ("7.11",),
    "score-shape": ("7.7", "7.18"),
}
ALL_SECTIONS = tuple(sec for secs in SECTIONS.values() for sec in secs)
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


@dataclass(frozen=True)
class GeneratedQuestion:
    id: str  # "gen-<seed>-<n>", stable for a seed
    topic: str  # one of KINDS
    kind: str  # "numeric" | "choice"
    section: str  # the chapter section it exercises
    prompt: str  # plain text, matrices included
    answer: float | str  # a number for numeric questions, an option key for choice questions
    explanation: str  # plain text: the working, from the engine's intermediate steps
    inputs: dict[str, object] = field(default_factory=dict)  # matrices as lists of lists, sizes as ints
    tolerance: float | None = None  # numeric only: |typed - answer| <= tolerance is right
    options: dict[str, str] | None = None  # choice only: key -> text, in display order


def generate_questions(seed: int, n: int, *, section: str | None = None) -> list[GeneratedQuestion]:
    """``n`` questions, the same ones for the same seed; with ``section``, only kinds exercising it."""
    if n < 0:
        raise InputError(f"the number of generated questions must be >= 0, got {n}")
    kinds = KINDS
    if section is not None:
        kinds = tuple(kind for kind, sections in SECTIONS.items() if section in sections)
        if not kinds:
            raise InputError(
                f"no generated questions for section {section} (they cover {', '.join(sorted(set(ALL_SECTIONS), key=_key))})"
            )
    rng = random.Random(seed)
    out: list[GeneratedQuestion] = []
    order: list[str] = []
    for number in range(1, n + 1):
        if not order:
            order = list(kinds)
            rng.shuffle(order)
        topic = order.pop()
        out.append(_BUILDERS[topic](rng, f"gen-{seed}-{number}", section))
    return out


def _key(section: str) -> tuple[int, ...]:
    return tuple(int(p) for p in section.split("."))


# ---------------------------------------------------------------- answers


_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\Z", re.IGNORECASE)


def parse_number(text: str) -> float:
    """A typed number: ``0.198``, ``.2``, ``-1.5e-3``, ``19.8%``, ``1/3``; full-width digits and ``−`` accepted."""
    raw = text
    text = unicodedata.normalize("NFKC", text).strip().replace("−", "-").replace(" ", "")
    if not text:
        raise InputError("type a number (for example 0.25)")
    percent = text.endswith("%")
    if percent:
        text = text[:-1]
    if text.count("/") == 1:
        top, bottom = (parse_number(part) for part in text.split("/"))
        if bottom == 0:
            raise InputError(f"{raw.strip()!r}: division by zero")
        value = top / bottom
    elif _NUMBER.match(text):
        value = float(text)
    else:
        raise InputError(f"{raw.strip()!r} is not a number (type something like 0.25, 1/4 or 25%)")
    if not math.isfinite(value):
        raise InputError(f"{raw.strip()!r} is not a finite number")
    return value / 100 if percent else value


def check_numeric_answer(text: str, q: GeneratedQuestion) -> bool:
    """Is the typed ``text`` within the question's tolerance? InputError when it is not a number."""
    if q.kind != NUMERIC:
        raise ValueError(f"{q.id} is a {q.kind} question")
    return abs(parse_number(text) - float(q.answer)) <= (q.tolerance or 0.0) + 1e-12


def check_answer(text: str, q: GeneratedQuestion) -> bool:
    """Numeric questions: within tolerance; choice questions: the option key (case-insensitive)."""
    if q.kind == NUMERIC:
        return check_numeric_answer(text, q)
    key = text.strip().upper()
    if key not in (q.options or {}):
        raise InputError(f"{text.strip()!r} is not one of the options ({', '.join(q.options or {})})")
    return key == q.answer


# ---------------------------------------------------------------- formatting


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.3f}"


def format_matrix(name: str, rows) -> str:
    cells = [[_num(v) for v in row] for row in rows]
    width = max(len(c) for row in cells for c in row)
    body = "\n".join("  [ " + "  ".join(c.rjust(width) for c in row) + " ]" for row in cells)
    return f"{name} =\n{body}"


def _one_based(i: int, j: int) -> str:
    return f"[{i + 1},{j + 1}]"


# ---------------------------------------------------------------- builders


def _small_matrix(rng: random.Random, rows: int, cols: int, values: tuple[int, ...]) -> list[list[int]]:
    return [[rng.choice(values) for _ in range(cols)] for _ in range(rows)]


def _hand_example(rng: random.Random, pick):
    """X [S, 2] and W_Q, W_K [2, d_k] of small integers, the engine's trace of self-attention on them, and
    ``pick(trace)``: the part of the trace the question asks about, or None to draw new inputs (a question
    with no good answer, e.g. a tie for the largest weight)."""
    import numpy as np

    from drill.engine.attention import attention_trace

    while True:
        s, d_k = rng.choice((3, 3, 4)), rng.choice((2, 2, 3))
        x = _small_matrix(rng, s, 2, (-1, 0, 1, 1, 2))
        wq, wk = _small_matrix(rng, 2, d_k, (-1, 0, 1, 1)), _small_matrix(rng, 2, d_k, (-1, 0, 1, 1))
        if min(np.linalg.matrix_rank(np.array(m)) for m in (x, wq, wk)) < 2:
            continue  # a zero or rank-1 projection makes a dull question (all scores alike)
        trace = attention_trace(np.array(x), np.array(wq), np.array(wk), np.eye(2))
        picked = pick(trace)
        if picked is not None:
            return x, wq, wk, d_k, trace, picked


def _givens(x, wq, wk, d_k: int) -> str:
    return "\n".join(
        [format_matrix("X", x), format_matrix("W_Q", wq), format_matrix("W_K", wk), f"d_k = {d_k}"]
    )


def _working(trace, i: int) -> str:
    q, k = trace["project_q"].output, trace["project_k"].output
    scores, scaled, weights = trace["scores"].output, trace["scale"].output, trace["softmax"].output
    return (
        f"q{i + 1} = row {i + 1} of X·W_Q = {_vec(q[i])}; K = X·W_K = [{', '.join(_vec(r) for r in k)}]. "
        f"Row {i + 1} of QKᵀ is {_vec(scores[i])}, divided by √d_k it is {_vec(scaled[i])}, "
        f"and softmax over that row gives {_vec(weights[i])}."
    )


def _vec(values) -> str:
    return "[" + ", ".join(_num(v) for v in values) + "]"


def _cells(trace, rng: random.Random, keep) -> tuple[int, int] | None:
    """A random (i, j) of the score matrix for which ``keep(i, j)`` holds, or None."""
    scores = trace["scores"].output
    cells = [(i, j) for i in range(scores.shape[0]) for j in range(scores.shape[1]) if keep(i, j)]
    return rng.choice(cells) if cells else None


def _softmax_weight(rng: random.Random, qid: str, section: str | None = None) -> GeneratedQuestion:
    # a weight in [0.05, 0.95] (near 0 or 1 the ±0.005 tolerance would accept a guess) in a row whose
    # scores differ (equal scores give 1/S, a different question)
    x, wq, wk, d_k, trace, (i, j) = _hand_example(
        rng,
        lambda t: _cells(
            t,
            rng,
            lambda i, j: (
                0.05 <= t["softmax"].output[i, j] <= 0.95
                and t["scores"].output[i].max() > t["scores"].output[i].min()
            ),
        ),
    )
    weights = trace["softmax"].output
    answer = float(weights[i, j])
    return GeneratedQuestion(
        id=qid,
        topic="softmax-weight",
        kind=NUMERIC,
        section="7.12",
        prompt=(
            f"Self-attention on the inputs below: Q = X·W_Q, K = X·W_K, A = softmax(QKᵀ/√d_k) row by row.\n"
            f"What is the attention weight A{_one_based(i, j)} (query token {i + 1}, key token {j + 1}; "
            f"counting from 1)? Answer within ±{TOLERANCE}.\n\n{_givens(x, wq, wk, d_k)}"
        ),
        answer=answer,
        tolerance=TOLERANCE,
        explanation=f"A{_one_based(i, j)} ≈ {answer:.4f}. " + _working(trace, i),
        inputs={"X": x, "W_Q": wq, "W_K": wk, "d_k": d_k, "i": i, "j": j},
    )


def _scaled_score(rng: random.Random, qid: str, section: str | None = None) -> GeneratedQuestion:
    # a raw score that is not 0, so there is some arithmetic to do
    x, wq, wk, d_k, trace, (i, j) = _hand_example(
        rng, lambda t: _cells(t, rng, lambda i, j: t["scores"].output[i, j] != 0)
    )
    raw = float(trace["scores"].output[i, j])
    answer = float(trace["scale"].output[i, j])
    return GeneratedQuestion(
        id=qid,
        topic="scaled-score",
        kind=NUMERIC,
        section="7.9",
        prompt=(
            f"With Q = X·W_Q and K = X·W_K for the inputs below, what is the scaled score "
            f"S{_one_based(i, j)}/√d_k, where S = QKᵀ (counting from 1)? Answer within ±{TOLERANCE}.\n\n"
            f"{_givens(x, wq, wk, d_k)}"
        ),
        answer=answer,
        tolerance=TOLERANCE,
        explanation=(
            f"S{_one_based(i, j)} = q{i + 1}·k{j + 1} = {_num(raw)}; √d_k = √{d_k} ≈ {math.sqrt(d_k):.3f}; "
            f"{_num(raw)}/{math.sqrt(d_k):.3f} ≈ {answer:.4f}."
        ),
        inputs={"X": x, "W_Q": wq, "W_K": wk, "d_k": d_k, "i": i, "j": j},
    )


def _argmax_key(rng: random.Random, qid: str, section: str | None = None) -> GeneratedQuestion:
    def clear_winner(t):  # a row whose largest weight is clearly ahead of the runner-up: one right answer
        rows = [i for i, row in enumerate(t["softmax"].output) if sorted(row)[-1] - sorted(row)[-2] > 0.02]
        return rng.choice(rows) if rows else None

    x, wq, wk, d_k, trace, i = _hand_example(rng, clear_winner)
    weights = trace["softmax"].output
    s = len(x)
    best = int(weights[i].argmax())
    keys = "ABCDE"
    options = {keys[t]: f"key token {t + 1}" for t in range(s)}
    options[keys[s]] = "all keys equally"
    return GeneratedQuestion(
        id=qid,
        topic="argmax-key",
        kind=CHOICE,
        section="7.11",
        prompt=(
            f"For the inputs below (Q = X·W_Q, K = X·W_K, A = softmax(QKᵀ/√d_k)), which key does query token "
            f"{i + 1} attend to most?\n\n{_givens(x, wq, wk, d_k)}"
        ),
        answer=keys[best],
        options=options,
        explanation=f"Key token {best + 1} has the largest weight in row {i + 1}. " + _working(trace, i),
        inputs={"X": x, "W_Q": wq, "W_K": wk, "d_k": d_k, "i": i},
    )


def _shape(dims) -> str:
    return "[" + ", ".join(str(d) for d in dims) + "]"


def _score_shape(rng: random.Random, qid: str, section: str | None = None) -> GeneratedQuestion:
    import numpy as np

    from drill.engine.attention import attention_trace, cross_attention_trace

    cross = rng.random() < 0.5 if section is None else section == "7.18"
    b, s, s_enc, d_k, d_model = rng.sample(range(2, 10), 5)
    x = np.zeros((b, s, d_model))
    wq, wk = np.zeros((d_model, d_k)), np.zeros((d_model, d_k))
    wv = np.zeros((d_model, d_k))
    if cross:
        trace = cross_attention_trace(x, np.zeros((b, s_enc, d_model)), wq, wk, wv)
        setting = (
            f"In cross-attention the decoder supplies the queries and the encoder the keys: batch B = {b}, "
            f"decoder length S_dec = {s}, encoder length S_enc = {s_enc}, d_model = {d_model}, d_k = {d_k}."
        )
        wrong = [(b, s_enc, s), (b, s, d_k), (b, s_enc, s_enc), (b, s, s)]
        inputs = {"B": b, "S_dec": s, "S_enc": s_enc, "d_model": d_model, "d_k": d_k}
        why = "QKᵀ is [B, S_dec, d_k]·[B, d_k, S_enc] = [B, S_dec, S_enc]: one row per decoder token."
    else:
        trace = attention_trace(x, wq, wk, wv)
        setting = f"In self-attention with batch B = {b}, sequence length S = {s}, d_model = {d_model}, d_k = {d_k}."
        wrong = [(b, s, d_k), (b, d_k, d_k), (s, s), (b, s, d_model)]
        inputs = {"B": b, "S": s, "d_model": d_model, "d_k": d_k}
        why = "QKᵀ is [B, S, d_k]·[B, d_k, S] = [B, S, S]: every query scored against every key."
    correct = _shape(trace["scores"].output.shape)
    texts = [correct] + [t for t in dict.fromkeys(_shape(w) for w in wrong) if t != correct][:3]
    rng.shuffle(texts)
    options = dict(zip("ABCD", texts, strict=False))
    answer = next(k for k, v in options.items() if v == correct)
    return GeneratedQuestion(
        id=qid,
        topic="score-shape",
        kind=CHOICE,
        section="7.18" if cross else "7.7",
        prompt=f"{setting}\nWhat shape is the score matrix QKᵀ?",
        answer=answer,
        options=options,
        explanation=f"{correct}. {why}",
        inputs=inputs,
    )


_BUILDERS = {
    "softmax-weight": _softmax_weight,
    "scaled-score": _scaled_score,
    "argmax-key": _argmax_key,
    "score-shape": _score_shape,
}
