"""A Rich renderable that lays its contents out once per width and replays the lines after.

Rich tables are measured and laid out on every render, and Textual renders a Static's content twice per
update (once to find its height, once to paint it). The study pane shows the same few step tables again and
again, one after each grade; replaying their lines makes that update a copy instead of a table layout
(~20 ms of the grade → next card round trip on a 120-column terminal).
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment


class RenderedOnce:
    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable
        self._lines: dict[tuple, list[list[Segment]]] = {}
        self._measures: dict[tuple[int, int], Measurement] = {}

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # Everything the layout of the contents depends on; the height only crops, and the caller crops too.
        key = (
            options.max_width,
            options.min_width,
            options.justify,
            options.overflow,
            options.no_wrap,
            options.highlight,
            options.markup,
        )
        lines = self._lines.get(key)
        if lines is None:
            lines = self._lines[key] = console.render_lines(
                self.renderable, options.update(height=None), pad=False, new_lines=True
            )
        for line in lines:
            yield from line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        key = (options.min_width, options.max_width)
        measure = self._measures.get(key)
        if measure is None:
            measure = self._measures[key] = Measurement.get(console, options, self.renderable)
        return measure
