"""Learn-ahead on the study screen: a learning card due within ``learn_ahead_minutes`` is shown now, rather
than the session ending on "No more cards for now." (the store's rule: drill.store.queue.choose)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from drill.srs import Phase
from drill.tui.screens.study import StudyScreen
from tests.tui.conftest import NOW, card_shown, library_of, wait_until


def _one_card_in_learning(store, library, config) -> str:
    """q07 alone, graded Good 5 minutes before NOW: on its 10-minute step, due in 5 minutes."""
    only = library_of([library.cards["q07"]], library)
    store.config = config
    store.sync_content(only)
    store.grade("q07", 3, NOW - timedelta(minutes=5))
    info = store.card_info("q07", NOW)
    assert info.kind == Phase.LEARNING and info.due == NOW + timedelta(minutes=5)  # labels first
    return only


async def test_a_learning_card_due_in_5_minutes_is_shown_now(study_app, store, library):
    config = replace(store.config, enable_fuzzing=False)
    app = study_app(library=_one_card_in_learning(store, library, config))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        assert isinstance(screen, StudyScreen)
        await wait_until(pilot, lambda: screen.card is not None)
        assert screen.card.id == "q07" and not screen.ended


async def test_with_learn_ahead_off_the_session_has_nothing_now(study_app, store, library):
    config = replace(store.config, enable_fuzzing=False, learn_ahead_minutes=0)
    app = study_app(library=_one_card_in_learning(store, library, config))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen.ended)
        assert screen.card is None
