"""Attention matrices as heatmaps with their numbers: every cell shows its value and is shaded by it.

Two forms, one look: `heatmap_table(values, ...)` is a Rich table (for printing and plain-text tests), and
the `Heatmap` widget draws the same cells line by line and, when `show()` is given new values of the same
shape and labels, repaints only the cells whose text or shade changed (a moved slider costs a few cells, not
a table). `HeatmapSpec` is a heatmap as data, for views that list their parts (the demo screen).

The widget's API (used by the demo screen, the calc screen and the study side pane):

    Heatmap(values=None, *, id=None, classes=None, **options)   # options: those of heatmap_table
    heatmap.show(values, **options)     # new values; options given replace the previous ones
    heatmap.values                      # the matrix shown, as lists of floats
    heatmap.cell_text(row, col)         # the number shown in a cell, 0-based
    heatmap.last_changed                # the cells the last show() repainted; None after a full rebuild
    heatmap.renderable()                # the same heatmap as heatmap_table (plain-text reading)

Rows and columns carry the chapter's 1-based names (tokens, or 1, 2, 3...). Shading is a background colour
given as truecolor; Rich and Textual reduce it to the terminal's 256 or 16 colours themselves, and the text
colour (black or white) is picked for contrast, so a cell stays legible at any depth. Under ``NO_COLOR``
(https://no-color.org: set and not empty) the shade is carried by a character before each number instead:
`` ``, ``░``, ``▒``, ``▓``, ``█`` from lowest to highest. −∞ cells (a mask) are never shaded.

Takes anything array-like (numpy arrays or nested lists); numpy is not imported here.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len
from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from drill.engine.notation import number_format
from drill.tui.text import visible

SHADES = " ░▒▓█"  # NO_COLOR: low → high
# Low → high: a pale paper colour to a deep blue (legible numbers on both ends, distinct in 256 colours).
LOW = (247, 247, 240)
HIGH = (8, 64, 160)


def no_color_requested(environ: dict[str, str] | None = None) -> bool:
    """NO_COLOR set to a non-empty value (the convention at no-color.org)."""
    env = os.environ if environ is None else environ
    return bool(env.get("NO_COLOR"))


def _rows(values: Any) -> list[list[float]]:
    data = values.tolist() if hasattr(values, "tolist") else values
    if not isinstance(data, list | tuple) or not data:
        raise ValueError("a heatmap needs a non-empty matrix")
    if not isinstance(data[0], list | tuple):  # a vector: one row
        data = [data]
    rows = [[float(v) for v in row] for row in data]
    if any(len(row) != len(rows[0]) for row in rows):
        raise ValueError("a heatmap needs rows of one length")
    return rows


def level(value: float, low: float, high: float) -> float | None:
    """Where ``value`` lies between ``low`` and ``high``, 0..1; None for a non-finite value (no shade)."""
    if not math.isfinite(value):
        return None
    if high <= low:
        return 1.0 if value > 0 else 0.0
    return min(1.0, max(0.0, (value - low) / (high - low)))


def shade_char(fraction: float | None) -> str:
    if fraction is None:
        return " "
    return SHADES[min(len(SHADES) - 1, int(fraction * len(SHADES)))]


def cell_style(fraction: float | None) -> Style:
    if fraction is None:
        return Style(dim=True)
    rgb = tuple(round(lo + (hi - lo) * fraction) for lo, hi in zip(LOW, HIGH, strict=True))
    luminance = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    text = Color.from_rgb(0, 0, 0) if luminance > 140 else Color.from_rgb(255, 255, 255)
    return Style(bgcolor=Color.from_rgb(*rgb), color=text)


def value_range(rows: list[list[float]], scale: tuple[float, float] | None) -> tuple[float, float]:
    """The shading's ends: ``scale`` if given; else 0..1 for weights (every finite value in [0, 1]);
    else the finite minimum and maximum."""
    if scale is not None:
        return scale
    finite = [v for row in rows for v in row if math.isfinite(v)]
    if not finite:
        return (0.0, 1.0)
    low, high = min(finite), max(finite)
    if low >= 0.0 and high <= 1.0:
        return (0.0, 1.0)
    return (low, high)


def heatmap_table(
    values: Any,
    *,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    decimals: int = 3,
    title: str | None = None,
    scale: tuple[float, float] | None = None,
    no_color: bool | None = None,
    highlight_row: int | None = None,
) -> Table:
    """A Rich table: a header row of column names, a column of row names, each cell its number, shaded.

    Labels default to 1, 2, 3... (the chapter counts from 1). ``no_color`` None reads ``NO_COLOR``.
    ``highlight_row`` marks one row's name (the selected query)."""
    rows = _rows(values)
    chars = no_color_requested() if no_color is None else no_color
    low, high = value_range(rows, scale)
    n_rows, n_cols = len(rows), len(rows[0])
    row_names = list(row_labels) if row_labels is not None else [str(i + 1) for i in range(n_rows)]
    col_names = list(col_labels) if col_labels is not None else [str(j + 1) for j in range(n_cols)]
    if len(row_names) != n_rows or len(col_names) != n_cols:
        raise ValueError(f"labels {len(row_names)}×{len(col_names)} for a {n_rows}×{n_cols} matrix")
    table = Table(
        title=Text(title, style="bold") if title else None,
        title_justify="left",
        box=None,
        pad_edge=False,
        padding=(0, 0),
        collapse_padding=True,
        show_header=True,
        header_style="bold",
    )
    fmt = number_format(rows, decimals)  # the matrix is written by its own numbers (drill.engine.notation)
    table.add_column(Text(""), justify="right", no_wrap=True)
    for name in col_names:
        table.add_column(Text(f" {visible(name)} "), justify="center", no_wrap=True)  # names never touch
    for r, row in enumerate(rows):
        marker = "▶" if highlight_row == r else ""
        name = Text(f"{marker}{visible(row_names[r])} ", style="bold" if highlight_row == r else "")
        cells = []
        for value in row:
            fraction = level(value, low, high)
            number = fmt(value)
            if chars:
                cells.append(Text(f" {shade_char(fraction)}{number} "))
            else:
                cells.append(Text(f" {number} ", style=cell_style(fraction)))
        table.add_row(name, *cells)
    return table


