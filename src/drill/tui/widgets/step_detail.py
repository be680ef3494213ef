"""One engine step in full, for the calc screen: title, formula, shape, its inputs and its output as tables.

Every input the step reads is shown beside its output, so the arithmetic can be followed from one screen;
the study pane (step_pane.py) shows a step the same way (`step_tables`). Tables come from widgets/matrix.py,
or, asked for, shaded heatmaps from widgets/heatmap.py. Elements are named from 1 (row 1, head 1), as the
chapter counts. Nothing is parsed as markup. numpy is not imported here (shapes come from the arrays).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from drill.engine.notation import dims
from drill.i18n import N_, _
from drill.tui.widgets.matrix import matrix_table

if TYPE_CHECKING:
    import numpy as np

    from drill.engine.trace import Step, Trace


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


def table_of(value: np.ndarray, heatmap: bool = False) -> RenderableType:
    """A 1-D or 2-D value as numbers, or (``heatmap``) as a shaded heatmap of the same numbers."""
    if heatmap and getattr(value, "ndim", 0) in (1, 2) and getattr(value, "size", 0):
        from drill.tui.widgets.heatmap import heatmap_table

        return heatmap_table(value)
    return compact(matrix_table(value))


def labelled(label: str, value: np.ndarray, shape: str | None = None, *, heatmap: bool = False) -> Group:
    """A matrix under its label (not the table's title, so a narrow table doesn't wrap it). A 3-D value is
    one table per leading index, named after its axis in ``shape`` ("[h, S, d_k]" -> head 1, head 2, ...)."""
    parts: list[RenderableType] = [Text(label, style="bold", no_wrap=True)]
    if getattr(value, "ndim", 0) == 3:
        axis = (shape or "").strip("[]").split(",")[0].strip()
        name = _(AXIS_NAMES.get(axis, axis or N_("slice")))
        for index, sub in enumerate(value):
            parts.append(Text(f"{name} {index + 1}", style="italic", no_wrap=True))
            parts.append(table_of(sub, heatmap))
    else:
        parts.append(table_of(value, heatmap))
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


def step_tables(trace: Trace, step: Step, *, heatmap: bool = False) -> list[RenderableType]:
    """The step's inputs (those not already shown as its output), then its output, each labelled with its
    name and dimensions: side by side in a `Columns` when there is room, one under another when not."""
    tables = []
    for name in step.inputs:
        value = input_value(trace, name)
        if value is None or value is step.output or _same_given(trace, name, value, step.output):
            continue
        label = _("in: {name} {shape}").format(name=name, shape=dims(value))
        tables.append(labelled(label, value, input_shape(trace, name), heatmap=heatmap))
    label = _("out: {name} {shape}").format(name=step.name, shape=dims(step.output))
    tables.append(labelled(label, step.output, step.shape, heatmap=heatmap))
    return tables


def given_tables(
    trace: Trace, step: Step, computed: set[str], *, heatmap: bool = False
) -> list[RenderableType]:
    """The step's inputs that are not its output nor one of the ``computed`` steps' outputs (the study pane
    before the answer is out: an answer is never among them)."""
    tables: list[RenderableType] = []
    for name in step.inputs:
        value = input_value(trace, name)
        if value is None or value is step.output or name in computed or name == step.name:
            continue
        if _same_given(trace, name, value, step.output):  # a given restated as the output: the output
            continue
        label = _("in: {name} {shape}").format(name=name, shape=dims(value))
        tables.append(labelled(label, value, input_shape(trace, name), heatmap=heatmap))
    return tables
