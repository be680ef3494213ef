"""The demos' plot widget: textual-plot's `PlotWidget`, redrawn per frame at the cost of what changed.

textual-plot (pinned in pyproject) draws a plot inside ``render()``: every change (``clear()``, ``plot()``,
``set_xlimits()`` ...) asks Textual to repaint the whole widget, and the next frame clears the canvases (the
plot and the axes' margins) and sets their pixels again, one refresh of a whole canvas per pixel call.
`DemoPlot` draws a frame (``with plot.frame(): ...``) once, when the frame's calls are done, straight onto the
canvases, and then repaints only the canvas lines that differ from the previous frame: a moved slider costs the
lines the curve or bars cross, not the widget. The margins (tick labels, axis labels) are drawn again only when
what they show changed (limits, ticks, labels, sizes), and a dataset that is the same as in the previous frame
(same data, style and axes) is copied from the cells it wrote then instead of being drawn again (the
dot-product curve under a moving marker, a vector that did not move). The legend is rebuilt (and the screen laid out again)
only when its entries change. Before the canvases have their size (the first frame, a resize), drawing is left
to ``render()``, as textual-plot does it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from textual.geometry import Region
from textual_hires_canvas import Canvas
from textual_plot import PlotWidget

MARGINS = ("margin-top", "margin-left", "margin-bottom")


def _keep(*args: object, **kwargs: object) -> None:
    """Stands in for a margin canvas's ``reset`` and ``write_text`` while its text is unchanged."""


def dataset_key(dataset: Any) -> tuple:
    """Everything a textual-plot dataset (a dataclass: x, y, styles, mode ...) is drawn from."""
    out: list[object] = [type(dataset)]
    for field in dataclasses.fields(dataset):
        value = getattr(dataset, field.name)
        if hasattr(value, "tobytes"):  # numpy arrays
            value = (value.dtype.str, value.shape, value.tobytes())
        elif isinstance(value, list):
            value = tuple(value)
        out.append(value)
    return tuple(out)


Writes = list[tuple[int, int, str, str]]


