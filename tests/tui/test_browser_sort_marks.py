"""Issue 28's browser items: sort by a column (o / O, a click on a heading), select several cards (space,
shift+up/down) and suspend, bury or make them due at once, ids and states shown whole, Chinese typed with the
table focused goes into the search, and a card opened before it is due says so on the study screen."""

from __future__ import annotations

import re

from rich.cells import cell_len
from textual.widgets import Input, Static

from drill.tui.widgets.card_table import CardTable
from drill.tui.widgets.card_view import CardView
from tests.notified import notified
from tests.tui.conftest import NOW, card_shown, wait_until
from tests.tui.test_browser import open_browser, row_ids


def status(app) -> str:
    return str(app.screen.query_one("#browser-status", Static).render())


def header(app) -> str:
    return app.screen.query_one(CardTable).render_line(0).text


def chapter_order(section: str) -> tuple[int, ...]:
    """7.2 before 7.10: the section's numbers as numbers (written here, not drill's section_key)."""
    return tuple(int(n) for n in re.findall(r"\d+", section))


async def test_o_sorts_by_the_next_column_and_a_click_on_a_heading_sorts_and_reverses(
    study_app, library, store
):
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        await open_browser(pilot)
        ids = sorted(library.cards)
        await pilot.press("o")  # by id
        await wait_until(pilot, lambda: row_ids(app) == ids)
        assert "id ▲" in header(app)
        await pilot.press("O")  # reversed
        await wait_until(pilot, lambda: row_ids(app) == ids[::-1])
        assert "id ▼" in header(app)

        # A click on the section heading: the chapter's order, 7.2 before 7.10 (not 7.10 before 7.2).
        table = app.screen.query_one(CardTable)
        x = cell_len(header(app)[: header(app).index("section")])
        await pilot.click(CardTable, offset=(x + 1, 0))
        await wait_until(pilot, lambda: "section ▲" in header(app))
        sections = [chapter_order(library.cards[cid].section) for cid in row_ids(app)]
        assert sections == sorted(sections) and sections[0] < sections[-1]
        assert row_ids(app).index(next(c for c in row_ids(app) if library.cards[c].section == "7.2")) < (
            row_ids(app).index(next(c for c in row_ids(app) if library.cards[c].section == "7.10"))
        )
        await pilot.click(CardTable, offset=(x + 1, 0))  # again: the other way
        await wait_until(pilot, lambda: "section ▼" in header(app))
        sections = [chapter_order(library.cards[cid].section) for cid in row_ids(app)]
        assert sections == sorted(sections, reverse=True)
        assert table.row_count == len(library.cards)


async def test_space_selects_cards_and_s_b_act_on_every_selected_one(study_app, library, store):
    app = study_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await card_shown(pilot)
        await open_browser(pilot)
        await pilot.press("o")  # by id: a known order
        ids = sorted(library.cards)
        await wait_until(pilot, lambda: row_ids(app) == ids)
        await pilot.press("home")  # (sorting keeps the cursor on its card)
        await pilot.press("space", "space", "shift+down", "shift+down")  # rows 0, 1, then 2 to 4
        chosen = ids[:5]
        table = app.screen.query_one(CardTable)
        await wait_until(pilot, lambda: table.chosen == set(chosen))
        assert f"5 of {len(ids)} cards selected" in status(app)
        lines = [table.render_line(y).text for y in range(1, 8)]
        assert [line.startswith("●") for line in lines] == [True] * 5 + [False] * 2, lines

        await pilot.press("s")
        await wait_until(pilot, lambda: all(store.card_info(cid, NOW).suspended for cid in chosen))
        assert not store.card_info(ids[5], NOW).suspended
        assert "5 cards suspended" in status(app) and table.chosen == set()

        # Chosen again, all suspended: s unsuspends them all; one chosen card says "1 card".
        for cid in chosen:
            table.toggle_chosen(cid)
        await pilot.press("s")
        await wait_until(pilot, lambda: not any(store.card_info(cid, NOW).suspended for cid in chosen))
        assert "5 cards unsuspended" in status(app)
        table.move_to(ids[7])
        await pilot.press("space", "b")
        await wait_until(pilot, lambda: store.card_info(ids[7], NOW).buried_until is not None)
        assert "1 card buried until tomorrow" in status(app)
        assert [cid for cid in ids if store.card_info(cid, NOW).buried_until is not None] == [ids[7]]


