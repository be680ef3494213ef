"""Quiz attempts and study sessions: rows written once at the end of a quiz, and a study session's
opening and closing rows."""

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


def record_quiz_attempt(
    store: Store,
    started_at: datetime,
    finished_at: datetime | None,
    settings: dict[str, Any],
    answers: Iterable[QuizAnswerRecord],
) -> int:
    answers = list(answers)
    started_at = aware(started_at, "started_at")
    finished_at = None if finished_at is None else aware(finished_at, "finished_at")
    with store.transaction(write=True) as conn:
        attempt_id = conn.execute(
            insert(attempts_t)
            .values(
                user_id=store.user_id,
                started_at=started_at,
                finished_at=finished_at,
                settings=dict(settings),
                score=sum(1 for a in answers if a.correct),
                total=len(answers),
            )
            .returning(attempts_t.c.id)
        ).scalar_one()
        if answers:
            conn.execute(
                insert(answers_t),
                [
                    {
                        "attempt_id": attempt_id,
                        "item_id": a.item_id,
                        "kind": a.kind,
                        "chosen": a.chosen,
                        "correct": a.correct,
                        "timed_out": a.timed_out,
                        "duration_ms": a.duration_ms,
                        "answered_at": aware(a.answered_at, "answered_at"),
                    }
                    for a in answers
                ],
            )
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
