"""Recompute every number the chapter prints (data/checks.yaml) and compare at the printed precision.

A check says: example, step, index into the step's output, the value the chapter printed (``claimed``) and how
many decimals it printed. The chapter's value is accepted when |engine - claimed| <= 0.5 * 10**-decimals
(+1e-9 for binary rounding). A check may carry ``erratum`` (a note that the chapter is wrong there); then the
engine must disagree with the printed value, otherwise the erratum is stale and the result is a mismatch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from drill.engine.examples import build_example
from drill.engine.trace import Trace
from drill.errors import DrillError
from drill.i18n import N_


class Check(Protocol):
    """What the engine reads of a check: drill.content.models.Check has these fields (and more). Declared here,
    structurally, so the engine never imports the content layer (arrows point from content to engine)."""

    @property
    def example(self) -> str: ...
    @property
    def step(self) -> str: ...
    @property
    def index(self) -> tuple[int, ...]: ...
    @property
    def claimed(self) -> float: ...
    @property
    def decimals(self) -> int: ...
    @property
    def erratum(self) -> str | None: ...


SLACK = 1e-9
OK, ERRATUM, MISMATCH = "ok", "erratum", "mismatch"


@dataclass(frozen=True)
class CheckResult:
    """What the engine says about one check. ``check`` is the check itself (a drill.content.models.Check, or
    any object with its fields; callers read its id, section and card too)."""

    check: Check
    value: float | None  # what the engine computes (None when the example, step or index does not exist)
    status: str  # "ok", "erratum" (the chapter is wrong and the check says so) or "mismatch"
    message: str

    @property
    def ok(self) -> bool:
        """True when the content is consistent: the chapter agrees, or its error is recorded."""
        return self.status in (OK, ERRATUM)


def tolerance(decimals: int) -> float:
    return 0.5 * 10.0 ** (-decimals) + SLACK


def verify_checks(checks: Iterable[Check], traces: Mapping[str, Trace] | None = None) -> list[CheckResult]:
    """Compare each check with the engine; ``traces`` may hold examples already built (by name)."""
    cache: dict[str, Trace | DrillError] = dict(traces or {})
    return [_verify(check, cache) for check in checks]


def _verify(check: Check, cache: dict[str, Trace | DrillError]) -> CheckResult:
    example, step, index = check.example, check.step, tuple(check.index)
    if example not in cache:
        try:
            cache[example] = build_example(example)
        except DrillError as err:
            cache[example] = err
    trace = cache[example]
    if isinstance(trace, DrillError):
        return CheckResult(check, None, MISMATCH, str(trace))
    if step not in trace:
        return CheckResult(
            check, None, MISMATCH, N_("example {example!r} has no step {step!r}", example=example, step=step)
        )
    output = np.asarray(trace[step].output)
    if len(index) != output.ndim or any(not -n <= i < n for i, n in zip(index, output.shape, strict=True)):
        shape = list(output.shape)
        message = N_(
            "index {index} is not valid for {example}/{step} of shape {shape}",
            index=list(index),
            example=example,
            step=step,
            shape=shape,
        )
        return CheckResult(check, None, MISMATCH, message)
    value = float(output[index])
    return CheckResult(check, value, *_judge(value, check.claimed, check.decimals, check.erratum))


def _judge(value: float, claimed: float, decimals: int, erratum: str | None) -> tuple[str, str]:
    """(status, message) for the engine's value against the printed one."""
    agrees = abs(value - claimed) <= tolerance(decimals)
    shown = f"{value:.{decimals + 3}f}"
    if agrees and not erratum:
        return OK, N_("chapter {claimed:g} agrees with the engine's {shown}", claimed=claimed, shown=shown)
    if not agrees and erratum:
        return ERRATUM, N_(
            "chapter prints {claimed:g}; the engine computes {shown} ({erratum})",
            claimed=claimed,
            shown=shown,
            erratum=erratum,
        )
    if agrees:
        return MISMATCH, N_(
            "an erratum is recorded but the chapter's {claimed:g} agrees with the engine's {shown}: "
            "remove the erratum",
            claimed=claimed,
            shown=shown,
        )
    return MISMATCH, N_(
        "the chapter printed {claimed:g} (to {decimals} decimals) but the engine says {shown}; "
        "difference {difference:.2g} > {tolerance:.2g}",
        claimed=claimed,
        decimals=decimals,
        shown=shown,
        difference=abs(value - claimed),
        tolerance=tolerance(decimals),
    )
