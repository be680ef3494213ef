"""The demos' plot widget: textual-plot's `PlotWidget`, redrawn per frame at the cost of what changed.

textual-plot redraws a whole plot per frame: it clears its canvases (the plot and the axes' margins) and sets
their pixels one call at a time, each call asking Textual for a refresh of the whole canvas. `DemoPlot` holds
those refreshes back while a frame is drawn, compares each canvas line with the previous frame's, and
refreshes only the lines that changed: a moved slider repaints the curve's lines, not the axes. The legend is
rebuilt (and the screen laid out again) on every `clear()`, `plot()`, `bar()` and `show_legend()`; inside
`frame()` that happens once at the end, and only when the legend's entries changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from textual.geometry import Region
from textual_hires_canvas import Canvas
from textual_plot import PlotWidget


class DemoPlot(PlotWidget):
    _legend_key: tuple | None = None
    _framing = False

    @contextmanager
    def frame(self) -> Iterator[DemoPlot]:
        """Draw a whole frame (``clear()`` and the datasets) with one legend update at the end."""
        self._framing = True
        try:
            yield self
        finally:
            self._framing = False
            self._update_legend()

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

    def _render_plot(self) -> None:
        canvases = list(self.query(Canvas))
        before = [(c._canvas_size, c._buffer, c._styles) for c in canvases]  # reset() makes new lists
        for canvas in canvases:
            canvas._refreshes_pending += 1
        try:
            super()._render_plot()
        finally:
            for canvas in canvases:
                canvas._refreshes_pending -= 1
        for canvas, (size, buffer, styles) in zip(canvases, before, strict=True):
            if canvas._canvas_size != size or len(canvas._buffer) != len(buffer):
                canvas.refresh()
                continue
            width = size.width if size else 0
            for y, (line, style) in enumerate(zip(canvas._buffer, canvas._styles, strict=True)):
                if line != buffer[y] or style != styles[y]:
                    canvas.refresh(Region(0, y, width, 1))
