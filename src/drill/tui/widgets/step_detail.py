"""One engine step in full, for the calc screen: title, formula, shape, its inputs and its output as tables.

The study pane (step_pane.py) shows a step's output only; here every input the step reads is shown too, so
the arithmetic can be followed from one screen. Tables come from widgets/matrix.py. Nothing is parsed as
markup. numpy is not imported here (shapes come from the arrays themselves).
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from drill.tui.widgets.matrix import matrix_table


def dims(value: Any) -> str:
    shape = getattr(value, "shape", None)
    if shape is None:
        return ""
    return "[" + ", ".join(str(d) for d in shape) + "]"


def compact(renderable: RenderableType) -> RenderableType:
    """Light table rules: several matrices share the screen, and the numbers matter more than the boxes."""
    if isinstance(renderable, Table):
        renderable.box = box.SIMPLE_HEAD
    elif isinstance(renderable, Group):
        for part in renderable.renderables:
            compact(part)
    return renderable


def labelled(label: str, value: Any) -> Group:
    """A matrix under its label; the label is not the table's title, so a narrow table doesn't wrap it."""
    return Group(Text(label, style="bold", no_wrap=True), compact(matrix_table(value)))


def input_value(trace: Any, name: str) -> Any | None:
    """An input of a step: an earlier step's output or one of the trace's given matrices."""
    if name in trace:
        return trace[name].output
    return trace.inputs.get(name)


def step_renderable(trace: Any, index: int, formula: str) -> RenderableType:
    step = trace.steps[index]
    head = Text()
    head.append(f"{index + 1}/{len(trace.steps)}  ", style="dim")
    head.append(step.title, style="bold")
    head.append(f"   {step.name}", style="dim")
    parts: list[RenderableType] = [head]
    if formula:
        parts.append(Text(formula))
    shape = Text()
    shape.append("shape ", style="dim")
    shape.append(step.shape)
    shape.append(" = ", style="dim")
    shape.append(dims(step.output) or "scalar")
    parts.append(shape)
    if step.explanation:
        parts.append(Text(step.explanation, style="italic"))
    tables = []
    for name in step.inputs:
        value = input_value(trace, name)
        if value is None or value is step.output:
            continue
        tables.append(labelled(f"in: {name} {dims(value)}", value))
    if tables:
        parts.append(Text(""))
        parts.append(Columns(tables, padding=(0, 3)))
    parts.append(Text(""))
    parts.append(labelled(f"out: {step.name} {dims(step.output)}", step.output))
    if step.note:
        parts.append(Text(""))
        parts.append(Text("note: " + step.note, style="bold"))
    return Group(*parts)
