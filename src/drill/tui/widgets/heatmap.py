"""Attention matrices as heatmaps with their numbers: every cell shows its value and is shaded by it.

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
from typing import Any

from rich.color import Color
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from drill.tui.text import visible
from drill.tui.widgets.matrix import format_number

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
    table.add_column(Text(""), justify="right", no_wrap=True)
    for name in col_names:
        table.add_column(Text(visible(name)), justify="center", no_wrap=True)
    for r, row in enumerate(rows):
        marker = "▶" if highlight_row == r else ""
        name = Text(f"{marker}{visible(row_names[r])} ", style="bold" if highlight_row == r else "")
        cells = []
        for value in row:
            fraction = level(value, low, high)
            number = format_number(value, decimals)
            if chars:
                cells.append(Text(f" {shade_char(fraction)}{number} "))
            else:
                cells.append(Text(f" {number} ", style=cell_style(fraction)))
        table.add_row(name, *cells)
    return table


class Heatmap(Static):
    """A heatmap widget: `show(values, ...)` takes `heatmap_table`'s arguments; ``values`` keeps the matrix
    shown (tests read it back)."""

    DEFAULT_CSS = """
    Heatmap { width: auto; height: auto; }
    """

    def __init__(self, values: Any = None, *, id: str | None = None, classes: str | None = None, **options):
        super().__init__(id=id, classes=classes)
        self.values: list[list[float]] | None = None
        self._options = options
        if values is not None:
            self.show(values, **options)

    def show(self, values: Any, **options: Any) -> None:
        self.values = _rows(values)
        self._options = options or self._options
        self.update(heatmap_table(self.values, **self._options))
