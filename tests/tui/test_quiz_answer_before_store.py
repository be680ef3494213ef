"""An answer given while the store is still opening (the first question is drawn from the content alone, before
sqlalchemy opened the database): the screen says it is being saved and shows no verdict; enter waits; once the
store is open the verdict comes, the answer is on disk at that moment, and the score screen's `m` works. A kill
before then loses an answer the screen never acknowledged."""

from __future__ import annotations

import sqlite3
import threading
from datetime import timedelta
from pathlib import Path

import drill.store
from drill.store import open_store
from drill.tui.app import make_app
from drill.tui.screens.quiz import QuizScreen
from drill.tui.screens.quiz_score import QuizScoreScreen
from tests.helpers import plain
from tests.tui.conftest import NOW, frozen_clock, frozen_timer, wait_until


async def test_the_last_answer_before_the_store_opens_is_acknowledged_once_on_disk(
    library, db_url, monkeypatch
):
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
            feedback = plain(quiz.query_one("#quiz-feedback"))
            assert "Saving your answer" in feedback and "✗" not in feedback
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is quiz  # no score before the answer is on disk
            assert not stored_answers(db_url)

            release.set()
            await wait_until(pilot, lambda: "✗" in plain(quiz.query_one("#quiz-feedback")))
            assert stored_answers(db_url) == [(first.id, 0, wrong.key)]
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, QuizScoreScreen))
            score = app.screen
            await pilot.press("m")
            await wait_until(pilot, lambda: score.made_due is not None)
            assert score.made_due == 1  # the studied card; the never-studied ones stay new
            assert app.error is None
    finally:
        release.set()
    reopened = open_store(db_url, "tester")
    try:
        assert reopened.card_info(studied, NOW).due == NOW
    finally:
        reopened.close()


def stored_answers(db_url: str) -> list[tuple[str, int, str]]:
    """The answers on disk, read with sqlite3 (not the store: the quiz's own store is still opening)."""
    path = db_url.removeprefix("sqlite:///")
    if not Path(path).is_file():
        return []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'quiz_answers'").fetchone():
            return []
        return db.execute("SELECT item_id, correct, chosen FROM quiz_answers ORDER BY id").fetchall()
