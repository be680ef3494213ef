"""Issue 11 item 5: a grade waiting on a database lock does not freeze the screen, says it waits, is saved
once the lock goes, and is not acknowledged (no next card) before it is on disk."""

from __future__ import annotations

import sqlite3

from drill.tui.widgets.card_view import CardView
from tests.notified import notified
from tests.tui.conftest import card_shown, wait_until


async def _until(pilot, condition, *, tries: int = 400) -> None:
    for _ in range(tries):  # bounded: fails instead of hanging
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"condition never became true: {condition}")


async def test_a_grade_waiting_on_a_lock_keeps_the_screen_alive(study_app, store):
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        card = app.mode_screen.card.id
        await pilot.press("space")
        await wait_until(pilot, lambda: app.mode_screen.query_one(CardView).revealed)
        holder = sqlite3.connect(store.where, isolation_level=None)  # another program holds the write lock
        try:
            holder.execute("BEGIN IMMEDIATE")
            await pilot.press("3")
            # The event loop runs: the waiting notice shows, the card stays, nothing is acknowledged yet.
            await _until(pilot, lambda: any("busy" in n for n in notified(app)))
            assert app.mode_screen.card.id == card and app.mode_screen.saving == card
            await pilot.press("4")  # another grade key meanwhile does nothing
            assert [log.card_id for log in store.review_logs()] == []
        finally:
            holder.execute("COMMIT")
            holder.close()
        await _until(pilot, lambda: app.mode_screen.saving is None)
        await wait_until(pilot, lambda: app.mode_screen.card is None or app.mode_screen.card.id != card)
    assert [(log.card_id, log.rating) for log in store.review_logs()] == [(card, 3)]
