"""The demos' plot widget: textual-plot's `PlotWidget`, redrawn per frame at the cost of what changed.

textual-plot (pinned in pyproject) draws a plot inside ``render()``: every change (``clear()``, ``plot()``,
``set_xlimits()`` ...) asks Textual to repaint the whole widget, and the next frame clears the canvases (the
plot and the axes' margins) and sets their pixels again, one refresh of a whole canvas per pixel call.
`DemoPlot` draws a frame (``with plot.frame(): ...``) once, when the frame's calls are done, straight onto the
canvases, and then repaints only the canvas lines that differ from the previous frame: a moved slider costs the
lines the curve or bars cross, not the widget. The margins (tick labels, axis labels) are drawn again only when
what they show changed (limits, ticks, labels, sizes). The legend is rebuilt (and the screen laid out again)
only when its entries change. Before the canvases have their size (the first frame, a resize), drawing is left
to ``render()``, as textual-plot does it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from textual.geometry import Region
from textual_hires_canvas import Canvas
from textual_plot import PlotWidget

MARGINS = ("margin-top", "margin-left", "margin-bottom")


def _keep(*args: object, **kwargs: object) -> None:
    """Stands in for a margin canvas's ``reset`` and ``write_text`` while its text is unchanged."""


class DemoPlot(PlotWidget):
    _legend_key: tuple | None = None
    _margins_key: tuple | None = None
    _framing = False

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
            not c.size.area or c._canvas_size != c.size for c in self.query(Canvas)
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

    def _render_plot(self) -> None:
        canvases = {str(c.id): c for c in self.query(Canvas)}
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
            for y, (line, style) in enumerate(zip(canvas._buffer, canvas._styles, strict=True)):
                if line != buffer[y] or style != styles[y]:
                    canvas.refresh(Region(0, y, width, 1))
