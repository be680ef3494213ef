"""The waiting screen (issue 23 #5): when the only cards left are learning cards due later than learn-ahead,
the study screen says how many and within how long, waits, and brings the first back by itself once it falls
due on the app's clock (moved here by the test, no key pressed); n shows it at once."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from drill.srs import Phase
from drill.tui.screens.study import StudyScreen
from drill.tui.screens.study_state import StudyState
from tests.helpers import plain
from tests.tui.conftest import NOW, card_shown, library_of, wait_until


class MovableClock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self):
        return self.now


def _waiting_for_q07(store, library, *, minutes: int = 5):
    """q07 alone on its 10-minute step, due in ``minutes``; learn-ahead off below it (1 minute)."""
    only = library_of([library.cards["q07"]], library)
    store.config = replace(store.config, enable_fuzzing=False, learn_ahead_minutes=1)
    store.sync_content(only)
    store.grade("q07", 3, NOW - timedelta(minutes=10 - minutes))
    info = store.card_info("q07", NOW)
    assert info.kind == Phase.LEARNING and info.due == NOW + timedelta(minutes=minutes)  # labels first
    return only


def _text(screen) -> str:
    view = screen.card_view
    return plain(view.query_one("#card-meta")) + "\n" + plain(view.query_one("#question"))


async def test_the_waiting_screen_brings_the_card_back_when_it_falls_due(
    study_app, store, library, monkeypatch
):
    monkeypatch.setattr(StudyState, "WAIT_POLL_SECONDS", 0.02)
    clock = MovableClock()
    app = study_app(library=_waiting_for_q07(store, library), clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        assert isinstance(screen, StudyScreen)
        await wait_until(pilot, lambda: screen.waiting is not None)
        assert screen.card is None and not screen.ended
        text = _text(screen)
        assert "1 learning card due in ≤ 5 min — wait, or show now" in text and "press n" in text
        assert app.screen is screen  # no summary over it: the session goes on
        assert screen.check_action("show_now", ()) is True
        clock.now = NOW + timedelta(minutes=2)
        await wait_until(pilot, lambda: "≤ 3 min" in _text(screen))  # the minutes count down
        assert screen.card is None
        clock.now = NOW + timedelta(minutes=4, seconds=1)  # within learn-ahead (1 min) of its due
        await wait_until(pilot, lambda: screen.card is not None)  # no key pressed
        assert screen.card.id == "q07" and screen.waiting is None and not screen.revealed
        assert screen.check_action("show_now", ()) is False
        await pilot.press("space", "4")  # Easy: out of learning, due in days: nothing left today
        await wait_until(pilot, lambda: screen.ended)
        assert screen.waiting is None
    assert [entry.card_id for entry in store.review_logs()] == ["q07", "q07"]


async def test_show_now_brings_the_waiting_card_at_once(study_app, store, library):
    app = study_app(library=_waiting_for_q07(store, library, minutes=8))
    async with app.run_test(size=(80, 24)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen.waiting is not None)
        assert "≤ 8 min" in _text(screen)
        await pilot.press("n")
        await wait_until(pilot, lambda: screen.card is not None)
        assert screen.card.id == "q07" and screen.waiting is None


async def test_nothing_due_today_ends_the_session(study_app, store, library):
    """A card graded Easy is due in days, not later today: no waiting, the session ends."""
    only = library_of([library.cards["q07"]], library)
    store.config = replace(store.config, enable_fuzzing=False)
    store.sync_content(only)
    store.grade("q07", 4, NOW - timedelta(minutes=5))
    assert store.card_info("q07", NOW).due > NOW + timedelta(days=1)  # labels first
    app = study_app(library=only)
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen.ended)
        assert screen.waiting is None and screen.card is None
