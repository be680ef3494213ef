"""The demos' plot widget: textual-plot's `PlotWidget`, redrawn per frame at the cost of what changed.

textual-plot (pinned in pyproject) draws a plot inside ``render()``: every change (``clear()``, ``plot()``,
``set_xlimits()`` ...) asks Textual to repaint the whole widget, and the next frame clears the canvases (the
plot and the axes' margins) and sets their pixels again, one refresh of a whole canvas per pixel call.

`DemoPlot` draws a frame (``with plot.frame(): ...``) once, when the frame's calls are done, straight onto the
canvases, and then repaints only the canvas lines that differ from the previous frame: a moved slider costs the
lines the curve or bars cross, not the widget. What did not change is not drawn again:

- a dataset equal to one of the previous frame's (same data, style, limits, canvas) is copied from the cells it
  wrote then (the dot-product curve under a moving marker, a vector that did not move);
- the decorations (the axes' box, tick marks and labels, axis labels, vertical lines) are copied from the
  previous frame, and the margins left as they are, while the limits, ticks, labels and sizes are the same.

Both are exact, not approximations: in textual-plot 0.10 a dataset's drawing only writes cells, never reads
them, and the decorations, drawn after the datasets, read only cells they wrote themselves (a tick joins the
box line under it). So each is drawn on an empty layer once, and its cells are written over the datasets as
textual-plot would; `tests/demo/test_demo_plots.py` compares every frame with a plain `PlotWidget`'s.

The legend is rebuilt (and the screen laid out again) only when its entries change. Before the canvases have
their size (the first frame, a resize), drawing is left to ``render()``, as textual-plot does it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from textual.geometry import Region
from textual_hires_canvas import Canvas
from textual_plot import PlotWidget

CANVASES = ("plot", "margin-top", "margin-left", "margin-bottom")

Writes = list[tuple[int, int, str, str]]  # (x, y, character, style) of each cell written


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


def blank_layer(canvas: Canvas) -> tuple[list, list]:
    """Swap an empty layer (every cell None) in for ``canvas``'s cells; returns its own cells."""
    cells = (canvas._buffer, canvas._styles)
    canvas._buffer = [[None] * len(row) for row in cells[0]]  # type: ignore[misc]
    canvas._styles = [[None] * len(row) for row in cells[1]]  # type: ignore[misc]
    return cells


def layer_writes(canvas: Canvas, cells: tuple[list, list]) -> Writes:
    """The cells written on the layer swapped in by `blank_layer`; ``canvas`` gets its own ``cells`` back."""
    writes = [
        (x, y, char, canvas._styles[y][x])
        for y, row in enumerate(canvas._buffer)
        for x, char in enumerate(row)
        if char is not None
    ]
    canvas._buffer, canvas._styles = cells
    return writes


def apply(canvas: Canvas, writes: Writes) -> None:
    buffer, styles = canvas._buffer, canvas._styles
    for x, y, char, style in writes:
        buffer[y][x] = char
        styles[y][x] = style


class DemoPlot(PlotWidget):
    _legend_key: tuple | None = None
    _decorations_key: tuple | None = None
    _decorations: Writes = []
    _copying_decorations = False
    _framing = False
    _plot_canvas: Canvas | None = None
    _canvases: dict[str, Canvas] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._layers: dict[tuple, Writes] = {}  # the previous frame's datasets: the cells each wrote
        self._layers_now: dict[tuple, Writes] = {}

    # --- drawing a frame once -----------------------------------------------------------------------------

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
        self._decorations_key = None  # the axes' styles may have changed
        super().notify_style_update()

    def _canvas_map(self) -> dict[str, Canvas]:
        """The plot's canvases by id (textual-plot composes them once: the plot and its three margins)."""
        found = self._canvases
        if found is None:
            found = {str(c.id): c for c in self.query(Canvas)}
            if set(found) == set(CANVASES):
                self._canvases = found
        return found

    # --- the legend ---------------------------------------------------------------------------------------

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

    # --- datasets: copied when unchanged --------------------------------------------------------------------

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
            cells = blank_layer(canvas)
            try:
                draw(dataset)
            finally:
                writes = layer_writes(canvas, cells)
        self._layers_now[key] = writes
        apply(canvas, writes)

    # --- decorations: copied while what they show is unchanged --------------------------------------------

    def _decorations_entries(self, canvases: dict[str, Canvas]) -> tuple:
        """Everything the box, ticks, labels, axis labels and vertical lines are drawn from."""
        ticks = tuple(
            None if t is None else tuple(float(v) for v in t) for t in (self._x_ticks, self._y_ticks)
        )
        return (
            (self._x_min, self._x_max, self._y_min, self._y_max),
            ticks,
            (id(self._x_formatter), id(self._y_formatter), self._x_label, self._y_label),
            (self._scale_rectangle, self.margin_left, self.margin_top, self.margin_bottom),
            tuple(c._canvas_size for c in canvases.values()),
            tuple(dataset_key(v) for v in self._v_lines),
        )

    def _render_v_line_plot(self, vline: Any) -> None:
        if not self._copying_decorations:
            super()._render_v_line_plot(vline)

    def _render_x_ticks(self) -> None:
        if not self._copying_decorations:
            super()._render_x_ticks()

    def _render_y_ticks(self) -> None:
        if not self._copying_decorations:
            super()._render_y_ticks()

    def _render_x_label(self) -> None:
        if not self._copying_decorations:
            super()._render_x_label()

    def _render_y_label(self) -> None:
        if not self._copying_decorations:
            super()._render_y_label()

    # --- one frame ------------------------------------------------------------------------------------------

    def _render_plot(self) -> None:
        canvases = self._canvas_map()
        plot = self._plot_canvas = canvases.get("plot")
        layer: list[tuple[list, list]] = []
        drawn: list[tuple] = []  # the key of the decorations drawn on the layer
        if plot is not None:
            box = plot.draw_rectangle_box

            def decorations_begin(*args: Any, **kwargs: Any) -> None:
                """The box is the first decoration, drawn when the datasets are and the limits (automatic
                ones too) are known: the decorations are copied if nothing they show changed, else drawn on
                a layer from here on."""
                key = self._decorations_entries(canvases)
                if key == self._decorations_key:
                    self._copying_decorations = True
                    return
                drawn.append(key)
                layer.append(blank_layer(plot))
                box(*args, **kwargs)

            plot.draw_rectangle_box = decorations_begin  # type: ignore[method-assign]
        before = [
            (c._canvas_size, c._buffer, c._styles) for c in canvases.values()
        ]  # reset() makes new lists
        for canvas in canvases.values():
            canvas._refreshes_pending += 1
        done = False
        try:
            super()._render_plot()
            done = True
        finally:
            self._layers, self._layers_now = self._layers_now, {}
            for canvas in canvases.values():
                canvas._refreshes_pending -= 1
            copying, self._copying_decorations = self._copying_decorations, False
            if plot is not None:
                del plot.draw_rectangle_box
                if layer:
                    self._decorations = layer_writes(plot, layer[0])
                    self._decorations_key = drawn[0] if done else None
        if plot is not None and (layer or copying):
            apply(plot, self._decorations)
        self._repaint_changed(canvases, before)

    @staticmethod
    def _repaint_changed(canvases: dict[str, Canvas], before: list) -> None:
        """Refresh each canvas's lines that differ from ``before`` (all of it when its size changed)."""
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
