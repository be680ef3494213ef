"""Interview scorecards in the store (SQLite and PostgreSQL): saved per question, read back newest first, per
user; after a confirmation on the screen both the FSRS grade and the scorecard row are on disk."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from drill.store import open_store
from drill.store.interviews import InterviewAnswerRecord, most_missed
from drill.tui.widgets.checklist import Checklist
from tests.interview.pilot import interview_app, phase
from tests.store.store_support import open_test_store
from tests.tui.conftest import NOW, wait_until

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def answer(position: int, card: str, **fields) -> InterviewAnswerRecord:
    values = dict(
        position=position,
        card_id=card,
        section="7.2",
        follow_up=False,
        mode="typed",
        answer="QKᵀ 除以 √d_k ‮ \x1b[31m",  # stored as given: text is text (the screens make it visible)
        duration_ms=90_000,
        budget_ms=180_000,
        timed_out=False,
        points_total=3,
        points_covered=(0, 2),
        points_missed=("方差变大",),
        traps_hit=(),
        coverage=2 / 3,
        proposed=2,
        rating=3,
        answered_at=T0 + timedelta(minutes=position),
    )
    values.update(fields)
    return InterviewAnswerRecord(**values)


def test_scorecards_round_trip_newest_first_per_user(any_url):
    with open_test_store(any_url, "alice") as store:
        first = store.start_interview(T0, {"questions": 2, "seed": 1})
        store.record_interview_answer(first, answer(1, "c00"))
        store.record_interview_answer(
            first, answer(2, "c01", follow_up=True, mode="aloud", answer=None, timed_out=True, rating=1)
        )
        store.finish_interview(first, T0 + timedelta(minutes=7))
        second = store.start_interview(T0 + timedelta(days=1), {"questions": 1})
        store.record_interview_answer(second, answer(1, "c02", points_missed=("方差变大", "梯度消失")))
        newest, oldest = store.interview_history()
        assert (newest.id, oldest.id) == (second, first)
        assert newest.finished_at is None and oldest.finished_at == T0 + timedelta(minutes=7)
        assert oldest.settings == {"questions": 2, "seed": 1}
        assert oldest.answers == (
            answer(1, "c00"),
            replace(answer(2, "c01"), follow_up=True, mode="aloud", answer=None, timed_out=True, rating=1),
        )
        assert all(a.answered_at.tzinfo is not None for a in oldest.answers)
        assert store.interview_history(limit=1)[0].id == second
        every = [a for i in store.interview_history() for a in i.answers]
        assert most_missed(every) == [("方差变大", 3), ("梯度消失", 1)]
    with open_test_store(any_url, "bob") as other:
        assert other.interview_history() == []
        with pytest.raises(ValueError, match="not one of"):
            other.record_interview_answer(first, answer(3, "c00"))


def test_bad_records_are_refused(any_url):
    with open_test_store(any_url, "alice") as store:
        session = store.start_interview(T0, {})
        with pytest.raises(ValueError, match="mode"):
            store.record_interview_answer(session, answer(1, "c00", mode="sung"))
        with pytest.raises(ValueError, match="grades"):
            store.record_interview_answer(session, answer(1, "c00", rating=5))
        with pytest.raises(ValueError, match="timezone-aware"):
            store.record_interview_answer(session, answer(1, "c00", answered_at=datetime(2026, 1, 1)))
        with pytest.raises(ValueError, match="timezone-aware"):
            store.start_interview(datetime(2026, 1, 1), {})
        assert store.interview_history()[0].answers == ()


async def test_a_confirmed_question_has_its_grade_and_its_scorecard_row_on_disk(library, tmp_path):
    """Read back from the file by another connection while the interview is still on screen."""
    path = tmp_path / "progress.sqlite3"
    url = f"sqlite:///{path}"
    store = open_store(url, "tester")
    try:
        app = interview_app(library, store, questions=2)
        async with app.run_test(size=(120, 40)) as pilot:
            await phase(pilot, "asking")
            screen = app.mode_screen
            card = screen.asked.card
            await pilot.press("x", "ctrl+d")
            await phase(pilot, "rubric")
            screen.query_one("#iv-points", Checklist).select(0)
            await wait_until(pilot, lambda: screen.rubric.covered == {0})
            await pilot.press("enter")
            await wait_until(pilot, lambda: len(screen.answers) == 1)
            rating = screen.answers[0].rating

            raw = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                log = raw.execute(
                    "SELECT r.id, r.rating FROM review_logs r JOIN cards c ON c.id = r.card_id "
                    "WHERE c.content_id = ?",
                    (card.id,),
                ).fetchall()
                row = raw.execute(
                    "SELECT card_id, rating, review_log_id, answer, points_covered FROM interview_answers"
                ).fetchall()
                state = raw.execute(
                    "SELECT s.reps, s.due FROM card_states s JOIN cards c ON c.id = s.card_id "
                    "WHERE c.content_id = ?",
                    (card.id,),
                ).fetchone()
            finally:
                raw.close()
            assert len(log) == 1 and log[0][1] == rating
            assert row == [(card.id, rating, log[0][0], "x", "[0]")]
            assert state[0] == 1  # FSRS scheduled it: the card has its first review
            with open_store(url, "tester", readonly=True) as reader:
                (shown,) = reader.interview_history()
                assert shown.answers == tuple(screen.answers)
                assert reader.card_info(card.id, NOW).history[-1].rating == rating
            await pilot.press("ctrl+q")
    finally:
        store.close()
