"""One engine step in full, for the calc screen: title, formula, shape, its inputs and its output as tables.

The study pane (step_pane.py) shows a step's output only; here every input the step reads is shown too, so
the arithmetic can be followed from one screen. Tables come from widgets/matrix.py. Nothing is parsed as
markup. numpy is not imported here (shapes come from the arrays themselves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from drill.i18n import N_, _
from drill.tui.widgets.matrix import matrix_table

if TYPE_CHECKING:
    import numpy as np

    from drill.engine.trace import Trace


def dims(value: np.ndarray | None) -> str:
    shape = getattr(value, "shape", None)
    if shape is None:
        return ""
    return "[" + ", ".join(str(d) for d in shape) + "]"


def compact(renderable: RenderableType) -> RenderableType:
    """Light table rules: several matrices share the screen, and the numbers matter more than the boxes."""
    if isinstance(renderable, Table):
        renderable.box = box.SIMPLE_HEAD
        renderable.show_edge = False
    elif isinstance(renderable, Group):
        for part in renderable.renderables:
            compact(part)
    return renderable


AXIS_NAMES = {"h": N_("head"), "G": N_("KV head"), "B": N_("sequence")}  # translated where shown


def labelled(label: str, value: np.ndarray, shape: str | None = None) -> Group:
    """A matrix under its label (not the table's title, so a narrow table doesn't wrap it). A 3-D value is
    one table per leading index, named after its axis in ``shape`` ("[h, S, d_k]" -> head 0, head 1, ...)."""
    parts: list[RenderableType] = [Text(label, style="bold", no_wrap=True)]
    if getattr(value, "ndim", 0) == 3:
        axis = (shape or "").strip("[]").split(",")[0].strip()
        name = _(AXIS_NAMES.get(axis, axis or N_("slice")))
        for index, sub in enumerate(value):
            parts.append(Text(f"{name} {index}", style="italic", no_wrap=True))
            parts.append(compact(matrix_table(sub)))
    else:
        parts.append(compact(matrix_table(value)))
    return Group(*parts)


def input_shape(trace: Trace, name: str) -> str | None:
    if name in trace:
        return trace[name].shape
    return None


def input_value(trace: Trace, name: str) -> np.ndarray | None:
    """An input of a step: an earlier step's output or one of the trace's given matrices."""
    if name in trace:
        return trace[name].output
    return trace.inputs.get(name)


def _same_given(trace: Trace, name: str, value: np.ndarray | None, output: np.ndarray) -> bool:
    """A step that only restates a given matrix (X -> step "x") needn't show it twice."""
    if name in trace or getattr(value, "shape", None) != getattr(output, "shape", None):
        return False
    return bool((value == output).all())


def step_renderable(trace: Trace, index: int, formula: str) -> RenderableType:
    step = trace.steps[index]
    head = Text()
    head.append(f"{index + 1}/{len(trace.steps)}  ", style="dim")
    head.append(_(step.title), style="bold")
    head.append(f"   {step.name}", style="dim")
    head.append("   " + _("← → step"), style="dim")
    parts: list[RenderableType] = [head]
    if formula:
        parts.append(Text(formula))
    shape = Text()
    shape.append(_("shape") + " ", style="dim")
    shape.append(step.shape)
    shape.append(" = ", style="dim")
    shape.append(dims(step.output) or _("scalar"))
    parts.append(shape)
    if step.explanation:
        parts.append(Text(_(step.explanation), style="italic"))
    tables = []
    for name in step.inputs:
        value = input_value(trace, name)
        if value is None or value is step.output or _same_given(trace, name, value, step.output):
            continue
        tables.append(
            labelled(
                _("in: {name} {shape}").format(name=name, shape=dims(value)), value, input_shape(trace, name)
            )
        )
    # Inputs, then the output: side by side when the screen is wide enough, one under another when not.
    tables.append(
        labelled(
            _("out: {name} {shape}").format(name=step.name, shape=dims(step.output)), step.output, step.shape
        )
    )
    parts.append(Text(""))
    parts.append(Columns(tables, padding=(0, 3)))
    if step.note:
        parts.append(Text(""))
        parts.append(Text(_("note: {note}").format(note=_(step.note)), style="bold"))
    return Group(*parts)
