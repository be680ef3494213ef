"""Grade a submission's returned values against the engine, case by case, and name the mistake.

``grade_value(task, case, got)`` takes what the learner's function returned (an array, a tuple, or any other
object) and gives a `CaseGrade`: pass, or the first problem found in the order the computation produces the
outputs (for attention: the weights A before out = A V), with the first mismatching element, and — when the
submission agrees with a catalogued wrong variant on this case where the right answer differs — the
`Mistake`. Values agree to ``ATOL``/``RTOL`` (float64); boolean outputs must be boolean and equal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from drill.engine.codetasks.model import Case, Task
from drill.engine.mistakes import Mistake, mistakes_for

ATOL = 1e-6
RTOL = 1e-6

PASS = "pass"
FAIL = "fail"  # returned something, and it is wrong
ERROR = "error"  # raised, ran out of time, or the process ended

# Mismatch kinds
ARITY = "arity"  # wrong number of returned values / not a tuple when one was asked for
TYPE = "type"  # not an array or number
SHAPE = "shape"
DTYPE = "dtype"
VALUE = "value"
NO_ERROR = "no-error"  # the task must refuse these inputs and did not


@dataclass(frozen=True)
class Mismatch:
    kind: str
    output: str = ""  # the output's name in the prompt
    step: str = ""  # the engine step that output is
    expected: np.ndarray | None = None
    got: object = None  # ndarray, or a description for ARITY/TYPE
    index: tuple[int, ...] | None = None  # first mismatching element, 0-based (shown 1-based)
    detail: str = ""


@dataclass(frozen=True)
class CaseGrade:
    case: Case
    status: str
    mismatch: Mismatch | None = None
    mistake: Mistake | None = None
    diverged: str = ""  # the step inferred from the returned values (diverging_step), when it can be

    @property
    def step(self) -> str | None:
        """The step where the submission first goes wrong: the mistake's own step when named, else the one read
        off the returned values, else the first wrong output's step."""
        if self.mistake is not None:
            return self.mistake.step
        if self.diverged:
            return self.diverged
        return self.mismatch.step if self.mismatch is not None else None


def grade_value(task: Task, case: Case, got) -> CaseGrade:
    if case.expect_error:
        return CaseGrade(case, FAIL, Mismatch(NO_ERROR))
    expected = task.expected(case)
    mismatch = compare(task, expected, got)
    if mismatch is None:
        return CaseGrade(case, PASS)
    return CaseGrade(
        case, FAIL, mismatch, diagnose(task, case, expected, got), diverging_step(task, case, mismatch)
    )


def diverging_step(task: Task, case: Case, mismatch: Mismatch) -> str:
    """For scaled dot-product attention, the first step whose value differs, read off the returned weights A
    (the learner's scores are not returned, but A = softmax(scores) gives them up to each row's constant):
    ``softmax`` when a row of A is not a distribution; ``mask`` when A's zeros are not the masked keys;
    ``scale`` when log A is the right scores times one wrong factor; else ``scores``. "" when A is not the
    output that differs (A right and the output wrong: the mismatch's own step, weighted_sum, is where it is)."""
    if task.name != "attention" or mismatch.kind != VALUE or mismatch.output != "A" or len(case.args) < 2:
        return ""
    A = np.asarray(mismatch.got, dtype=np.float64)
    Q, K = (np.asarray(a, dtype=np.float64) for a in case.args[:2])
    mask = case.kwargs.get("mask")
    raw = Q @ np.swapaxes(K, -1, -2)
    if raw.shape != A.shape:
        return ""
    allowed = (
        np.ones(raw.shape, dtype=bool) if mask is None else np.broadcast_to(np.asarray(mask, bool), raw.shape)
    )
    if not np.all(np.isfinite(A)) or np.any(A < -ATOL):
        return "softmax"
    live = allowed.any(axis=-1)
    if not np.allclose(A.sum(axis=-1)[live], 1.0, atol=1e-6):
        return "softmax"
    if np.any((A > ATOL) & ~allowed):
        return "mask"
    used = allowed & (A > 0)  # a weight that underflowed to 0 says nothing about its score
    logA = np.log(np.where(used, A, 1.0))
    counts = np.maximum(used.sum(axis=-1, keepdims=True), 1)

    def centred(x):
        x = np.where(used, x, 0.0)
        return np.where(used, x - x.sum(axis=-1, keepdims=True) / counts, 0.0)

    y, z = centred(logA).ravel(), centred(raw).ravel()
    if z @ z > 0:
        factor = (y @ z) / (z @ z)
        if np.allclose(y, factor * z, atol=1e-6, rtol=1e-6):
            return "scale"
    return "scores"


def grade_refusal(task: Task, case: Case) -> CaseGrade:
    """The function raised on ``case``: a pass when the task must refuse it."""
    return CaseGrade(case, PASS if case.expect_error else ERROR)


def _as_outputs(task: Task, got) -> tuple | Mismatch:
    n = len(task.outputs)
    if n == 1:
        if isinstance(got, tuple):
            return Mismatch(ARITY, task.outputs[0].name, task.outputs[0].step, got=f"tuple of {len(got)}")
        return (got,)
    names = ", ".join(o.name for o in task.outputs)
    if not isinstance(got, tuple):
        return Mismatch(ARITY, names, task.outputs[0].step, got=_kind(got), detail=f"({names})")
    if len(got) != n:
        return Mismatch(ARITY, names, task.outputs[0].step, got=f"tuple of {len(got)}", detail=f"({names})")
    return got


