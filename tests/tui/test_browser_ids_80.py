"""Issue 28: at 80×24 the browser shows every id whole (it cut `code-sinus…`): the section or the question
column gives way instead, in both languages; the question keeps its room."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from drill.i18n import set_language
from drill.tui.widgets.card_table import CardTable
from tests.tui.conftest import card_shown, wait_until
from tests.tui.test_browser import open_browser, row_ids
from tests.tui.test_browser_sort_marks import header


def visible_ids(table: CardTable) -> list[str]:
    """The id cell of each row on screen, as drawn (the first column after the margin)."""
    lines = [table.render_line(y).text for y in range(1, table.scrollable_content_region.height)]
    return [line[2:].split()[0] for line in lines if line.strip()]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
async def test_at_80_columns_every_visible_id_is_whole(study_app, library, store, language):
    set_language(language)
    try:
        app = study_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await card_shown(pilot)
            await open_browser(pilot)
            table = app.screen.query_one(CardTable)
            await wait_until(pilot, lambda: table.row_count == len(library.cards))
            assert table.virtual_size.width <= table.scrollable_content_region.width  # no sideways scroll
            longest = max(library.cards, key=len)
            assert len(longest) >= 29  # f7.13-weighted-sum.to-formula
            seen: set[str] = set()
            for cid in row_ids(app)[:: table.scrollable_content_region.height - 2]:  # page by page
                table.move_to(cid)
                await pilot.pause()
                shown = visible_ids(table)
                assert shown and all(s in library.cards for s in shown), shown
                seen.update(shown)
            table.move_to(longest)
            await pilot.pause()
            assert longest in visible_ids(table)
            assert seen | {longest} >= set(row_ids(app)[:40])
            heads = header(app)
            assert heads.split()[-1] in ("question", "题目")
            assert cell_len(heads) - heads.index(heads.split()[-1]) >= 20  # the question keeps its room
    finally:
        set_language("en")
