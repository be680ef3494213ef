"""Recompute every number the chapter prints (data/checks.yaml) and compare at the printed precision.

A check says: example, step, index into the step's output, the value the chapter printed (``claimed``) and how
many decimals it printed. The chapter's value is accepted when |engine - claimed| <= 0.5 * 10**-decimals
(+1e-9 for binary rounding). A check may carry ``erratum`` (a note that the chapter is wrong there); then the
engine must disagree with the printed value, otherwise the erratum is stale and the result is a mismatch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from drill.engine.examples import build_example
from drill.engine.trace import Trace
from drill.errors import DrillError

SLACK = 1e-9
OK, ERRATUM, MISMATCH = "ok", "erratum", "mismatch"


@dataclass(frozen=True)
class CheckResult:
    id: str
    section: str
    example: str
    step: str
    index: tuple[int, ...]
    claimed: float
    decimals: int
    value: float | None  # what the engine computes (None when the step or index does not exist)
    status: str  # "ok", "erratum" (the chapter is wrong and the check says so) or "mismatch"
    message: str
    erratum: str | None = None
    card: str | None = None

    @property
    def ok(self) -> bool:
        """True when the content is consistent: the chapter agrees, or its error is recorded."""
        return self.status in (OK, ERRATUM)

    @property
    def tolerance(self) -> float:
        return tolerance(self.decimals)

    def engine_text(self) -> str:
        """The engine's value at the printed precision (plus two more digits when the chapter is wrong)."""
        if self.value is None:
            return "—"
        extra = 0 if self.status == OK else 2
        return f"{self.value:.{self.decimals + extra}f}"


def tolerance(decimals: int) -> float:
    return 0.5 * 10.0 ** (-decimals) + SLACK


def _field(check, name: str, default=None):
    if isinstance(check, Mapping):
        return check.get(name, default)
    return getattr(check, name, default)


def verify_checks(checks: Iterable, traces: Mapping[str, Trace] | None = None) -> list[CheckResult]:
    """Compare each check with the engine; ``checks`` are Check objects or dicts with the checks.yaml fields."""
    cache: dict[str, Trace | DrillError] = dict(traces or {})
    results = []
    for check in checks:
        cid = str(_field(check, "id", "?"))
        example, step = str(_field(check, "example", "")), str(_field(check, "step", ""))
        index = tuple(int(i) for i in (_field(check, "index") or ()))
        claimed = float(_field(check, "claimed"))
        decimals = int(_field(check, "decimals"))
        erratum = _field(check, "erratum")
        common = dict(
            id=cid,
            section=str(_field(check, "section", "")),
            example=example,
            step=step,
            index=index,
            claimed=claimed,
            decimals=decimals,
            erratum=erratum,
            card=_field(check, "card"),
        )
        if example not in cache:
            try:
                cache[example] = build_example(example)
            except DrillError as err:
                cache[example] = err
        trace = cache[example]
        if isinstance(trace, DrillError):
            results.append(CheckResult(value=None, status=MISMATCH, message=str(trace), **common))
            continue
        if step not in trace:
            results.append(
                CheckResult(
                    value=None, status=MISMATCH, message=f"example {example!r} has no step {step!r}", **common
                )
            )
            continue
        output = np.asarray(trace[step].output)
        try:
            if len(index) != output.ndim:
                raise IndexError
            value = float(output[index])
        except IndexError:
            results.append(
                CheckResult(
                    value=None,
                    status=MISMATCH,
                    message=f"index {list(index)} is not valid for {example}/{step} of shape {list(output.shape)}",
                    **common,
                )
            )
            continue
        agrees = abs(value - claimed) <= tolerance(decimals)
        if agrees and not erratum:
            status, message = OK, f"chapter {claimed:g} agrees with the engine's {value:.{decimals + 3}f}"
        elif not agrees and erratum:
            status, message = (
                ERRATUM,
                (f"chapter prints {claimed:g}; the engine computes {value:.{decimals + 3}f} ({erratum})"),
            )
        elif agrees:
            status, message = (
                MISMATCH,
                (
                    f"an erratum is recorded but the chapter's {claimed:g} agrees with the engine's "
                    f"{value:.{decimals + 3}f}: remove the erratum"
                ),
            )
        else:
            status, message = (
                MISMATCH,
                (
                    f"the chapter printed {claimed:g} (to {decimals} decimals) but the engine says "
                    f"{value:.{decimals + 3}f}; difference {abs(value - claimed):.2g} > {tolerance(decimals):.2g}"
                ),
            )
        results.append(CheckResult(value=value, status=status, message=message, **common))
    return results
