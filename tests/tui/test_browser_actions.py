"""Issue 11 items 6-8 in the card browser: act on the selected card, undo it all with u, early-review notice."""

from __future__ import annotations

from textual.widgets import Static

from drill.tui.widgets.card_table import CardTable
from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import NOW, card_shown, wait_until
from tests.tui.test_browser import open_browser


def _status(app) -> str:
    return str(app.screen.query_one("#browser-status", Static).render())


async def _select(pilot, card_id: str) -> None:
    table = pilot.app.screen.query_one(CardTable)
    table.focus()
    table.move_to(card_id)
    await wait_until(pilot, lambda: pilot.app.screen.selected() == card_id)


async def test_browser_actions_and_undo_in_order(study_app, store):
    app = study_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await card_shown(pilot)
        graded = app.mode_screen.card.id
        await pilot.press("space")
        await wait_until(pilot, lambda: app.mode_screen.query_one(CardView).revealed)
        await pilot.press("3")  # learning now, due later than NOW
        await wait_until(pilot, lambda: app.mode_screen.card is None or app.mode_screen.card.id != graded)
        await open_browser(pilot)
        await _select(pilot, graded)

        def info():
            return store.card_info(graded, NOW)

        await pilot.press("s")
        await wait_until(pilot, lambda: info().suspended)
        await pilot.press("s")
        await wait_until(pilot, lambda: not info().suspended)
        await pilot.press("b")
        await wait_until(pilot, lambda: info().buried_until is not None)
        await pilot.press("b")
        await wait_until(pilot, lambda: info().buried_until is None)
        due_before = info().due
        assert due_before > NOW
        await pilot.press("d")
        await wait_until(pilot, lambda: info().due == NOW)
        await pilot.press("r")
        await wait_until(pilot, lambda: "Press r again" in _status(app))
        assert info().reps == 1  # nothing yet
        await pilot.press("r")
        await wait_until(pilot, lambda: info().reps == 0 and info().kind.value == "new")

        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.mode_screen)
        undone = []
        for _ in range(7):
            await pilot.press("u")  # the study screen's key, not the API
            await pilot.pause()
            undone.append(info())
        states = [
            (i.kind.value, i.suspended, i.buried_until is not None, i.due == NOW, i.reps) for i in undone
        ]
        assert states == [
            ("learning", False, False, True, 1),  # reset undone: due now again
            ("learning", False, False, False, 1),  # make-due undone
            ("learning", False, True, False, 1),  # unbury undone: buried again
            ("learning", False, False, False, 1),  # bury undone
            ("learning", True, False, False, 1),  # unsuspend undone: suspended again
            ("learning", False, False, False, 1),  # suspend undone
            ("new", False, False, False, 0),  # the grade undone
        ]


async def test_enter_on_a_card_not_due_warns_of_an_early_review_first(study_app, store):
    app = study_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await card_shown(pilot)
        graded = app.mode_screen.card.id
        await pilot.press("space")
        await wait_until(pilot, lambda: app.mode_screen.query_one(CardView).revealed)
        await pilot.press("3")
        await wait_until(pilot, lambda: app.mode_screen.card is None or app.mode_screen.card.id != graded)
        await open_browser(pilot)
        await _select(pilot, graded)
        await pilot.press("enter")
        await wait_until(pilot, lambda: "early review" in _status(app))
        assert app.screen.__class__.__name__ == "BrowserScreen"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is app.mode_screen and app.mode_screen.card.id == graded)
