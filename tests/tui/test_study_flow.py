"""Grades are written by one writer thread, each on disk before the next card (issue 10 §2)."""

from __future__ import annotations

import threading

from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import card_shown, wait_until


async def test_grades_are_written_by_one_writer_thread_each_before_the_next_card(study_app, store):
    app = study_app()
    writers: list[int] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        grade = screen.session.grade

        def recorded(card_id, rating, duration_ms):
            writers.append(threading.get_ident())
            return grade(card_id, rating, duration_ms)

        screen.session.grade = recorded
        for n in range(1, 5):
            shown = screen.card
            await pilot.press("space")
            await wait_until(pilot, lambda: screen.query_one(CardView).revealed)
            await pilot.press("3")
            await wait_until(pilot, lambda shown=shown: screen.card is not shown)
            # The next card is on screen only once the grade before it is on disk.
            assert len(store.review_logs()) == n
    assert len(writers) == 4
    assert len(set(writers)) == 1 and writers[0] != threading.main_thread().ident
