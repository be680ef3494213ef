"""A view listed as parts, each in its own widget, updated in place: what changed is redrawn, nothing else.

A *part* is a Rich renderable (shown by `Part`, a Static) or a `HeatmapSpec` (shown by a `Heatmap`). `PartsView.
show(parts)` keeps the widgets of the parts already shown: a part that is the same object, or equal text, is
left alone; a heatmap with new values repaints only its changed cells; a changed part keeps the screen's
layout when its height is unchanged. From the first part of another kind on, the widgets are replaced. Used
by the demo screen (one view) and the calc screen (one per matrix).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual.containers import Vertical
from textual.widgets import Static

from drill.tui.widgets.heatmap import Heatmap, HeatmapSpec

if TYPE_CHECKING:
    from rich.console import RenderableType


def flatten(view: object) -> list:
    """A view's parts in order: Groups (and lists) opened up, everything else (Text, tables, HeatmapSpec) kept."""
    if isinstance(view, Group):
        return [part for inner in view.renderables for part in flatten(inner)]
    if isinstance(view, list | tuple):
        return [part for inner in view for part in flatten(inner)]
    return [view]


class Part(Static):
    """One renderable part; remembers what it shows, so an unchanged part is not redrawn."""

    DEFAULT_CSS = "Part { height: auto; }"

    def __init__(self, part: RenderableType, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(part, id=id, classes=classes)
        self.part = part

    def show(self, part: RenderableType) -> None:
        same = part is self.part or (
            isinstance(part, Text) and isinstance(self.part, Text) and part == self.part
        )
        if not same:
            self.part = part
            self.update(part, layout=self._height_of(part) != self.content_size.height)

    def _height_of(self, part: RenderableType) -> int | None:
        """The lines ``part`` takes at this widget's width: when it is the height already laid out, the
        update repaints this widget alone instead of laying out the whole screen again."""
        width = self.content_size.width
        if not width:
            return None
        if isinstance(part, Text):  # text that fits needs no rendering to know its height
            lines = part.plain.split("\n")
            if all(cell_len(line) <= width for line in lines):
                return len(lines)
        console = self.app.console
        return len(console.render_lines(part, console.options.update_width(width), pad=False))


def part_widget(part: object) -> Part | Heatmap:
    if isinstance(part, HeatmapSpec):
        return Heatmap(part.values, **part.options)
    return Part(part)  # type: ignore[arg-type]


def show_parts(container, parts: list) -> None:
    """Show ``parts`` as the children of ``container``, reusing the widgets of the same kind in place."""
    widgets = list(container.children)
    for i, part in enumerate(parts):
        widget = widgets[i] if i < len(widgets) else None
        if isinstance(part, HeatmapSpec) and isinstance(widget, Heatmap):
            widget.show(part.values, **part.options)
        elif not isinstance(part, HeatmapSpec) and isinstance(widget, Part):
            widget.show(part)
        else:
            for stale in widgets[i:]:
                stale.remove()
            container.mount_all(part_widget(p) for p in parts[i:])
            return
    for stale in widgets[len(parts) :]:
        stale.remove()


def part_widgets(container) -> list[Part | Heatmap]:
    """The widgets showing ``container``'s parts, in order."""
    return [w for w in container.children if isinstance(w, Part | Heatmap)]


class PartsView(Vertical):
    """A column of parts: ``show(parts)`` updates it in place (see the module's docstring)."""

    DEFAULT_CSS = "PartsView { height: auto; width: auto; }"

    def __init__(
        self, parts: list | None = None, *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(*(part_widget(p) for p in parts or ()), id=id, classes=classes)

    def show(self, parts: list) -> None:
        show_parts(self, parts)

    def parts(self) -> list[Part | Heatmap]:
        return part_widgets(self)
