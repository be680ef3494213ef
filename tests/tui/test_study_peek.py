"""The first question comes from the read-only peek; grading waits for the real store, which has the last word."""

from __future__ import annotations

import threading

import pytest

from drill.store import open_store
from drill.store.peek import save_plan
from drill.tui.app import make_app
from drill.tui.models import study as study_session
from drill.tui.widgets.card_view import CardView
from tests.notified import notified
from tests.tui.conftest import (
    NOW,
    STUDY_QUESTION,
    STUDY_READY,
    frozen_clock,
    frozen_timer,
    ptyrun,
    wait_until,
)


@pytest.fixture
def default_db(library):
    """The default database (the isolated data folder) with a first card that is due, not new, and a plan."""
    store = open_store(None, "tester")
    try:
        store.sync_content(library)
        first = store.next_card(NOW)
        store.grade(first.card_id, 1, NOW.replace(hour=8))  # Again an hour ago: due now, in learning
        expected = store.next_card(NOW)
        assert expected.kind.value == "learning"
        save_plan(store, None)
    finally:
        store.close()
    return expected


@pytest.fixture
def held_store(monkeypatch):
    """Hold the store's opening until the test releases it (the peeked question must not need it)."""
    release = threading.Event()
    original = study_session.open_study_session

    def held(options, library=None):
        assert release.wait(timeout=60)
        return original(options, library)

    monkeypatch.setattr(study_session, "open_study_session", held)
    yield release
    release.set()


def peek_app(library):
    return make_app("study", library=library, user="tester", clock=frozen_clock, timer=frozen_timer)


def notices(app) -> list[str]:
    return [n for n in notified(app)]


async def test_peeked_question_first_then_grading_once_the_store_is_ready(library, default_db, held_store):
    app = peek_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen is not None and screen.card is not None)
        assert screen.session is None  # the store is not open: the card came from the peek
        assert screen.card.id == default_db.card_id
        view = screen.query_one(CardView)
        await pilot.press("space")  # revealing needs only the content
        await wait_until(pilot, lambda: view.revealed)
        await pilot.press("3")  # a grade needs the store: refused, and said so
        await wait_until(pilot, lambda: any("Still opening" in text for text in notices(app)))
        assert screen.card.id == default_db.card_id
        held_store.set()
        await wait_until(pilot, lambda: screen.session is not None)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.card.id == default_db.card_id and view.revealed  # the peek was right: nothing moved
        assert "·" in str(screen.query_one("#grade-3").render()) and "…" not in str(
            screen.query_one("#grade-3").render()
        )
        await pilot.press("3")
        await wait_until(pilot, lambda: screen.card is None or screen.card.id != default_db.card_id)
    store = open_store(None, "tester")
    try:
        logs = store.review_logs()
    finally:
        store.close()
    assert [(log.card_id, log.rating) for log in logs] == [(default_db.card_id, 1), (default_db.card_id, 3)]


async def test_a_wrong_peek_is_replaced_by_the_store_s_card(library, default_db, held_store, monkeypatch):
    other = next(card for card in library.cards.values() if card.id != default_db.card_id)
    monkeypatch.setattr(study_session, "peek_first_card", lambda library, options: other)
    app = peek_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen is not None and screen.card is not None)
        assert screen.card.id == other.id and screen.session is None
        held_store.set()
        await wait_until(pilot, lambda: screen.session is not None)
        await pilot.pause()
        assert screen.card.id == default_db.card_id


async def test_no_peek_without_a_plan_the_store_shows_the_first_card(library):
    app = peek_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen is not None and screen.session is not None)
        await pilot.pause()
        assert screen.card is not None
    # and the session left a plan for next time
    from drill.paths import default_db_path
    from drill.store.peek import plan_path

    assert plan_path(default_db_path()).is_file()


def test_first_question_is_on_screen_before_sqlalchemy_is_imported(tmp_path):
    """On a pseudo-terminal: the installed `drill study` opens the store once (creating the database and the
    plan) and is quit; the next start draws its first question while sqlalchemy's and numpy's imports are held
    (benchmarks/ptyrun.py's HeldTerminal), and once they may load, the store opens."""
    import os

    from drill.paths import default_db_path
    from drill.store.peek import plan_path

    reader = ptyrun()
    env = dict(os.environ)
    with reader.Terminal([reader.drill_command(), "study"], env, size=(100, 30)) as term:
        term.wait_for(STUDY_READY)
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0 and plan_path(default_db_path()).is_file()
    with reader.HeldTerminal(["study"], env, tmp_path / "loaded", size=(100, 30)) as term:
        term.wait_for(STUDY_QUESTION)
        assert term.loaded() == set()
        term.release()
        term.wait_for(STUDY_READY)
        assert "sqlalchemy" in term.loaded()
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0
