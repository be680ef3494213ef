"""Matrices as Rich tables: every number shown, rows and columns labelled, shapes stated.

Shared by the study side pane and the calc screen. Takes anything array-like (numpy arrays or nested lists);
numpy is not imported here. Rows and columns are numbered from 1, as the chapter counts (A₁₂ is row 1,
column 2); indices in code stay 0-based.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from drill.engine.notation import number_format


def _as_lists(array: Any) -> Any:
    return array.tolist() if hasattr(array, "tolist") else array


def _depth(value: object) -> int:
    depth = 0
    while isinstance(value, list | tuple):
        depth += 1
        value = value[0] if value else None
    return depth


def matrix_table(
    array: Any,
    *,
    title: str | None = None,
    row_labels: list[str] | None = None,
    col_labels: list[str] | None = None,
    decimals: int = 3,
) -> RenderableType:
    """A Rich table of a scalar, vector or matrix; higher ranks become one table per leading index."""
    values = _as_lists(array)
    depth = _depth(values)
    if depth == 0:
        table = Table(title=title, show_header=False, box=None)
        table.add_column(justify="right")
        table.add_row(number_format(values, decimals)(values))
        return table
    if depth == 1:
        values = [values]
        row_labels = row_labels or [""]
    if depth > 2:
        parts = []
        for index, sub in enumerate(values):
            sub_title = f"{title or ''}[{index + 1}]"
            parts.append(
                matrix_table(
                    sub, title=sub_title, row_labels=row_labels, col_labels=col_labels, decimals=decimals
                )
            )
        return Group(*parts)
    rows = len(values)
    cols = len(values[0]) if rows else 0
    table = Table(
        title=Text(title) if title else None,
        title_justify="left",
        show_lines=False,
        header_style="bold",
        pad_edge=False,
    )
    table.add_column("", style="bold", justify="right")
    labels = col_labels or [str(c + 1) for c in range(cols)]
    for label in labels:
        table.add_column(Text(label), justify="right")
    fmt = number_format(values, decimals)  # the matrix is written by its own numbers (drill.engine.notation)
    for r, row in enumerate(values):
        label = (row_labels or [str(i + 1) for i in range(rows)])[r]
        table.add_row(Text(label), *(Text(fmt(v)) for v in row))
    return table
