"""The browser's table: a header and one line per card, drawn a line at a time (Textual's line API).

Each row's line is laid out once and kept until that row's cells, the table's width or its styles change, so
showing the browser again (/ or l, after a grade) costs the rows that changed, not every visible cell: Textual's
DataTable lays every visible cell out again each time its screen comes back, and that was most of what opening
search cost (issue 13 §2).

Which columns show at a width, and how wide each is: tui/widgets/card_table_layout.py. The cursor is a row;
enter, or a click on the highlighted row, posts `CardTable.Selected`; a click on the header posts
`CardTable.HeaderClicked` (the browser sorts by it).

Rows can be chosen for an action on several cards: space chooses or lets go the cursor's row and moves on,
shift+up/down choose the rows the cursor passes over; a chosen row shows ``●`` in the table's left margin
(not Anki's "marked" tag, which the flag column shows as ★). A
character no binding uses (Chinese typed while the table has the focus) or a paste posts `CardTable.Typed`: the
browser puts it into its search box rather than losing it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from drill.tui.widgets.card_table_layout import MARGIN, MARK, PAD, Column, column_at, column_widths

__all__ = ["CardTable", "Column"]


class CardTable(ScrollView, can_focus=True):
    """Rows keyed by card id, each a tuple of `Text` cells, one per column."""

    DEFAULT_CSS = """
    CardTable {
        background: $surface;
        color: $foreground;
        height: 1fr;
        & > .card-table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        & > .card-table--even-row {
            background: $surface-lighten-1 50%;
        }
        & > .card-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .card-table--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
    }
    """
    COMPONENT_CLASSES = {"card-table--header", "card-table--even-row", "card-table--cursor"}
    # (the chosen rows' margin takes the accent colour: $accent is read in render_lines)
    BINDINGS = [
        Binding("enter", "select", show=False),
        Binding("up", "cursor(-1)", show=False),
        Binding("down", "cursor(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("home", "first", show=False),
        Binding("end", "last", show=False),
        Binding("space", "toggle_chosen", show=False),
        Binding("shift+down", "choose_move(1)", show=False),
        Binding("shift+up", "choose_move(-1)", show=False),
    ]

    cursor_row: reactive[int] = reactive(0, repaint=False)

    class Selected(Message):
        """Enter (or a click on the highlighted row) on a row."""

        def __init__(self, table: CardTable, key: str) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> CardTable:
            return self.table

    class HeaderClicked(Message):
        """A click on a column's heading."""

        def __init__(self, table: CardTable, column: str) -> None:
            super().__init__()
            self.table = table
            self.column = column

    class ChosenChanged(Message):
        """The set of chosen rows changed (space, shift+up/down)."""

        def __init__(self, table: CardTable) -> None:
            super().__init__()
            self.table = table

    class Typed(Message):
        """Text typed (or pasted) on the table that no binding takes."""

        def __init__(self, table: CardTable, text: str) -> None:
            super().__init__()
            self.table = table
            self.text = text

    def __init__(self, columns: Sequence[Column], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.columns = tuple(columns)
        self._keys: list[str] = []
        self._index: dict[str, int] = {}
        self._cells: dict[str, tuple[Text, ...]] = {}
        # (key, parity, is cursor, is chosen) -> the row's line at the current widths and styles
        self._lines: dict[tuple[str, int, bool, bool], Strip] = {}
        self._header: Strip | None = None
        self._look: tuple = ()  # (widths, styles) the kept lines were laid out with
        self._fitted: dict[int, int] = {}  # a fit column's index -> its widest cell
        self.chosen: set[str] = set()  # rows picked for an action on several cards
        self.sorted_by: tuple[str, bool] | None = None  # (column key, descending): its heading shows ▲/▼

    # --- rows ----------------------------------------------------------------------------------------

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self._keys)

    @property
    def row_count(self) -> int:
        return len(self._keys)

    def cell(self, key: str, column: str) -> Text:
        return self._cells[key][self._column_index(column)]

    def set_rows(self, rows: Iterable[tuple[str, tuple[Text, ...]]]) -> None:
        """Show these rows, in this order; the cursor stays on its card if it is still listed."""
        selected = self.selected
        self._keys, self._cells = [], {}
        for key, cells in rows:
            self._check_cells(key, cells)
            self._keys.append(key)
            self._cells[key] = cells
        self._index = {key: i for i, key in enumerate(self._keys)}
        self._lines = {k: line for k, line in self._lines.items() if k[0] in self._cells}
        self.chosen &= set(self._cells)
        self._fit()
        self._resize_virtual()
        row = self._index.get(selected, 0) if selected is not None else 0
        self.cursor_row = min(row, max(len(self._keys) - 1, 0))
        self.refresh()

    def update_row(self, key: str, cells: tuple[Text, ...]) -> None:
        """One listed row's new cells (its line is laid out again; the others are kept)."""
        self._check_cells(key, cells)
        if key not in self._index:
            raise KeyError(key)
        self._cells[key] = cells
        self._forget(key)
        if self._fit(cells):
            self.refresh()
        self.refresh_line(self._index[key] + 1)

    def _forget(self, key: str) -> None:
        for slot in [slot for slot in self._lines if slot[0] == key]:
            del self._lines[slot]

    def _fit(self, cells: tuple[Text, ...] | None = None) -> bool:
        """The fit columns' widest cells (all rows, or grown by one row's ``cells``); True when one changed."""
        before = dict(self._fitted)
        for i, col in enumerate(self.columns):
            if not col.fit:
                continue
            rows = [cells] if cells is not None else self._cells.values()
            widest = max((row[i].cell_len for row in rows), default=0)
            self._fitted[i] = widest if cells is None else max(widest, self._fitted.get(i, 0))
        if self._fitted != before:
            self._resize_virtual()
            return True
        return False

    def set_sorted(self, column: str | None, descending: bool = False) -> None:
        """Show ▲ (or ▼) beside the heading the rows are sorted by."""
        self.sorted_by = None if column is None else (column, descending)
        self._header = None
        self.refresh_line(0)

    # --- choosing ------------------------------------------------------------------------------------

    def toggle_chosen(self, key: str, on: bool | None = None) -> None:
        on = key not in self.chosen if on is None else on
        (self.chosen.add if on else self.chosen.discard)(key)
        self._forget(key)
        self.refresh_line(self._index[key] + 1)

    def clear_chosen(self, *, announce: bool = True) -> None:
        for key in list(self.chosen):
            self.toggle_chosen(key, False)
        if announce:
            self.post_message(self.ChosenChanged(self))

    def action_toggle_chosen(self) -> None:
        if self.selected is None:
            return
        self.toggle_chosen(self.selected)
        self.post_message(self.ChosenChanged(self))
        self.cursor_row += 1

    def action_choose_move(self, step: int) -> None:
        """shift+up/down: the row left and the row reached are both chosen (a range, as in a file manager)."""
        if self.selected is None:
            return
        self.toggle_chosen(self.selected, True)
        self.cursor_row += step
        if self.selected is not None:
            self.toggle_chosen(self.selected, True)
        self.post_message(self.ChosenChanged(self))

    def on_key(self, event: events.Key) -> None:
        # ASCII letters are the browser's keys; any other character typed here is search text (Chinese).
        if event.character and event.is_printable and not event.character.isascii():
            event.stop()
            self.post_message(self.Typed(self, event.character))

    def on_paste(self, event: events.Paste) -> None:
        if event.text:
            event.stop()
            self.post_message(self.Typed(self, event.text))

    def _check_cells(self, key: str, cells: tuple[Text, ...]) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"row {key!r} has {len(cells)} cells for {len(self.columns)} columns")

    def _column_index(self, column: str) -> int:
        for i, col in enumerate(self.columns):
            if col.key == column:
                return i
        raise KeyError(column)

    # --- the cursor ----------------------------------------------------------------------------------

    @property
    def selected(self) -> str | None:
        """The card under the cursor (None when no row is listed)."""
        return self._keys[self.cursor_row] if 0 <= self.cursor_row < len(self._keys) else None

    def move_to(self, key: str) -> None:
        self.cursor_row = self._index[key]

    def validate_cursor_row(self, row: int) -> int:
        return max(0, min(row, len(self._keys) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        self.refresh_line(old + 1)
        self.refresh_line(new + 1)
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        shown = max(self.scrollable_content_region.height - 1, 1)  # rows under the header
        top = round(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False)
        elif self.cursor_row >= top + shown:
            self.scroll_to(y=self.cursor_row - shown + 1, animate=False)

    def action_cursor(self, step: int) -> None:
        self.cursor_row += step

    def action_page(self, direction: int) -> None:
        self.cursor_row += direction * max(self.scrollable_content_region.height - 1, 1)

    def action_first(self) -> None:
        self.cursor_row = 0

    def action_last(self) -> None:
        self.cursor_row = len(self._keys) - 1

    def action_select(self) -> None:
        if self.selected is not None:
            self.post_message(self.Selected(self, self.selected))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        if offset.y < 1:
            column = column_at(self.columns, self._widths(), round(self.scroll_x) + offset.x)
            if column is not None:
                self.post_message(self.HeaderClicked(self, column))
            return
        row = round(self.scroll_y) + offset.y - 1
        if row >= len(self._keys):
            return
        if row == self.cursor_row:
            self.action_select()
        else:
            self.cursor_row = row

    # --- drawing -------------------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._resize_virtual()

    def _widths(self) -> tuple[int, ...]:
        return column_widths(self.columns, self.scrollable_content_region.width - MARGIN, self._fitted)

    def _resize_virtual(self) -> None:
        width = MARGIN + sum(width + 2 * PAD for width in self._widths() if width)
        self.virtual_size = Size(width, len(self._keys) + 1)

    def render_lines(self, crop):
        widths = self._widths()
        styles = tuple(
            self.get_component_rich_style(name)
            for name in ("card-table--header", "card-table--even-row", "card-table--cursor")
        )
        look = (widths, self.rich_style, styles, Style.parse(self.app.current_theme.accent or "yellow"))
        if look != self._look:  # a new width, theme or focus: every kept line is out of date
            self._look = look
            self._lines.clear()
            self._header = None
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        scroll_x, scroll_y = round(self.scroll_x), round(self.scroll_y)
        if y == 0:
            line = self._header_line()
        else:
            row = scroll_y + y - 1
            if row >= len(self._keys):
                return Strip.blank(width, self.rich_style)
            line = self._row_line(row)
        return line.crop(scroll_x, scroll_x + width)

    def _header_line(self) -> Strip:
        if self._header is None:
            style = self._look[2][0]
            sort = self.sorted_by
            headings = tuple(
                Text(col.heading + ("" if sort is None or sort[0] != col.key else " ▼" if sort[1] else " ▲"))
                for col in self.columns
            )
            self._header = self._lay_out(headings, style)
        return self._header

    def _row_line(self, row: int) -> Strip:
        key = self._keys[row]
        cursor = row == self.cursor_row
        chosen = key in self.chosen
        slot = (key, row % 2, cursor, chosen)
        line = self._lines.get(slot)
        if line is None:
            _header, even, cursor_style = self._look[2]
            style = cursor_style if cursor else (even if row % 2 == 0 else self.rich_style)
            line = self._lines[slot] = self._lay_out(self._cells[key], style, chosen)
        return line

    def _lay_out(self, cells: tuple[Text, ...], style: Style, chosen: bool = False) -> Strip:
        widths = self._look[0]
        line = Text(no_wrap=True, end="")
        line.append(
            (MARK if chosen else " ").ljust(MARGIN), self._look[3] + Style(bold=True) if chosen else None
        )
        for cell, width in zip(cells, widths, strict=True):
            if not width:  # a column given up at this width
                continue
            piece = cell.copy()
            piece.truncate(width, overflow="ellipsis")
            piece.align(piece.justify if piece.justify in ("right", "center") else "left", width)
            line.append(" " * PAD)
            line.append_text(piece)
            line.append(" " * PAD)
        total = MARGIN + sum(width + 2 * PAD for width in widths if width)
        segments = Segment.apply_style(
            line.render(self.app.console), style
        )  # the row's style under the cells'
        return Strip(segments, line.cell_len).extend_cell_length(total, style)
