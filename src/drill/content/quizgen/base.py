"""The templates' common parts: `Draft` and `Template`, the registry (`TEMPLATES`, filled in the chapter's order
by the part modules), the kinds of work a question asks (`WORKS`: its time limit's kind), the option formats, the
named mistakes' values (`_wrong`) and the small worked inputs."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from drill.content.generated import format_matrix, format_vector, parse_number
from drill.engine.notation import format_number
from drill.i18n import LIST_SEPARATOR, _, ngettext


@dataclass(frozen=True)
class Draft:
    prompt: str
    right: object
    wrong: list[tuple[str, object]]
    working: str
    inputs: dict[str, object]


# The work a template's question asks of someone with pen and paper; each kind has its own time limit in
# `drill quiz` (drill config ui.quiz_seconds_<kind>, declared in drill.srs.config; docs/quiz.md says why each
# default is what it is):
CONCEPT = (
    "concept"  # the rule gives the answer, with at most one small step (path length, S² growth, a mask row)
)
SHAPE = "shape"  # follow the dimensions through a product or a split into heads
FORMULA = (
    "formula"  # recall a formula and work it out on a few given numbers (sizes, softmax of a row, Noam, PE)
)
HAND = "hand"  # attention by hand from X and the weights: projections, dot products, exponentials, a row sum
WORKS = (CONCEPT, SHAPE, FORMULA, HAND)


@dataclass(frozen=True)
class Template:
    name: str
    section: str
    draw: Callable[[random.Random], Draft | None]
    fmt: Callable[[object], str]
    work: str  # one of WORKS


TEMPLATES: dict[str, Template] = {}


def template(name: str, section: str, fmt: Callable[[object], str], work: str):
    if work not in WORKS:
        raise ValueError(f"template {name}: work {work!r} is not one of {', '.join(WORKS)}")

    def register(fn):
        TEMPLATES[name] = Template(name, section, fn, fmt, work)
        return fn

    return register


def work_of(topic: str) -> str:
    """The kind of work a generated question asks (its `GeneratedQuestion.topic` is its template's name)."""
    return TEMPLATES[topic].work


def _wrong(mids, *args, **kwargs) -> list[tuple[str, object]]:
    from drill.engine.mistakes import MISTAKES

    return [(mid, _plain(MISTAKES[mid].evaluate(*args, **kwargs))) for mid in mids]


def _plain(value):
    if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
        return value
    try:
        return float(value)
    except TypeError:
        return value


def f3(v) -> str:
    return format_number(float(v), 3)  # drill.engine.notation: −0.500, a rounded −0 is 0.000


def shape(v) -> str:
    return "[" + ", ".join(str(int(d)) for d in v) + "]"


def count(v) -> str:
    return f"{int(round(float(v))):,}"


def times(v) -> str:
    return _("{factor:g}×").format(factor=float(v))


def mib(v) -> str:
    return _("{size:,.1f} MiB").format(size=float(v) / 2**20)


def sci(v) -> str:
    return f"{float(v):.3e}"


def keys(v) -> str:
    return _(LIST_SEPARATOR).join(key(j) for j in v) if v else _("no key is masked")


def steps(v) -> str:
    return ngettext("{count} step", "{count} steps", int(v)).format(count=int(v))


def key(v) -> str:
    return _("key {number}").format(number=int(v) + 1)


def code(v) -> str:
    return str(v)


# ---------------------------------------------------------------- how far apart the options are

# The least distance between any two options of a question (the right one and each distractor, and the distractors
# among themselves), by the option's format: three-decimal values at least 0.01 apart as displayed (ten units of
# the last digit shown: no option a rounding slip away from another); values shown with four significant digits
# (sci) at least 10 % apart; sizes, counts and factors at least 5 % apart. Discrete options (shapes, keys, masked
# keys, steps, code lines) only need to differ. A draw that breaks the rule is drawn again (drill.content.generated).
ABSOLUTE_GAP = {f3: 0.01}
RELATIVE_GAP = {sci: 0.10, count: 0.05, mib: 0.05, times: 0.05}


def options_apart(fmt: Callable[[object], str], values: list[object]) -> bool:
    """Do the options (``values``, the right one first) keep the least distance their format states?"""
    texts = [fmt(v) for v in values]
    if len(set(texts)) != len(texts):
        return False
    if fmt in ABSOLUTE_GAP:
        shown = [parse_number(t) for t in texts]
        gap = ABSOLUTE_GAP[fmt]
        return all(abs(a - b) >= gap - 1e-9 for n, a in enumerate(shown) for b in shown[n + 1 :])
    if fmt in RELATIVE_GAP:
        raw = [float(v) for v in values]  # type: ignore[arg-type]
        gap = RELATIVE_GAP[fmt]
        return all(abs(a - b) >= gap * max(abs(a), abs(b)) for n, a in enumerate(raw) for b in raw[n + 1 :])
    return True


# ---------------------------------------------------------------- small worked inputs


def _small(rng: random.Random, rows: int, cols: int, values=(-1, 0, 1, 1, 2)) -> list[list[int]]:
    return [[rng.choice(values) for _ in range(cols)] for _ in range(rows)]


def _hand(rng: random.Random, s: int | None = None, d_k: int | None = None):
    import numpy as np

    from drill.engine.attention import attention_trace

    s = s or rng.choice((3, 3, 4))
    d_k = d_k or rng.choice((2, 3))
    x = _small(rng, s, 2)
    wq, wk, wv = (_small(rng, 2, d_k, (-1, 0, 1, 1)) for _ in range(3))
    if min(np.linalg.matrix_rank(np.array(m)) for m in (x, wq, wk)) < 2:
        return None
    trace = attention_trace(np.array(x), np.array(wq), np.array(wk), np.array(wv))
    return x, wq, wk, wv, d_k, trace


def _givens(x, wq, wk, d_k, wv=None) -> str:
    parts = [format_matrix("X", x), format_matrix("W_Q", wq), format_matrix("W_K", wk)]
    if wv is not None:
        parts.append(format_matrix("W_V", wv))
    return "\n".join(parts + [f"d_k = {d_k}"])


def _vec(values) -> str:
    return format_vector(values)