def _kind(value) -> str:
    if isinstance(value, np.ndarray):
        return f"array {list(value.shape)}"
    return type(value).__name__ if not hasattr(value, "type") else str(value.type)


def compare(task: Task, expected: tuple, got) -> Mismatch | None:
    outs = _as_outputs(task, got)
    if isinstance(outs, Mismatch):
        return outs
    for i in task.order:
        spec, exp, value = task.outputs[i], np.asarray(expected[i]), outs[i]
        if not isinstance(value, np.ndarray):
            return Mismatch(TYPE, spec.name, spec.step, exp, _kind(value))
        if value.shape != exp.shape:
            return Mismatch(SHAPE, spec.name, spec.step, exp, value)
        if spec.kind == "bool":
            if value.dtype != np.bool_:
                return Mismatch(DTYPE, spec.name, spec.step, exp, value, detail=value.dtype.name)
            bad = value != exp
        else:
            if not (np.issubdtype(value.dtype, np.floating) or np.issubdtype(value.dtype, np.integer)):
                return Mismatch(DTYPE, spec.name, spec.step, exp, value, detail=value.dtype.name)
            bad = ~np.isclose(value.astype(np.float64), exp, rtol=RTOL, atol=ATOL)
        if bad.any():
            index = tuple(int(k) for k in np.argwhere(bad)[0]) if bad.ndim else ()
            return Mismatch(VALUE, spec.name, spec.step, exp, value, index)
    return None


def _same(a, b) -> bool:
    """Two returned values agree (NaN where both have NaN counts as agreeing)."""
    if isinstance(a, tuple) != isinstance(b, tuple):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if not isinstance(a, np.ndarray | np.generic | float | int | bool) or not isinstance(
        b, np.ndarray | np.generic
    ):
        return False
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if not all(
        np.issubdtype(x.dtype, np.bool_)
        or np.issubdtype(x.dtype, np.integer)
        or np.issubdtype(x.dtype, np.floating)
        for x in (a, b)
    ):
        return False
    if a.dtype == np.bool_ or b.dtype == np.bool_:
        return bool(np.array_equal(a.astype(bool), b.astype(bool)))
    try:
        return bool(
            np.all(
                np.isclose(a.astype(np.float64), b.astype(np.float64), rtol=RTOL, atol=ATOL, equal_nan=True)
            )
        )
    except (TypeError, ValueError):
        return False


def reconcile(task: Task, grades: list[CaseGrade], values: list, errors: list[str | None]) -> list[CaseGrade]:
    """Each failing case's mistake named from the evidence of the whole run, not of one case alone.

    ``values``: what the function returned on each case (None where it raised), ``errors``: the exception's type
    name where it raised. A mistake explains a case when its wrong computation returns what the submission
    returned there (or raises the same exception where the right one does not); it is contradicted where its
    wrong answer differs from the right one and the submission passed. Among the mistakes that explain a failing
    case, the one that explains the most cases and is contradicted the least names it (ties: the case's own
    pitfall, then the catalogue's order). A mistake that explains no case is never named; a case that raised
    is named only by a mistake that raises the same way (`S = Q @ K.T` on batched input: transpose-all-axes).
    """
    mistakes = mistakes_for(task.name)
    if not mistakes:
        return grades
    explains: dict[str, set[int]] = {m.id: set() for m in mistakes}
    contradicts: dict[str, int] = {m.id: 0 for m in mistakes}
    for k, (g, value, error) in enumerate(zip(grades, values, errors, strict=True)):
        if g.case.expect_error or g.status == ERROR and error is None:
            continue
        expected = task.expected(g.case)
        right = expected if len(expected) > 1 else expected[0]
        for m in mistakes:
            wrong, raised = _evaluate(m, g.case)
            if raised is None and _same(wrong, right):
                continue  # the mistake changes nothing on this case
            if g.status == PASS:
                contradicts[m.id] += 1
            elif g.status == ERROR:
                if raised is not None and raised == error:
                    explains[m.id].add(k)
            elif raised is None and _same(value, wrong):
                explains[m.id].add(k)
    order = {m.id: i for i, m in enumerate(mistakes)}
    by_id = {m.id: m for m in mistakes}
    out = []
    for k, g in enumerate(grades):
        if g.status == PASS or g.case.expect_error:
            out.append(g)
            continue
        named = [mid for mid in explains if k in explains[mid]]
        if not named:
            out.append(replace(g, mistake=None))
            continue
        best = min(
            named,
            key=lambda mid: (-len(explains[mid]), contradicts[mid], mid != g.case.pitfall, order[mid]),
        )
        out.append(replace(g, mistake=by_id[best]))
    return out


def _evaluate(m: Mistake, case: Case):
    """(the wrong computation's value, None), or (None, the exception's type name) when it raises."""
    try:
        return m.evaluate(*case.args, **case.kwargs), None
    except Exception as err:  # a wrong variant may fail on these inputs, as a learner's would
        return None, type(err).__name__


def diagnose(task: Task, case: Case, expected: tuple, got) -> Mistake | None:
    """The first catalogued mistake whose wrong answer differs from the right one here and equals ``got``."""
    right = expected if len(expected) > 1 else expected[0]
    candidates = sorted(mistakes_for(task.name), key=lambda m: m.id != case.pitfall)  # the case's own first
    for m in candidates:
        try:
            wrong = m.evaluate(*case.args, **case.kwargs)
        except Exception:
            continue
        if _same(wrong, right):
            continue
        if _same(got, wrong):
            return m
    return None
