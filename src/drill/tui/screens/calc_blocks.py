"""What the calc screen shows of one step, as parts (widgets/parts.py): its head (title, formula, shape), its
inputs and output as heatmaps (widgets/heatmap.py: 1-based names, shaded by value, numbers shown), and for a
softmax the chapter's way of working it: the exponentials and each row's sum (`drill.tui.steps.
softmax_intermediates`, the rule the study pane uses).

Side by side, a matrix that is the same for every head (a mask broadcast over h) gets a line where the
per-head matrices have their "head 1" label, so its rows sit level with theirs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.text import Text

from drill.i18n import N_, _

if TYPE_CHECKING:
    from drill.engine.trace import Trace


def _same_given(trace: Trace, name: str, value, output) -> bool:
    """A step that only restates a given matrix (X -> step "x") needn't show it twice."""
    if name in trace or getattr(value, "shape", None) != getattr(output, "shape", None):
        return False
    return bool((value == output).all())


def _axes(shape: str | None) -> list[str]:
    return [a.strip() for a in (shape or "").strip("[]").split(",")]


def _axis_name(axis: str) -> str:
    from drill.tui.widgets.step_detail import AXIS_NAMES

    return _(AXIS_NAMES.get(axis, axis or N_("slice")))


def matrix_parts(label: str, value, shape: str | None, *, broadcast: str | None = None) -> list:
    """One matrix under its label as parts: a heatmap (1-based names, shaded, numbers shown); a 3-D or 4-D
    value is one heatmap per leading index, named after its axes in ``shape`` ("[h, S, d_k]": head 1, ...);
    a scalar is its number. ``broadcast``: the axes (their names) a 2-D value is shared over, said on the line
    where the other matrices name their slice."""
    import numpy as np

    from drill.engine.notation import number_format
    from drill.tui.widgets.heatmap import heatmap

    parts: list = [Text(label, style="bold", no_wrap=True)]
    array = np.asarray(value)
    if array.ndim == 0:
        return [*parts, Text(number_format(array)(float(array)))]
    if array.ndim <= 2:
        if broadcast is not None:
            every = _("every {axis}").format(axis=broadcast)
            parts.append(Text(every, style="italic", no_wrap=True))
        return [*parts, heatmap(array)]
    axes = _axes(shape)
    for index in np.ndindex(*array.shape[:-2]):
        names = [
            f"{_axis_name(axes[k]) if k < len(axes) else _('slice')} {i + 1}" for k, i in enumerate(index)
        ]
        parts += [Text(" · ".join(names), style="italic", no_wrap=True), heatmap(array[index])]
    return parts


def _row(entries: list[tuple[str, Any, str | None]]) -> list[list]:
    """(label, value, shape) side by side. Beside a value shown slice by slice (head 1, head 2, ...), a 2-D
    value of one slice's shape is the same for every slice (a mask broadcast over the heads): it says so on
    the line where the slices have their names, which keeps its rows level with theirs."""
    import numpy as np

    sliced = next(((value, shape) for _label, value, shape in entries if np.ndim(value) > 2), None)
    blocks = []
    for label, value, shape in entries:
        broadcast = None
        if sliced is not None and np.shape(value) == np.shape(sliced[0])[-2:]:
            leading = _axes(sliced[1])[: np.ndim(sliced[0]) - 2]
            broadcast = " · ".join(_axis_name(axis) for axis in leading)
        blocks.append(matrix_parts(label, value, shape, broadcast=broadcast))
    return blocks


def step_blocks(trace: Trace, index: int) -> list[list]:
    """The step's inputs (those it does not merely restate) and its output, each as `matrix_parts`."""
    from drill.engine.notation import dims
    from drill.tui.widgets.step_detail import input_shape, input_value

    step = trace.steps[index]
    entries: list[tuple[str, Any, str | None]] = []
    for name in step.inputs:
        value = input_value(trace, name)
        if value is None or value is step.output or _same_given(trace, name, value, step.output):
            continue
        label = _("in: {name} {shape}").format(name=name, shape=dims(value))
        entries.append((label, value, input_shape(trace, name)))
    label = _("out: {name} {shape}").format(name=step.name, shape=dims(step.output))
    entries.append((label, step.output, step.shape))
    return _row(entries)


def worked_blocks(trace: Trace, index: int) -> list[list]:
    """A softmax step worked as the chapter does (the study pane's rule): its exponentials and row sums; the
    weights (the step's output) are their quotient. Empty for other steps."""
    from drill.tui.steps import softmax_intermediates

    step = trace.steps[index]
    worked = softmax_intermediates(step, trace)  # (exponentials, row sums), the pane's ①/② labels
    return _row(
        [(_(label), values, step.shape) for label, (_pane, values) in zip(WORKED, worked, strict=False)]
    )


# The calc screen's words for them: ① and ② are ambiguous-width characters that a Chinese font draws two cells
# wide, running into their neighbours in a saved screenshot (tests/tui/test_screenshot_cjk.py).
WORKED_TITLE = N_("worked as the chapter does: weights = exponentials / row sums")
WORKED = (N_("exponentials e^s_ij"), N_("row sums Σ_j e^s_ij"))


def step_head(trace: Trace, index: int, formula: str) -> Group:
    """Title, formula, shape and explanation of the step."""
    from drill.engine.notation import dims

    step = trace.steps[index]
    head = Text()
    head.append(f"{index + 1}/{len(trace.steps)}  ", style="dim")
    head.append(_(step.title), style="bold")
    head.append(f"   {step.name}", style="dim")
    head.append("   " + _("← → step"), style="dim")
    parts: list = [head]
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
    return Group(*parts)


GAP = 3  # columns between two blocks side by side (calc.tcss: .calc-matrix margin-right)


def block_width(parts: list) -> int:
    """The columns a block takes: its widest label or heatmap."""
    from rich.cells import cell_len

    from drill.tui.widgets.heatmap import HeatmapSpec, _cells, _rows

    widest = 0
    for part in parts:
        if isinstance(part, HeatmapSpec):
            widest = max(widest, _cells(_rows(part.values), part.options).size()[0])
        elif isinstance(part, Text):
            widest = max(widest, cell_len(part.plain))
    return widest


def pack_lines(blocks: list[list], width: int) -> list[list[list]]:
    """``blocks`` in order, as many side by side on each line as fit in ``width`` columns (at least one)."""
    lines: list[list[list]] = []
    used = 0
    for parts in blocks:
        needed = block_width(parts)
        if lines and used + GAP + needed <= width:
            lines[-1].append(parts)
            used += GAP + needed
        else:
            lines.append([parts])
            used = needed
    return lines