async def test_ids_and_states_are_shown_whole(study_app, library, store):
    """At 120 columns (issue 28 saw `learning (s…` and `s7.20-ln-p…` there): whole, lapses and stability
    give way (card info shows them)."""
    longest = "s7.20-ln-position"
    assert longest in library.cards and len(longest) > 11  # the old column's width
    suspended = sorted(library.cards)[0]
    store.sync_content(library)
    store.grade(suspended, 1, NOW)  # learning
    store.suspend(suspended)
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        await open_browser(pilot)
        table = app.screen.query_one(CardTable)
        await pilot.press("o")
        await wait_until(pilot, lambda: row_ids(app)[:1] == [suspended])
        await pilot.press("home")
        await wait_until(pilot, lambda: round(table.scroll_y) == 0)
        assert " learning (suspended) " in table.render_line(1).text
        table.move_to(longest)
        await pilot.pause()
        text = "".join(table.render_line(y).text for y in range(table.scrollable_content_region.height))
        assert f" {longest} " in text


async def test_chinese_typed_on_the_table_goes_into_the_search(study_app, library, store):
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        await open_browser(pilot)  # l: the table has the focus
        assert isinstance(app.focused, CardTable)
        await pilot.press("注", "意")
        search = app.screen.query_one("#filter-text", Input)
        await wait_until(pilot, lambda: search.value == "注意")
        assert app.focused is search
        expected = sorted(
            card.id
            for card in library.cards.values()
            if "注意" in " ".join((card.id, card.section, card.question, card.answer, *card.tags)).lower()
        )
        await wait_until(pilot, lambda: sorted(row_ids(app)) == expected)
        assert 0 < len(expected) < len(library.cards)


async def test_a_card_opened_before_it_is_due_says_so_on_the_study_screen(study_app, store):
    app = study_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await card_shown(pilot)
        graded = app.mode_screen.card.id
        await pilot.press("space")
        await wait_until(pilot, lambda: app.mode_screen.query_one(CardView).revealed)
        await pilot.press("4")  # Easy: due days from now
        await wait_until(pilot, lambda: app.mode_screen.card is None or app.mode_screen.card.id != graded)
        due = store.card_info(graded, NOW).due
        assert due is not None and due > NOW
        await open_browser(pilot)
        table = app.screen.query_one(CardTable)
        table.move_to(graded)
        await pilot.press("enter", "enter")  # the browser's warning, then open it
        await wait_until(pilot, lambda: app.screen is app.mode_screen and app.mode_screen.card.id == graded)
        said = f"Ahead of schedule: {graded} is due {due.astimezone():%Y-%m-%d %H:%M}"
        await wait_until(pilot, lambda: any(said in n for n in notified(app)))


async def test_at_60_columns_the_table_fits_and_the_question_stays(study_app, library, store):
    """60×20 (issue 28's smallest size): the section column gives way (its filter stays) instead of the
    table running off the right edge with the question in a sliver."""
    app = study_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await card_shown(pilot)
        await open_browser(pilot)
        table = app.screen.query_one(CardTable)
        await wait_until(pilot, lambda: table.row_count == len(library.cards))
        assert table.virtual_size.width <= table.scrollable_content_region.width
        heads = header(app).split()
        assert heads[:2] == ["id", "state"] and heads[-1] == "question", heads
        assert cell_len(header(app)) - header(app).index("question") >= 20
