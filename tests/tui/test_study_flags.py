"""Anki's flags and mark (issue 28): ctrl+1 … ctrl+7 flag the card in study (the same key again, or ctrl+0,
removes it), * marks or unmarks it; the header shows them, undo takes them back, help and the palette list the
keys; the browser shows them in a column, finds them with ``flag:N`` / ``tag:marked`` or the state filter, and
has the same keys for the selected card."""

from __future__ import annotations

from textual.widgets import Input, Select

from drill.i18n import set_language
from drill.tui.keys import help_rows, palette_rows
from drill.tui.screens.study import StudyScreen
from drill.tui.widgets.card_table import CardTable
from drill.tui.widgets.header import StudyHeader
from tests.helpers import plain
from tests.tui.conftest import NOW, card_shown, wait_until
from tests.tui.test_browser import open_browser, row_ids
from tests.tui.test_browser_actions import _select, _status


def _header(app) -> str:
    return plain(app.mode_screen.query_one(StudyHeader))


def test_help_and_the_palette_list_the_flag_and_mark_keys():
    set_language("en")
    screen = StudyScreen.__new__(StudyScreen)
    rows = dict(help_rows(screen))
    assert rows["ctrl+1"].startswith("Flag red — ") and rows["ctrl+7"].startswith("Flag purple")
    assert rows["ctrl+0"] == "Remove the flag"
    assert rows["*"].startswith("Mark")
    titles = {title for title, _help, _action in palette_rows(screen)}
    assert {"Study: Flag green", "Study: Mark", "Study: Remove the flag"} <= titles
    set_language("zh_CN")
    try:
        assert not dict(help_rows(screen))["ctrl+1"].startswith("Flag")
    finally:
        set_language("en")


async def test_flag_keys_and_mark_in_study_with_undo(study_app, store):
    app = study_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        card = screen.card.id

        def marks():
            return store.card_marks(card)

        assert "⚑" not in _header(app) and "★" not in _header(app)
        await pilot.press("ctrl+3")
        await wait_until(pilot, lambda: marks() == (3, False))
        await wait_until(pilot, lambda: "⚑ green" in _header(app))
        await pilot.press("ctrl+3")  # the same key again: no flag
        await wait_until(pilot, lambda: marks() == (0, False) and "⚑" not in _header(app))
        await pilot.press("ctrl+5")
        await wait_until(pilot, lambda: marks() == (5, False))
        await pilot.press("asterisk")
        await wait_until(pilot, lambda: marks() == (5, True))
        await wait_until(pilot, lambda: "⚑ pink ★ marked" in _header(app))
        assert screen.card.id == card  # the card stays on screen (Anki's flags do not move on)
        await pilot.press("ctrl+0")
        await wait_until(pilot, lambda: marks() == (0, True))

        await pilot.press("ctrl+z")  # undo, newest first: the flag removal, the mark, the pink flag
        await wait_until(pilot, lambda: marks() == (5, True))
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: marks() == (5, False))
        await wait_until(pilot, lambda: "⚑ pink" in _header(app) and "★" not in _header(app))
        await pilot.press("u")
        await wait_until(pilot, lambda: marks() == (0, False))


async def test_the_browser_shows_and_finds_flags_and_marks(study_app, library, store):
    ids = sorted(library.cards)
    red, green = ids[0], ids[1]
    store.sync_content(library)
    store.set_flag(red, 1)
    store.set_flag(green, 3)
    store.toggle_mark(green)
    app = study_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await card_shown(pilot)
        await open_browser(pilot)
        table = app.screen.query_one(CardTable)
        assert table.cell(red, "flag").plain == "⚑" and "red" in str(table.cell(red, "flag").spans[0].style)
        assert table.cell(green, "flag").plain == "⚑★"
        assert table.cell(ids[2], "flag").plain == ""
        search = app.screen.query_one("#filter-text", Input)
        search.value = "flag:3"
        await wait_until(pilot, lambda: row_ids(app) == [green])
        search.value = "tag:marked"
        await wait_until(pilot, lambda: row_ids(app) == [green])
        search.value = "flag:1 tag:marked"
        await wait_until(pilot, lambda: row_ids(app) == [])
        search.value = "flag:0"
        await wait_until(pilot, lambda: len(row_ids(app)) == len(ids) - 2 and red not in row_ids(app))
        search.value = ""
        app.screen.query_one("#filter-state", Select).value = "marked"
        await wait_until(pilot, lambda: row_ids(app) == [green])

        app.screen.query_one("#filter-state", Select).clear()  # the browser's own keys, as study's
        await wait_until(pilot, lambda: len(row_ids(app)) == len(ids))
        await _select(pilot, red)
        await pilot.press("ctrl+1")  # red again: no flag
        await wait_until(pilot, lambda: store.card_marks(red) == (0, False))
        await wait_until(pilot, lambda: table.cell(red, "flag").plain == "")
        await pilot.press("ctrl+6", "asterisk")
        await wait_until(pilot, lambda: store.card_marks(red) == (6, True))
        await wait_until(pilot, lambda: table.cell(red, "flag").plain == "⚑★")
        assert "marked" in _status(app)
    assert store.browse(now=NOW, flag=6)[0].card_id == red


def test_card_info_names_the_flag_and_the_mark(library, store):
    from rich.console import Console

    from drill.tui.screens.card_info import info_renderable

    card = library.cards[sorted(library.cards)[0]]
    store.sync_content(library)
    store.set_flag(card.id, 2)
    store.toggle_mark(card.id)
    console = Console(width=120, record=True)
    console.print(info_renderable(card, store.card_info(card.id, NOW)))
    assert "⚑ orange ★ marked" in console.export_text()
