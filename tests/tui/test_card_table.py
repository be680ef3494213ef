"""The browser's table (drill.tui.widgets.card_table): columns laid out by display width, the cursor and its
keys, selection, and lines kept between two showings but the rows that changed."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Label

from drill.tui.widgets.card_table import CardTable
from drill.tui.widgets.card_table_layout import FLEX_MIN, MARGIN, PAD, Column
from tests.tui.conftest import wait_until

COLUMNS = [Column("id", "id", 6), Column("n", "n", 4), Column("text", "text", None)]


def cells(i: int, text: str | None = None) -> tuple[Text, ...]:
    return (Text(f"r{i:02d}"), Text(str(i), justify="right"), Text(text or f"第 {i} 行 row {i}"))


ROWS = [(f"r{i:02d}", cells(i)) for i in range(60)]


class TableScreen(Screen):
    def compose(self) -> ComposeResult:
        yield CardTable(COLUMNS)


class Other(Screen):
    def compose(self) -> ComposeResult:
        yield Label("elsewhere")


class TableApp(App):
    def __init__(self) -> None:
        super().__init__()
        self.selected: list[str] = []

    def on_mount(self) -> None:
        self.install_screen(TableScreen(), "table")
        self.push_screen("table")

    def on_card_table_selected(self, event: CardTable.Selected) -> None:
        self.selected.append(event.key)


def table_of(app: App) -> CardTable:
    return app.screen.query_one(CardTable)


def lines(table: CardTable) -> list[str]:
    return [table.render_line(y).text for y in range(table.scrollable_content_region.height)]


async def shown(pilot, rows=ROWS) -> CardTable:
    await wait_until(pilot, lambda: bool(pilot.app.screen.query(CardTable)))
    table = table_of(pilot.app)
    table.set_rows(rows)
    table.focus()
    await pilot.pause()
    return table


async def test_columns_fill_the_width_by_display_cells():
    app = TableApp()
    async with app.run_test(size=(50, 12)) as pilot:
        long = "为什么除 √d_k？" * 5  # wider than what is left for it
        table = await shown(pilot, [("a", cells(1, long)), ("b", cells(22, "short"))])
        width = table.scrollable_content_region.width
        flex = width - MARGIN - (6 + 4) - 2 * PAD * 3
        assert flex >= FLEX_MIN
        header, first, second = lines(table)[:3]
        assert header.split() == ["id", "n", "text"]
        for line in (header, first, second):
            assert cell_len(line) == width
        # Each column starts where the one before ends, whatever the script: ids, right-aligned numbers, text.
        # (after the table's margin, where a marked row shows ●)
        assert first.startswith(" " * MARGIN + " r01    ") and second.startswith(" " * MARGIN + " r22    ")
        at = MARGIN + 1 + 6 + 2
        assert first[at : at + 4] == "   1" and second[at : at + 4] == "  22"
        text = first[at + 4 + 2 :]
        assert cell_len(text) == flex + PAD and text.rstrip().endswith("…")
        assert text.startswith(long[:5])


async def test_a_column_is_never_narrower_than_its_heading():
    class Wide(TableScreen):
        def compose(self) -> ComposeResult:
            yield CardTable(
                [Column("id", "编号", 2), Column("lapses", "遗忘次数", 6), Column("text", "问题", None)]
            )

    app = TableApp()
    async with app.run_test(size=(60, 10)) as pilot:
        app.push_screen(Wide())
        await wait_until(pilot, lambda: isinstance(app.screen, Wide) and bool(app.screen.query(CardTable)))
        table = app.screen.query_one(CardTable)
        table.set_rows([("a", (Text("q100000"), Text("3", justify="right"), Text("x")))])
        await pilot.pause()
        header, row = lines(table)[:2]
        assert header.split() == ["编号", "遗忘次数", "问题"]
        # the id column is 6 cells (its heading's 4 and room for the sort mark ▲), not 2
        assert row.split() == ["q1000…", "3", "x"]
        assert cell_len(header[: header.index("遗忘次数")]) == MARGIN + PAD + 6 + 2 * PAD


@pytest.mark.parametrize(
    ("width", "heads"), [(70, ["id", "a", "b", "text"]), (45, ["id", "b", "text"]), (32, ["id", "text"])]
)
async def test_a_narrow_table_gives_up_columns_by_rank_before_the_flexible_one(width, heads):
    columns = [
        Column("id", "id", 4),
        Column("a", "a", 10, drop=2),
        Column("b", "b", 10, drop=1),
        Column("text", "text", None),
    ]

    class Ranked(TableScreen):
        def compose(self) -> ComposeResult:
            yield CardTable(columns)

    app = TableApp()
    async with app.run_test(size=(width, 8)) as pilot:
        app.push_screen(Ranked())
        await wait_until(pilot, lambda: isinstance(app.screen, Ranked) and bool(app.screen.query(CardTable)))
        table = app.screen.query_one(CardTable)
        table.set_rows([("k", (Text("k1"), Text("A"), Text("B"), Text("the question")))])
        await pilot.pause()
        header, first = lines(table)[:2]
        assert header.split() == heads
        assert "the question" in first and cell_len(first) == width
        assert table.cell("k", "a").plain == "A"  # a column given up keeps its cells


async def test_keys_move_the_cursor_and_the_view_follows():
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = await shown(pilot)
        shown_rows = table.scrollable_content_region.height - 1  # under the header
        assert table.selected == "r00"
        await pilot.press("down", "down")
        assert table.selected == "r02"
        await pilot.press("up", "up", "up")
        assert table.selected == "r00"  # stops at the first row
        await pilot.press("pagedown")
        assert table.cursor_row == shown_rows
        await pilot.press("end")
        assert table.selected == "r59"
        await pilot.pause()
        top = round(table.scroll_y)
        assert top <= table.cursor_row < top + shown_rows
        assert lines(table)[-1].split()[0] == "r59"  # the last row is drawn on the last line
        await pilot.press("down")
        assert table.selected == "r59"
        await pilot.press("home")
        await pilot.pause()
        assert table.selected == "r00" and round(table.scroll_y) == 0
        assert lines(table)[0].split() == ["id", "n", "text"]  # the header stays on top


async def test_enter_and_a_click_on_the_highlighted_row_select_it():
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = await shown(pilot)
        await pilot.press("down", "enter")
        assert app.selected == ["r01"]
        await pilot.click(CardTable, offset=(3, 4))  # line 4: the header, then r00..r02 -> r03
        assert table.selected == "r03" and app.selected == ["r01"]  # a first click moves the cursor
        await pilot.click(CardTable, offset=(3, 4))
        assert app.selected == ["r01", "r03"]  # a click on the highlighted row selects it
        await pilot.click(CardTable, offset=(3, 0))  # the header: nothing
        assert table.selected == "r03" and app.selected == ["r01", "r03"]


async def test_new_rows_keep_the_cursor_on_its_card():
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = await shown(pilot)
        table.move_to("r07")
        table.set_rows([row for row in ROWS if row[0] in {"r03", "r07", "r09"}])
        assert table.keys == ("r03", "r07", "r09") and table.selected == "r07"
        table.set_rows([row for row in ROWS if row[0] in {"r03", "r09"}])
        assert table.selected == "r03"
        table.set_rows([])
        assert table.selected is None and table.row_count == 0
        await pilot.press("down", "enter")
        assert app.selected == []


async def test_showing_the_table_again_lays_out_only_the_rows_that_changed(monkeypatch):
    app = TableApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = await shown(pilot)
        laid_out: list[str] = []
        real = CardTable._lay_out

        def counting(self, row_cells, style, marked=False):
            laid_out.append(row_cells[0].plain)
            return real(self, row_cells, style, marked)

        monkeypatch.setattr(CardTable, "_lay_out", counting)
        app.push_screen(Other())
        await wait_until(pilot, lambda: isinstance(app.screen, Other))
        table.update_row("r02", cells(2, "changed"))
        app.pop_screen()
        await wait_until(
            pilot, lambda: app.screen.query(CardTable) and lines(table)[3].split()[2] == "changed"
        )
        await pilot.pause()
        assert laid_out == ["r02"]
        # A new width lays every shown row out again, at that width.
        laid_out.clear()
        await pilot.resize_terminal(50, 12)
        await wait_until(pilot, lambda: len(laid_out) >= 10)
        width = table.scrollable_content_region.width
        assert width > 40 - 2 and all(cell_len(line) == width for line in lines(table))
