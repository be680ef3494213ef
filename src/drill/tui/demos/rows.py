"""Named numbers one per line, in columns: the tables of the slider and vector demos."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text

from drill.engine.notation import number_format


def row_table(rows: list[tuple[str, Any]], decimals: int = 3) -> Text:
    """Named vectors or scalars, one per line: the names left-aligned, the numbers right-aligned in columns
    two spaces apart. Plain text laid out here (not a Rich table), so an unchanged table compares equal and a
    changed one costs a line of text to draw."""
    cells = [  # each named row written by its own numbers, as every matrix is (drill.engine.notation)
        [number_format(value, decimals)(v) for v in value]
        if getattr(value, "ndim", 0)
        else [number_format(value, decimals)(value)]
        for _name, value in rows
    ]
    name_width = max(cell_len(name) for name, _value in rows)
    widths = [
        max(len(row[c]) for row in cells if c < len(row)) for c in range(max(len(row) for row in cells))
    ]
    out = Text()
    for i, ((name, _value), numbers) in enumerate(zip(rows, cells, strict=True)):
        if i:
            out.append("\n")
        out.append(name + " " * (name_width - cell_len(name)), style="bold")
        out.append("".join("  " + number.rjust(widths[c]) for c, number in enumerate(numbers)))
    return out