@dataclass(frozen=True, eq=False)
class HeatmapSpec:
    """A heatmap as data: ``values`` and `heatmap_table`'s options. A demo's view lists these among its parts;
    the screen shows each in a `Heatmap` widget and updates it in place."""

    values: Any
    options: dict[str, Any] = field(default_factory=dict)

    def renderable(self) -> Table:
        return heatmap_table(self.values, **self.options)

    def __rich__(self) -> Table:  # a part of a demo's Group like any other renderable (printed: its table)
        return self.renderable()


def heatmap(values: Any, **options: Any) -> HeatmapSpec:
    """`HeatmapSpec(values, options)`: the heatmap a view wants shown."""
    return HeatmapSpec(values, options)


def _auto(scalar: Any) -> bool:
    """Whether a CSS width or height follows the content (auto, or not set)."""
    return scalar is None or scalar.is_auto


@dataclass(frozen=True)
class _Cells:
    """What the widget draws: names, each cell's text and style, and the column geometry."""

    title: str | None
    row_names: tuple[str, ...]
    col_names: tuple[str, ...]
    highlight_row: int | None
    cells: tuple[tuple[tuple[str, Style], ...], ...]
    label_width: int
    widths: tuple[int, ...]

    def geometry(self) -> tuple:
        return (self.title, self.row_names, self.col_names, self.highlight_row, self.label_width, self.widths)

    def size(self) -> tuple[int, int]:
        width = self.label_width + sum(self.widths)
        if self.title:
            width = max(width, cell_len(self.title))
        return (width, self.top + len(self.cells))

    @property
    def top(self) -> int:
        """The line of the first matrix row (after the title and the header)."""
        return 2 if self.title else 1

    def x_of(self, col: int) -> int:
        return self.label_width + sum(self.widths[:col])


def _cells(values: list[list[float]], options: dict[str, Any]) -> _Cells:
    decimals = options.get("decimals", 3)
    no_color = options.get("no_color")
    chars = no_color_requested() if no_color is None else no_color
    low, high = value_range(values, options.get("scale"))
    n_rows, n_cols = len(values), len(values[0])
    row_labels, col_labels = options.get("row_labels"), options.get("col_labels")
    row_names = (
        tuple(visible(n) for n in row_labels)
        if row_labels is not None
        else tuple(str(i + 1) for i in range(n_rows))
    )
    col_names = (
        tuple(visible(n) for n in col_labels)
        if col_labels is not None
        else tuple(str(j + 1) for j in range(n_cols))
    )
    if len(row_names) != n_rows or len(col_names) != n_cols:
        raise ValueError(f"labels {len(row_names)}×{len(col_names)} for a {n_rows}×{n_cols} matrix")
    highlight = options.get("highlight_row")
    fmt = number_format(values, decimals)
    cells = []
    for row in values:
        out = []
        for value in row:
            fraction = level(value, low, high)
            number = fmt(value)
            if chars:
                out.append((f" {shade_char(fraction)}{number} ", Style()))
            else:
                out.append((f" {number} ", cell_style(fraction)))
        cells.append(tuple(out))
    widths = tuple(
        max([cell_len(col_names[c]) + 2] + [cell_len(cells[r][c][0]) for r in range(n_rows)])
        for c in range(n_cols)
    )
    label_width = max(
        cell_len(("▶" if highlight == r else "") + name) + 1 for r, name in enumerate(row_names)
    )
    return _Cells(options.get("title"), row_names, col_names, highlight, tuple(cells), label_width, widths)


