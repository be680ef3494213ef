"""Quiz attempts and study sessions: a quiz answer written as it is given (its attempt's score and total with
it), the attempt finished at the score screen; a study session's opening and closing rows."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, insert, null, select, update

from drill.store.tables import answers_t, attempts_t, logs_t, sessions_t
from drill.store.times import aware
from drill.store.types import QuizAnswerRecord

if TYPE_CHECKING:  # pragma: no cover
    from drill.store.api import Store


def _answer_row(attempt_id: int, a: QuizAnswerRecord) -> dict[str, Any]:
    return {
        "attempt_id": attempt_id,
        "item_id": a.item_id,
        "kind": a.kind,
        "chosen": a.chosen,
        "correct": a.correct,
        "timed_out": a.timed_out,
        "duration_ms": a.duration_ms,
        "answered_at": aware(a.answered_at, "answered_at"),
    }


def _new_attempt(store: Store, conn, started_at: datetime, settings: dict[str, Any]) -> int:
    return conn.execute(
        insert(attempts_t)
        .values(
            user_id=store.user_id,
            started_at=aware(started_at, "started_at"),
            finished_at=None,
            settings=dict(settings),
            score=0,
            total=0,
        )
        .returning(attempts_t.c.id)
    ).scalar_one()


def _owned_attempt(store: Store, conn, attempt_id: int) -> None:
    t = attempts_t
    if conn.execute(select(t.c.id).where(t.c.id == attempt_id, t.c.user_id == store.user_id)).first() is None:
        raise ValueError(f"quiz attempt {attempt_id} is not one of {store.user!r}'s")


def record_quiz_answer(
    store: Store,
    attempt_id: int | None,
    answer: QuizAnswerRecord,
    *,
    started_at: datetime | None = None,
    settings: dict[str, Any] | None = None,
) -> int:
    """Save one answer as it is given, in its own transaction: the answer row and the attempt's score and
    total move together; with ``attempt_id`` None the attempt row (``started_at``, ``settings``; unfinished)
    is made in the same transaction. Returns the attempt's id."""
    row = _answer_row(0, answer)
    with store.transaction(write=True) as conn:
        if attempt_id is None:
            if started_at is None:
                raise ValueError("a new quiz attempt needs its started_at")
            attempt_id = _new_attempt(store, conn, started_at, settings or {})
        else:
            _owned_attempt(store, conn, attempt_id)
        conn.execute(insert(answers_t), [{**row, "attempt_id": attempt_id}])
        t = attempts_t
        conn.execute(
            update(t)
            .where(t.c.id == attempt_id)
            .values(score=t.c.score + (1 if answer.correct else 0), total=t.c.total + 1)
        )
    return attempt_id


def finish_quiz_attempt(store: Store, attempt_id: int, finished_at: datetime) -> None:
    finished_at = aware(finished_at, "finished_at")
    with store.transaction(write=True) as conn:
        _owned_attempt(store, conn, attempt_id)
        conn.execute(update(attempts_t).where(attempts_t.c.id == attempt_id).values(finished_at=finished_at))


def record_quiz_attempt(
    store: Store,
    started_at: datetime,
    finished_at: datetime | None,
    settings: dict[str, Any],
    answers: Iterable[QuizAnswerRecord],
) -> int:
    """A whole attempt at once (imports, tests); the quiz screen saves each answer as it is given."""
    answers = list(answers)
    started_at = aware(started_at, "started_at")
    finished_at = None if finished_at is None else aware(finished_at, "finished_at")
    rows = [_answer_row(0, a) for a in answers]
    with store.transaction(write=True) as conn:
        attempt_id = _new_attempt(store, conn, started_at, settings)
        conn.execute(
            update(attempts_t)
            .where(attempts_t.c.id == attempt_id)
            .values(
                finished_at=finished_at,
                score=sum(1 for a in answers if a.correct),
                total=len(answers),
            )
        )
        if rows:
            conn.execute(insert(answers_t), [{**r, "attempt_id": attempt_id} for r in rows])
    return attempt_id


def start_session(store: Store, now: datetime) -> int:
    now = aware(now)
    with store.transaction(write=True) as conn:
        return conn.execute(
            insert(sessions_t)
            .values(user_id=store.user_id, started_at=now, ended_at=null(), reviewed=0)
            .returning(sessions_t.c.id)
        ).scalar_one()


def end_session(store: Store, session_id: int, now: datetime) -> None:
    now = aware(now)
    with store.transaction(write=True) as conn:
        started = conn.execute(
            select(sessions_t.c.started_at).where(
                sessions_t.c.id == session_id, sessions_t.c.user_id == store.user_id
            )
        ).scalar()
        # The session's grades, read from the (user_id, reviewed_at) index from the session's start on: the
        # rows of this session, not every grade of the user (a planner that deems session_id unselective,
        # as SQLite's statistics do when older rows have none, would scan the whole log: 2.7 s at 20M).
        mine = [logs_t.c.user_id == store.user_id, logs_t.c.session_id == session_id]
        if started is not None:
            mine.append(logs_t.c.reviewed_at >= started)
        reviewed = conn.execute(select(func.count()).where(*mine)).scalar_one()
        conn.execute(
            update(sessions_t)
            .where(sessions_t.c.id == session_id, sessions_t.c.user_id == store.user_id)
            .values(ended_at=now, reviewed=reviewed)
        )