class DemoPlot(PlotWidget):
    _legend_key: tuple | None = None
    _margins_key: tuple | None = None
    _framing = False
    _plot_canvas: Canvas | None = None
    _canvases: dict[str, Canvas] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._layers: dict[tuple, Writes] = {}  # the previous frame's datasets: the cells each wrote
        self._layers_now: dict[tuple, Writes] = {}

    @contextmanager
    def frame(self) -> Iterator[DemoPlot]:
        """Draw a whole frame (``clear()`` and the datasets) once, at the end, with one legend update."""
        self._framing = True
        try:
            yield self
        finally:
            self._framing = False
            self._update_legend()
            if self._needs_rerender:
                self._draw()

    def _rerender(self) -> None:
        """Inside a frame a change is only noted; it is drawn once when the frame ends."""
        if self._framing:
            self._needs_rerender = True
        else:
            super()._rerender()

    def _draw(self) -> None:
        """Draw onto the canvases now, or, before they have their size, leave it to ``render()`` (which sizes
        them first)."""
        if self._needs_canvas_resize or any(
            not c.size.area or c._canvas_size != c.size for c in self._canvas_map().values()
        ):
            self.refresh()
            return
        self._needs_rerender = False
        self._render_plot()

    def notify_style_update(self) -> None:
        self._margins_key = None  # the tick and label styles may have changed
        super().notify_style_update()

    def _legend_entries(self) -> tuple:
        datasets = tuple(
            (type(d).__name__, label, repr(getattr(d, "line_style", getattr(d, "bar_style", None))))
            for label, d in zip(self._labels, self._datasets, strict=False)
        )
        return (datasets, tuple(self._v_lines_labels), self._legend_location)

    def _update_legend(self) -> None:
        if self._framing:
            return
        key = self._legend_entries()
        if key != self._legend_key:
            self._legend_key = key
            super()._update_legend()

    def _margins_entries(self, canvases: dict[str, Canvas]) -> tuple:
        """Everything the margins' text depends on."""
        ticks = tuple(
            None if t is None else tuple(float(v) for v in t) for t in (self._x_ticks, self._y_ticks)
        )
        return (
            (self._x_min, self._x_max, self._y_min, self._y_max),
            ticks,
            (id(self._x_formatter), id(self._y_formatter), self._x_label, self._y_label),
            (self._scale_rectangle, self.margin_left, self.margin_top, self.margin_bottom),
            tuple(c._canvas_size for c in canvases.values()),
        )

    # Each dataset's drawing only writes cells (textual-plot 0.10: lines and scatter through
    # set_hires_pixels/set_pixel, bars by rows of cells), never reads them: what it writes depends on the
    # dataset, the axes' limits and the canvas, so the same inputs write the same cells.
    def _render_line_plot(self, dataset: Any) -> None:
        self._layer(dataset, super()._render_line_plot)

    def _render_bar_plot(self, dataset: Any) -> None:
        self._layer(dataset, super()._render_bar_plot)

    def _render_scatter_plot(self, dataset: Any) -> None:
        self._layer(dataset, super()._render_scatter_plot)

    def _layer(self, dataset: Any, draw: Callable[[Any], None]) -> None:
        canvas = self._plot_canvas
        if canvas is None:
            draw(dataset)
            return
        key = (
            dataset_key(dataset),
            (self._x_min, self._x_max, self._y_min, self._y_max),
            self._scale_rectangle,
            canvas._canvas_size,
        )
        writes = self._layers.get(key)
        if writes is None:
            writes = self._drawn_alone(canvas, dataset, draw)
        self._layers_now[key] = writes
        buffer, styles = canvas._buffer, canvas._styles
        for x, y, char, style in writes:
            buffer[y][x] = char
            styles[y][x] = style

    @staticmethod
    def _drawn_alone(canvas: Canvas, dataset: Any, draw: Callable[[Any], None]) -> Writes:
        """The cells ``draw(dataset)`` writes, found by drawing it on an empty layer."""
        buffer, styles = canvas._buffer, canvas._styles
        canvas._buffer = [[None] * len(row) for row in buffer]  # type: ignore[misc]
        canvas._styles = [[None] * len(row) for row in styles]  # type: ignore[misc]
        try:
            draw(dataset)
            return [
                (x, y, char, canvas._styles[y][x])
                for y, row in enumerate(canvas._buffer)
                for x, char in enumerate(row)
                if char is not None
            ]
        finally:
            canvas._buffer, canvas._styles = buffer, styles

    def _canvas_map(self) -> dict[str, Canvas]:
        """The plot's canvases by id (textual-plot composes them once: plot and the three margins)."""
        found = self._canvases
        if found is None:
            found = {str(c.id): c for c in self.query(Canvas)}
            if len(found) == 1 + len(MARGINS):
                self._canvases = found
        return found

    def _render_plot(self) -> None:
        canvases = self._canvas_map()
        self._plot_canvas = canvases.get("plot")
        margins = [canvases[name] for name in MARGINS if name in canvases]
        key = self._margins_entries(canvases)
        keep = key == self._margins_key
        self._margins_key = key
        before = [
            (c._canvas_size, c._buffer, c._styles) for c in canvases.values()
        ]  # reset() makes new lists
        for canvas in canvases.values():
            canvas._refreshes_pending += 1
        if keep:
            for margin in margins:
                margin.reset = margin.write_text = _keep  # type: ignore[method-assign]
        try:
            super()._render_plot()
        finally:
            self._layers, self._layers_now = self._layers_now, {}
            for canvas in canvases.values():
                canvas._refreshes_pending -= 1
            if keep:
                for margin in margins:
                    del margin.reset, margin.write_text
        for canvas, (size, buffer, styles) in zip(canvases.values(), before, strict=True):
            if canvas._canvas_size != size or len(canvas._buffer) != len(buffer):
                canvas.refresh()
                continue
            width = size.width if size else 0
            changed = [
                Region(0, y, width, 1)
                for y, (line, style) in enumerate(zip(canvas._buffer, canvas._styles, strict=True))
                if line != buffer[y] or style != styles[y]
            ]
            if changed:
                canvas.refresh(*changed)