def _centred(text: str, width: int) -> tuple[str, str, str]:
    """Left padding, text, right padding: centred as Rich centres (the odd space on the right)."""
    spare = width - cell_len(text)
    return " " * (spare // 2), text, " " * (spare - spare // 2)


class Heatmap(Widget):
    """A heatmap widget (see the module's docstring for its API). Its size is the matrix's: it never wraps,
    and a new value of the same shape and labels repaints only the cells that changed."""

    DEFAULT_CSS = """
    Heatmap { width: auto; height: auto; }
    """

    def __init__(
        self, values: Any = None, *, id: str | None = None, classes: str | None = None, **options: Any
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.values: list[list[float]] | None = None
        self.last_changed: tuple[tuple[int, int], ...] | None = None
        self._options: dict[str, Any] = options
        self._drawn: _Cells | None = None
        self._strips: dict[int, Strip] = {}
        if values is not None:
            self.show(values, **options)

    def show(self, values: Any, **options: Any) -> None:
        """Show ``values`` with ``options`` (heatmap_table's): the previous ones are replaced, never kept (a view
        that moves from a titled matrix to an untitled one in the same place shows no stale title)."""
        rows = _rows(values)
        self._options = options
        new = _cells(rows, self._options)
        old, self._drawn, self.values = self._drawn, new, rows
        if old is None or old.geometry() != new.geometry() or len(old.cells) != len(new.cells):
            # names, title or shape changed: repaint it all, and lay the screen out again only if the size it
            # takes did (a width set by CSS, not auto, does not follow a wider number)
            self.last_changed = None
            self._strips.clear()
            self.refresh(layout=self._resized(old, new))
            return
        changed = tuple(
            (r, c)
            for r, (before, after) in enumerate(zip(old.cells, new.cells, strict=True))
            for c in range(len(after))
            if before[c] != after[c]
        )
        self.last_changed = changed
        for r, c in changed:
            y = new.top + r
            self._strips.pop(y, None)
            self.refresh(Region(new.x_of(c), y, new.widths[c], 1))

    def _resized(self, old: _Cells | None, new: _Cells) -> bool:
        if old is None:
            return True
        (old_width, old_height), (width, height) = old.size(), new.size()
        return (old_height != height and _auto(self.styles.height)) or (
            old_width != width and _auto(self.styles.width)
        )

    def cell_text(self, row: int, col: int) -> str:
        assert self._drawn is not None, "nothing shown yet"
        return self._drawn.cells[row][col][0].strip(" " + SHADES)

    def renderable(self) -> Table:
        assert self.values is not None, "nothing shown yet"
        return heatmap_table(self.values, **self._options)

    # --- drawing (Textual's line API) -------------------------------------------------------------------

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return 0 if self._drawn is None else self._drawn.size()[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 0 if self._drawn is None else self._drawn.size()[1]

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        strip = self._strips.get(y)
        if strip is None or strip.cell_length != width:
            strip = self._strips[y] = self._line(y).crop_extend(0, width, self.rich_style)
        return strip

    def _line(self, y: int) -> Strip:
        drawn = self._drawn
        if drawn is None:
            return Strip.blank(0)
        base = self.rich_style
        bold = base + Style(bold=True)
        if drawn.title and y == 0:
            return Strip([Segment(drawn.title, bold)])
        row = y - drawn.top
        if row == -1:  # the header: the columns' names
            segments = [Segment(" " * drawn.label_width, base)]
            for name, width in zip(drawn.col_names, drawn.widths, strict=True):
                left, text, right = _centred(name, width)
                segments += [Segment(left, base), Segment(text, bold), Segment(right, base)]
            return Strip(segments)
        if not 0 <= row < len(drawn.cells):
            return Strip.blank(0)
        marked = drawn.highlight_row == row
        name = ("▶" if marked else "") + drawn.row_names[row] + " "
        segments = [Segment(" " * (drawn.label_width - cell_len(name)) + name, bold if marked else base)]
        for (text, style), width in zip(drawn.cells[row], drawn.widths, strict=True):
            left, middle, right = _centred(text, width)
            cell = base + style
            segments += [Segment(left, cell), Segment(middle, cell), Segment(right, cell)]
        return Strip(segments)
