"""The card browser: filters by text, section and state; opens a card in the study screen."""

from __future__ import annotations

from textual.widgets import Input, Select

from drill.tui.widgets.card_table import CardTable
from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import NOW, card_shown, wait_until


def row_ids(app) -> list[str]:
    return list(app.screen.query_one(CardTable).keys)


async def open_browser(pilot, key: str = "l") -> None:
    await pilot.press(key)
    await wait_until(pilot, lambda: pilot.app.screen.__class__.__name__ == "BrowserScreen")


async def test_browser_lists_every_card_and_filters(study_app, library, store):
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        suspended = app.mode_screen.card.id
        await pilot.press("s")
        await wait_until(pilot, lambda: app.mode_screen.card.id != suspended)
        await open_browser(pilot)
        assert sorted(row_ids(app)) == sorted(library.cards)

        # Text matches the question and answer too (the store only knows ids and sections).
        await pilot.press("ctrl+f", *"softmax")
        expected = sorted(
            card.id
            for card in library.cards.values()
            if "softmax" in " ".join((card.id, card.section, card.question, card.answer, *card.tags)).lower()
        )
        await wait_until(pilot, lambda: sorted(row_ids(app)) == expected)
        assert 0 < len(expected) < len(library.cards)

        app.screen.query_one(Input).value = ""
        app.screen.query_one("#filter-section", Select).value = "7.7"
        in_section = sorted(c.id for c in library.cards.values() if c.section == "7.7")
        await wait_until(pilot, lambda: sorted(row_ids(app)) == in_section)

        app.screen.query_one("#filter-section", Select).clear()
        app.screen.query_one("#filter-state", Select).value = "suspended"
        await wait_until(pilot, lambda: row_ids(app) == [suspended])
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.mode_screen)


async def test_search_key_focuses_the_filter_and_enter_opens_a_card(study_app, library, store):
    app = study_app()
    target = sorted(library.cards)[-1]
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        assert app.mode_screen.card.id != target
        await open_browser(pilot, "slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*target)
        await wait_until(pilot, lambda: row_ids(app) == [target])
        await pilot.press("enter")  # Input -> table
        await wait_until(pilot, lambda: isinstance(app.focused, CardTable))
        await pilot.press("enter")  # open the highlighted card
        await wait_until(pilot, lambda: app.screen is app.mode_screen and app.mode_screen.card.id == target)
        # The opened card is the one studied: revealed and graded, the grade is stored against it.
        await pilot.press("space")
        await wait_until(pilot, lambda: app.mode_screen.query_one(CardView).revealed)
        await pilot.press("3")
        await wait_until(pilot, lambda: app.mode_screen.card is None or app.mode_screen.card.id != target)
    assert [(log.card_id, log.rating, log.reviewed_at) for log in store.review_logs()] == [(target, 3, NOW)]


async def test_the_browser_is_built_once_and_shows_what_changed_since(study_app, library, store):
    """Reopening the browser (/ or l) reuses the session's one browser: its rows are not rebuilt, only the
    row of a card graded since shows its new state, and the learner's filter stays."""
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        graded = app.mode_screen.card.id
        await open_browser(pilot)
        browser = app.screen
        table = browser.query_one(CardTable)
        built = {key: table.cell(key, "question") for key in table.keys}
        assert table.cell(graded, "state").plain == "new"
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.mode_screen)

        await pilot.press("space")
        await wait_until(pilot, lambda: app.mode_screen.query_one(CardView).revealed)
        await pilot.press("3")
        await wait_until(pilot, lambda: app.mode_screen.card.id != graded)
        await open_browser(pilot, "slash")
        assert app.screen is browser
        assert isinstance(app.focused, Input)
        # The same cells (no rebuild) but the graded card's; its state is the store's.
        assert all(table.cell(key, "question") is cell for key, cell in built.items() if key != graded)
        state = store.browse(None, None, None, now=NOW)
        expected = {row.card_id: row.kind.value for row in state}[graded]
        assert expected != "new"
        assert table.cell(graded, "state").plain == expected

        await pilot.press(*graded)
        await wait_until(pilot, lambda: row_ids(app) == [graded] or graded in row_ids(app))
        kept = row_ids(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.mode_screen)
        await open_browser(pilot)
        assert app.screen is browser and browser.query_one(Input).value == graded
        assert row_ids(app) == kept


async def test_back_from_card_info_the_browser_keeps_its_focus(study_app):
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        await open_browser(pilot, "slash")
        browser = app.screen
        assert isinstance(app.focused, Input)
        await pilot.press("enter")  # Input -> table
        await wait_until(pilot, lambda: isinstance(app.focused, CardTable))
        await pilot.press("i")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "CardInfoScreen")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is browser)
        await pilot.pause()
        assert isinstance(app.focused, CardTable)  # where the learner was, not the search box again


async def test_one_card_is_one_card(study_app, library, store):
    """The status line counts in the plural only from two (`1 card`, not `1 cards`)."""
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        suspended = app.mode_screen.card.id
        await pilot.press("s")
        await wait_until(pilot, lambda: app.mode_screen.card.id != suspended)
        await open_browser(pilot)
        app.screen.query_one("#filter-state", Select).value = "suspended"
        await wait_until(pilot, lambda: row_ids(app) == [suspended])
        status = app.screen.query_one("#browser-status")
        await wait_until(pilot, lambda: str(status.render()).startswith("1 card · "))
        assert "1 cards" not in str(status.render())
