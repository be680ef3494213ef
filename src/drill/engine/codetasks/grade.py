"""Grade a submission's returned values against the engine, case by case, and name the mistake.

``grade_value(task, case, got)`` takes what the learner's function returned (an array, a tuple, or any other
object) and gives a `CaseGrade`: pass, or the first problem found in the order the computation produces the
outputs (for attention: the weights A before out = A V), with the first mismatching element, and — when the
submission agrees with a catalogued wrong variant on this case where the right answer differs — the
`Mistake`. Values agree to ``ATOL``/``RTOL`` (float64); boolean outputs must be boolean and equal.
"""

from __future__ import annotations

from dataclasses import dataclass

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

    @property
    def step(self) -> str | None:
        """The step where the submission first goes wrong: the mistake's own step when named."""
        if self.mistake is not None:
            return self.mistake.step
        return self.mismatch.step if self.mismatch is not None else None


def grade_value(task: Task, case: Case, got) -> CaseGrade:
    if case.expect_error:
        return CaseGrade(case, FAIL, Mismatch(NO_ERROR))
    expected = task.expected(case)
    mismatch = compare(task, expected, got)
    if mismatch is None:
        return CaseGrade(case, PASS)
    return CaseGrade(case, FAIL, mismatch, diagnose(task, case, expected, got))


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
