"""Engine steps named by a card ("<example>/<step>"), built on demand.

Importing this module is cheap; `load_steps` imports the engine (numpy) and is called from a thread worker
the first time the side pane needs it. Traces are cached: an example is computed once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from drill.i18n import N_, _, current_language

if TYPE_CHECKING:
    from drill.content.models import Check
    from drill.engine.trace import Step, Trace


@dataclass(frozen=True)
class StepView:
    """One step ready to show: the engine Step (with its trace, for its inputs), or the reason it can't be
    shown. ``between``: not named by the card, but computed between two steps it names (the pane follows
    the computation). ``intermediates``: (label, values) worked out on the way, e.g. a softmax's exponentials
    and row sums, as the chapter works them through."""

    ref: str
    step: Step | None
    formula: str = ""
    problem: str | None = None
    trace: Trace | None = None
    between: bool = False
    intermediates: tuple[tuple[str, Any], ...] = ()


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


def follow_computation(refs: tuple[str, ...], traces: dict[str, Trace]) -> list[tuple[str, bool]]:
    """The card's refs, in the card's order, with the steps computed between two consecutive refs of one
    example filled in: the steps of the trace after the first that the second is computed from (a card
    naming cross/scores then cross/weighted_sum also gets cross/scale and cross/softmax). (ref, named)."""
    out: list[tuple[str, bool]] = []
    for index, ref in enumerate(refs):
        if index:
            out += [(between, False) for between in _between(refs[index - 1], ref, traces)]
        out.append((ref, True))
    return out


def _between(before: str, after: str, traces: dict[str, Trace]) -> list[str]:
    example, _, first = before.partition("/")
    other, _, last = after.partition("/")
    trace = traces.get(example)
    if other != example or trace is None or first not in trace or last not in trace:
        return []
    names = [step.name for step in trace.steps]
    start, end = names.index(first), names.index(last)
    needed = _ancestors(trace, [last])
    return [f"{example}/{name}" for name in names[start + 1 : end] if name in needed]


def _ancestors(trace: Trace, names: list[str]) -> set[str]:
    """Every step the named steps are computed from (transitively), the named ones included."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen or name not in trace:
            continue
        seen.add(name)
        todo += list(trace[name].inputs)
    return seen


SOFTMAX_STEPS = ("softmax",)  # engine step names of a row-wise softmax over scores (attention examples)


def softmax_intermediates(step: Step, trace: Trace) -> tuple[tuple[str, Any], ...]:
    """A row-wise softmax worked as the chapter works it (7.10, 7.12): the exponentials e^{s_ij} of its input
    scores, then each row's sum; the weights are their quotient (the step's output). Masked scores (−∞) give
    e^{−∞} = 0. None when the exponentials overflow (the engine's own, shifted, formula is then the one that
    matters) or the step is not a softmax over a score matrix."""
    import numpy as np

    if step.name not in SOFTMAX_STEPS or len(step.inputs) != 1 or step.inputs[0] not in trace:
        return ()
    scores = np.asarray(trace[step.inputs[0]].output, dtype=float)
    if scores.ndim < 2 or scores.shape != np.shape(step.output):
        return ()
    with np.errstate(over="ignore"):
        exps = np.exp(scores)
    if not np.isfinite(exps).all():
        return ()
    sums = exps.sum(axis=-1, keepdims=True)
    return ((N_("① exponentials e^s_ij"), exps), (N_("② row sums Σ_j e^s_ij"), sums))


def _build_views(refs: tuple[str, ...]) -> list[StepView]:
    from drill.content.latex import render_latex

    traces: dict[str, Trace] = {}
    problems: dict[str, str] = {}
    for ref in refs:
        example = ref.partition("/")[0]
        if example not in traces and example not in problems:
            try:
                traces[example] = _trace(example)
            except Exception as err:  # an unknown example is a content bug; shown in the pane, no crash
                problems[example] = str(err)
    views: list[StepView] = []
    for ref, named in follow_computation(refs, traces):
        example, _, name = ref.partition("/")
        trace = traces.get(example)
        try:
            if trace is None:
                raise LookupError(problems.get(example, example))
            step = trace[name]
        except Exception as err:  # an unknown ref is a content bug; show it in the pane, don't crash
            views.append(StepView(ref, None, problem=f"cannot compute {ref}: {err}"))
            continue
        views.append(
            StepView(
                ref,
                step,
                formula=render_latex(step.formula) if step.formula else "",
                trace=trace,
                between=not named,
                intermediates=softmax_intermediates(step, trace),
            )
        )
    return views


# check ids -> notes, so a card with errata doesn't re-verify them (a sampling example: ~0.25 s) on each showing.
_ERRATA: dict[tuple[str, ...], list[str]] = {}  # (UI language, check ids...) -> the notes in that language


def _errata_key(checks: list[Check]) -> tuple[str, ...]:
    return (current_language(), *(str(check.id) for check in checks))


def cached_errata(checks: list[Check]) -> list[str] | None:
    return _ERRATA.get(_errata_key(checks))


def errata_notes(checks: list[Check]) -> list[str]:
    """ "the chapter printed X; drill computes Y" for each check whose erratum the engine confirms."""
    key = _errata_key(checks)
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
        note = _("the chapter printed {claimed}; drill computes {computed}").format(
            claimed=f"{check.claimed:.{check.decimals}f}", computed=computed
        )
        if check.erratum:  # drill's words, in the UI language (drill.content.errata)
            from drill.content.errata import check_text

            note += f" — {check_text(check)}"
        notes.append(note)
    return notes
