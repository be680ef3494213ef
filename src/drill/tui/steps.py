"""Engine steps named by a card ("<example>/<step>"), built on demand.

Importing this module is cheap; `load_steps` imports the engine (numpy) and is called from a thread worker
the first time the side pane needs it. Traces are cached: an example is computed once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any


@dataclass(frozen=True)
class StepView:
    """One step ready to show: the engine Step, or the reason it can't be shown."""

    ref: str
    step: Any | None
    formula: str = ""
    problem: str | None = None


@cache
def _trace(example: str) -> Any:
    from drill.engine.examples import build_example

    return build_example(example)


def load_steps(refs: tuple[str, ...]) -> list[StepView]:
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


def check_value(check: Any) -> float | None:
    """What the engine computes for a checks.yaml entry (None if it can't)."""
    try:
        output = _trace(check.example)[check.step].output
        value = output[tuple(check.index)] if check.index else output
        return float(value)
    except Exception:
        return None
