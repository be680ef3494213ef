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
        # Not shown now: the screen waits for it (tests/tui/test_study_waiting.py), the session goes on.
        await wait_until(pilot, lambda: screen.waiting is not None)
        assert screen.card is None and not screen.ended and screen.waiting.first_id == "q07"


def _learning_and_new(store, library, config):
    """q07 in learning (due in 5 minutes) and two new cards beside it."""
    cards = [library.cards[cid] for cid in ("q07", "q08", "q09")]
    mixed = library_of(cards, library)
    store.config = config
    store.sync_content(mixed)
    store.grade("q07", 3, NOW - timedelta(minutes=5))
    assert store.card_info("q07", NOW).due == NOW + timedelta(minutes=5)  # labels first
    return mixed


async def test_new_used_up_still_shows_the_learn_ahead_card(study_app, store, library):
    """--new 0: no new card this session, but the learning card due in 5 minutes comes (the queue's rule: due,
    new within the limits, learn-ahead), where the session used to end on the new card it may not show."""
    config = replace(store.config, enable_fuzzing=False)
    app = study_app(library=_learning_and_new(store, library, config), new_limit=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen.card is not None or screen.ended)
        assert screen.card is not None and screen.card.id == "q07" and not screen.ended


def test_store_without_new_cards_goes_on_to_learn_ahead(store, library):
    config = replace(store.config, enable_fuzzing=False)
    _learning_and_new(store, library, config)
    assert store.next_card(NOW).card_id == "q08"  # a new card comes before learn-ahead
    ahead = store.next_card(NOW, new=False)
    assert ahead is not None and ahead.card_id == "q07" and ahead.kind == Phase.LEARNING


def test_custom_study_due_mode_has_learn_ahead(store, library):
    """A custom study (today's schedule on a choice of cards) follows the same rule: q07, due in 5 minutes,
    comes once the choice has no due or new card left; with learn-ahead off, nothing does."""
    from drill.tui.models.custom_study import CustomQueue, StudyFilter

    config = replace(store.config, enable_fuzzing=False)
    mixed = _learning_and_new(store, library, config)
    queue = CustomQueue(mixed, store, StudyFilter(kinds=("qa",)))
    assert queue.next_card(NOW).id == "q08"
    assert queue.next_card(NOW, new=False).id == "q07"
    store.config = replace(config, learn_ahead_minutes=0)
    assert queue.next_card(NOW, new=False) is None
    store.config = config
    later = NOW + timedelta(minutes=30)  # due by then: an ordinary due card, before the new ones
    assert queue.next_card(later).id == "q07"
