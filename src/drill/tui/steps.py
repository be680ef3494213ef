"""Engine steps named by a card ("<example>/<step>"), built on demand.

Importing this module is cheap; `load_steps` imports the engine (numpy) and is called from a thread worker
the first time the side pane needs it. Traces are cached: an example is computed once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.content.models import Check
    from drill.engine.trace import Step, Trace


@dataclass(frozen=True)
class StepView:
    """One step ready to show: the engine Step, or the reason it can't be shown."""

    ref: str
    step: Step | None
    formula: str = ""
    problem: str | None = None


@cache
def _trace(example: str) -> Trace:
    from drill.engine.examples import build_example

    return build_example(example)


# refs -> views already built, so a card whose steps were shown before is painted without a worker round trip.
_VIEWS: dict[tuple[str, ...], list[StepView]] = {}


def cached_steps(refs: tuple[str, ...]) -> list[StepView] | None:
    return _VIEWS.get(refs)


def load_steps(refs: tuple[str, ...]) -> list[StepView]:
    views = _VIEWS.get(refs)
    if views is None:
        views = _VIEWS[refs] = _build_views(refs)
    return views


def _build_views(refs: tuple[str, ...]) -> list[StepView]:
    from drill.content.latex import render_latex

    views: list[StepView] = []
    for ref in refs:
        example, _, name = ref.partition("/")
        try:
            step = _trace(example)[name]
        except Exception as err:  # an unknown ref is a content bug; show it in the pane, don't crash
            views.append(StepView(ref, None, problem=f"cannot compute {ref}: {err}"))
            continue
        views.append(StepView(ref, step, formula=render_latex(step.formula) if step.formula else ""))
    return views


# check ids -> notes, so a card with errata doesn't re-verify them (a sampling example: ~0.25 s) on each showing.
_ERRATA: dict[tuple[str, ...], list[str]] = {}


def cached_errata(checks: list[Check]) -> list[str] | None:
    return _ERRATA.get(tuple(str(check.id) for check in checks))


def errata_notes(checks: list[Check]) -> list[str]:
    """ "the chapter printed X; drill computes Y" for each check whose erratum the engine confirms."""
    key = tuple(str(check.id) for check in checks)
    notes = _ERRATA.get(key)
    if notes is None:
        notes = _ERRATA[key] = _build_errata_notes(checks)
    return notes


def _build_errata_notes(checks: list[Check]) -> list[str]:
    from drill.engine.verify import verify_checks

    traces = {}
    for check in checks:  # the side pane's traces: each example is computed once per process
        try:
            traces[check.example] = _trace(check.example)
        except Exception:  # verify_checks reports an example that can't be built
            pass
    notes = []
    for result in verify_checks(checks, traces):
        check = result.check
        computed = "?" if result.value is None else f"{result.value:.{check.decimals}f}"
        note = f"the chapter printed {check.claimed:.{check.decimals}f}; drill computes {computed}"
        if check.erratum:
            note += f" — {check.erratum}"
        notes.append(note)
    return notes
