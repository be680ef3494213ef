"""The score screen's `m` (make the cards behind the wrong answers due now) before the store is open: a quiz
finished before sqlalchemy had opened the database (the first question is drawn from the content alone) says so
in one line and keeps running, and `m` works once the store is open."""

from __future__ import annotations

import threading
from datetime import timedelta

import drill.store
from drill.store import open_store
from drill.tui.app import make_app
from drill.tui.screens.quiz import QuizScreen
from drill.tui.screens.quiz_score import QuizScoreScreen
from tests.notified import notified
from tests.tui.conftest import NOW, frozen_clock, frozen_timer, wait_until


async def test_m_before_the_store_opens_says_so_and_works_once_it_is_open(library, db_url, monkeypatch):
    first = library.quizzes[0]
    studied = first.cards[0]
    store = open_store(db_url, "tester")
    store.sync_content(library)
    store.grade(studied, 4, NOW - timedelta(hours=1))  # Easy: due days from now
    store.close()

    opening = threading.Event()
    release = threading.Event()
    real_open = drill.store.open_store

    def slow_open(*args, **kwargs):  # the loading worker's open, held until the test lets it go
        opening.set()
        release.wait(60)
        return real_open(*args, **kwargs)

    monkeypatch.setattr(drill.store, "open_store", slow_open)
    app = make_app(
        "quiz",
        library=library,
        db_url=db_url,
        user="tester",
        clock=frozen_clock,
        timer=frozen_timer,
        shuffle=False,
        seconds=30,
        seed=7,
        count=1,
    )
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            quiz = app.mode_screen
            assert isinstance(quiz, QuizScreen)
            await wait_until(pilot, lambda: quiz.run is not None and opening.is_set())
            assert quiz.store is None  # the question is asked while the store is still opening
            wrong = next(o for o in quiz.item.options if o.key != first.answer)
            await pilot.press(wrong.letter.lower())
            await wait_until(pilot, lambda: quiz.answered is not None)
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, QuizScoreScreen))
            score = app.screen
            await pilot.press("m")
            await wait_until(pilot, lambda: any("still opening" in n for n in notified(app)))
            said = [n for n in notified(app)]
            assert len(said) == 1 and "\n" not in said[0], said
            assert app.is_running and app.screen is score and score.made_due is None
            assert app.error is None

            release.set()
            await wait_until(pilot, lambda: quiz.store is not None)
            await app.workers.wait_for_complete()
            await pilot.press("m")
            await wait_until(pilot, lambda: score.made_due is not None)
            assert score.made_due == 1  # the studied card; the never-studied ones stay new
    finally:
        release.set()
    reopened = open_store(db_url, "tester")
    try:
        assert reopened.card_info(studied, NOW).due == NOW
    finally:
        reopened.close()
