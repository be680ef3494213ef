"""`drill interview` scorecards in the store: a row per mock interview (started when the first question is asked,
finished at the scorecard) and a row per question, written in the same transaction as the question's FSRS grade
(``grade_answer``; the grade itself is ``drill.store.reviewing``'s, the one grade path) — so a confirmed question
is on disk with its grade and a kill never leaves one without the other."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update

from drill.store import reviewing, undoing
from drill.store.tables import interview_answers_t, interview_sessions_t
from drill.store.times import aware

if TYPE_CHECKING:  # pragma: no cover
    from drill.store.api import Store

MODES = ("typed", "aloud")


@dataclass(frozen=True)
class InterviewAnswerRecord:
    """One question of a mock interview, as the screen hands it to the store (and as it is read back)."""

    position: int
    card_id: str
    section: str
    follow_up: bool
    mode: str  # "typed" or "aloud"
    answer: str | None  # the typed text; None when answered aloud
    duration_ms: int
    budget_ms: int
    timed_out: bool
    points_total: int
    points_covered: tuple[int, ...]
    points_missed: tuple[str, ...]
    traps_hit: tuple[str, ...]
    coverage: float
    proposed: int
    rating: int
    answered_at: datetime
    review_log_id: int | None = None


@dataclass(frozen=True)
class InterviewRecord:
    id: int
    started_at: datetime
    finished_at: datetime | None
    settings: dict[str, Any]
    answers: tuple[InterviewAnswerRecord, ...] = field(default=())


def start(store: Store, started_at: datetime, settings: dict[str, Any]) -> int:
    started_at = aware(started_at, "started_at")
    with store.transaction(write=True) as conn:
        return conn.execute(
            insert(interview_sessions_t)
            .values(user_id=store.user_id, started_at=started_at, settings=dict(settings))
            .returning(interview_sessions_t.c.id)
        ).scalar_one()


def _owned(store: Store, conn, session_id: int) -> None:
    t = interview_sessions_t
    found = conn.execute(select(t.c.id).where(t.c.id == session_id, t.c.user_id == store.user_id)).first()
    if found is None:
        raise ValueError(f"interview {session_id} is not one of {store.user!r}'s")


def _checked(answer: InterviewAnswerRecord) -> datetime:
    if answer.mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {answer.mode!r}")
    if not 1 <= answer.rating <= 4 or not 1 <= answer.proposed <= 4:
        raise ValueError(f"grades are 1-4, got proposed={answer.proposed}, rating={answer.rating}")
    return aware(answer.answered_at, "answered_at")


def _insert_answer(conn, session_id: int, answer: InterviewAnswerRecord, answered_at: datetime) -> int:
    return conn.execute(
        insert(interview_answers_t)
        .values(
            session_id=session_id,
            position=int(answer.position),
            card_id=answer.card_id,
            section=answer.section,
            follow_up=bool(answer.follow_up),
            mode=answer.mode,
            answer=answer.answer,
            duration_ms=int(answer.duration_ms),
            budget_ms=int(answer.budget_ms),
            timed_out=bool(answer.timed_out),
            points_total=int(answer.points_total),
            points_covered=[int(i) for i in answer.points_covered],
            points_missed=list(answer.points_missed),
            traps_hit=list(answer.traps_hit),
            coverage=float(answer.coverage),
            proposed=int(answer.proposed),
            rating=int(answer.rating),
            review_log_id=answer.review_log_id,
            answered_at=answered_at,
        )
        .returning(interview_answers_t.c.id)
    ).scalar_one()


def record_answer(store: Store, session_id: int, answer: InterviewAnswerRecord) -> int:
    """Save a scorecard row on its own (an answer whose grade is already in the store, or none)."""
    answered_at = _checked(answer)
    with store.transaction(write=True) as conn:
        _owned(store, conn, session_id)
        return _insert_answer(conn, session_id, answer, answered_at)


def grade_answer(
    store: Store, session_id: int, answer: InterviewAnswerRecord, *, due_cap: timedelta | None = None
) -> InterviewAnswerRecord:
    """Grade ``answer.card_id`` with ``answer.rating`` at ``answer.answered_at`` (``due_cap``: the misses' cap,
    ``drill.srs.misses``) and save the scorecard row pointing at that grade, in ONE write transaction: a kill
    at any moment leaves both or neither. Returns the record with its ``review_log_id``; the grade is undoable
    like any other."""
    answered_at = _checked(answer)
    with store.transaction(write=True) as conn:
        _owned(store, conn, session_id)
        graded = reviewing.grade_in(
            store, conn, answer.card_id, answer.rating, answered_at, answer.duration_ms, due_cap=due_cap
        )
        saved = replace(answer, review_log_id=graded.log_id)
        _insert_answer(conn, session_id, saved, answered_at)
    undoing.record(store, undoing.Action(undoing.GRADE, [answer.card_id], log_id=graded.log_id))
    return saved


def finish(store: Store, session_id: int, finished_at: datetime) -> None:
    finished_at = aware(finished_at, "finished_at")
    t = interview_sessions_t
    with store.transaction(write=True) as conn:
        _owned(store, conn, session_id)
        conn.execute(update(t).where(t.c.id == session_id).values(finished_at=finished_at))


def answer_record(row: Any) -> InterviewAnswerRecord:
    """A stored answer row (any select of interview_answers' columns) as its record."""
    return InterviewAnswerRecord(
        position=row.position,
        card_id=row.card_id,
        section=row.section,
        follow_up=bool(row.follow_up),
        mode=row.mode,
        answer=row.answer,
        duration_ms=row.duration_ms,
        budget_ms=row.budget_ms,
        timed_out=bool(row.timed_out),
        points_total=row.points_total,
        points_covered=tuple(row.points_covered or ()),
        points_missed=tuple(row.points_missed or ()),
        traps_hit=tuple(row.traps_hit or ()),
        coverage=float(row.coverage),
        proposed=row.proposed,
        rating=row.rating,
        answered_at=row.answered_at,
        review_log_id=row.review_log_id,
    )


def interviews(store: Store, limit: int | None = None) -> list[InterviewRecord]:
    """The user's mock interviews, newest first, each with its answers in the order asked."""
    s, a = interview_sessions_t, interview_answers_t
    query = select(s).where(s.c.user_id == store.user_id).order_by(s.c.started_at.desc(), s.c.id.desc())
    if limit is not None:
        query = query.limit(limit)
    with store.transaction() as conn:
        sessions = conn.execute(query).all()
        ids = [row.id for row in sessions]
        by_session: dict[int, list[InterviewAnswerRecord]] = {i: [] for i in ids}
        if ids:
            for row in conn.execute(
                select(a).where(a.c.session_id.in_(ids)).order_by(a.c.session_id, a.c.position, a.c.id)
            ):
                by_session[row.session_id].append(answer_record(row))
    return [
        InterviewRecord(
            row.id, row.started_at, row.finished_at, row.settings or {}, tuple(by_session[row.id])
        )
        for row in sessions
    ]


def most_missed(answers: Sequence[InterviewAnswerRecord], count: int = 5) -> list[tuple[str, int]]:
    """The points missed most often over ``answers`` (ties: the point first missed first)."""
    counts: dict[str, int] = {}
    for answer in answers:
        for point in answer.points_missed:
            counts[point] = counts.get(point, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])[:count]
