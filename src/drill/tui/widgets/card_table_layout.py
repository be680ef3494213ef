"""The browser table's column layout (tui/widgets/card_table.py draws the rows): which columns show at a width,
and how wide each is.

Columns have fixed widths (widened to their heading's) but one (width ``None``), which takes what is left of
the table's width (at least ``FLEX_MIN``). When the table is too narrow for them all, the columns with a ``drop``
rank give way, highest first, so the flexible one (the question) stays on screen at 80 columns. A column with
``fit`` is as wide as its widest cell, up to ``fit`` (an id or a state with its flags is not cut at a width
chosen for most of them); a ``whole`` one (the id) narrows back only once every other column gave way, and a
column with a ``least`` width (the section) narrows to it before it goes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from rich.cells import cell_len

FLEX_MIN = 20  # the flexible column's narrowest width
LAST_RESORT = 1  # a column of this drop rank goes only after the fit columns gave their extra width back
FLEX_WANT = 28  # the flexible column's width that whole ids and states (fit columns) leave it
PAD = 1  # blank cells on each side of a column
MARGIN = 2  # the table's left margin: "●" on a chosen row
MARK = "●"


class Column(NamedTuple):
    key: str
    heading: str  # as shown (already translated)
    width: int | None  # None: what is left
    drop: int = 0  # 0: always shown; else given up when too narrow, the highest rank first
    fit: int = 0  # > 0: as wide as the widest cell (at least ``width``), at most this wide
    least: int = 0  # > 0 (a column with a drop rank): narrows to this, cut with "…", before it is given up
    whole: bool = False  # a fit column narrowed back only after every other column gave way (ids)


def column_widths(columns: Sequence[Column], room: int, fitted: Mapping[int, int]) -> tuple[int, ...]:
    """Each column's width, 0 for one given up. A column is as wide as asked and at least as wide as its
    heading (a heading is never cut, in any language); a fit column as its widest cell (up to ``fit``) while
    there is room, narrowing back when there is not; the flexible one takes what is left. ``room``: the
    table's width less its margin; ``fitted``: a fit column's index -> its widest cell."""
    base = [
        None if col.width is None else max(col.width, cell_len(col.heading) + 2)  # + the sort mark
        for col in columns
    ]
    fixed = [
        width if width is None or not col.fit else max(width, min(col.fit, fitted.get(i, 0)))
        for i, (col, width) in enumerate(zip(columns, base, strict=True))
    ]
    shown = set(range(len(columns)))
    droppable = sorted((col.drop, i) for i, col in enumerate(columns) if col.drop)

    def used(flex: int = FLEX_MIN) -> int:
        return sum((fixed[i] or flex) + 2 * PAD for i in shown)

    def narrow_back(columns, flex: int) -> None:
        for i in sorted(columns, key=lambda i: (base[i] or 0) - (fixed[i] or 0)):  # the most grown first
            grown = (fixed[i] or 0) - (base[i] or 0)
            if used(flex) <= room:
                break
            if grown > 0:
                fixed[i] = (fixed[i] or 0) - min(grown, used(flex) - room)

    # Columns given up (by rank, down to rank 2) until the question has FLEX_WANT beside whole ids and
    # states (FLEX_MIN when no fit column needs more than its own width) ...
    want = FLEX_WANT if fixed != base else FLEX_MIN
    while used(want) > room and droppable and droppable[-1][0] > LAST_RESORT:
        shown.discard(droppable.pop()[1])
    # ... then the fit columns but the whole ones (ids) narrow back towards their own width ...
    narrow_back([i for i in shown if not columns[i].whole], want)
    # ... the columns with a least width narrow towards it (the question keeps FLEX_WANT) ...
    for i in sorted(shown, key=lambda i: -columns[i].drop):
        least, width = columns[i].least, fixed[i]
        if least and width is not None and used(want) > room:
            fixed[i] = max(least, width - (used(want) - room))
    # ... only then the rank-1 columns go, and last the whole ones narrow.
    while used() > room and droppable:
        shown.discard(droppable.pop()[1])
    narrow_back([i for i in shown if columns[i].whole], FLEX_MIN)
    flex = max(room - used() + FLEX_MIN, FLEX_MIN)
    return tuple(0 if i not in shown else flex if width is None else width for i, width in enumerate(fixed))


def column_at(columns: Sequence[Column], widths: Sequence[int], x: int) -> str | None:
    """The key of the column at ``x`` cells from the table's left edge (None: the margin, or past the last)."""
    left = MARGIN
    for col, width in zip(columns, widths, strict=True):
        if width and left <= x < left + width + 2 * PAD:
            return col.key
        left += width + 2 * PAD if width else 0
    return None
