"""Undo of every action a learner takes in one session, newest first: grades, suspend/unsuspend,
bury/unbury, make-due-now, reset, flag and mark (Anki's undo, kept per ``Store``).

Each action records what it changed before it commits (``Store._undo``: a stack of small records); ``undo``
pops the newest and writes the old values back in one transaction. With nothing recorded in this session,
``undo`` falls back to the user's latest grade in the database (as before: a grade made by an earlier
session can still be taken back). A grade is undone only while it is its card's latest review.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select, update

from drill.errors import StoreError
from drill.srs import Phase
from drill.store.review_days import count_grade
from drill.store.tables import cards_t, logs_t, states_t
from drill.store.times import as_utc
from drill.store.types import UndoResult

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy import Connection

    from drill.store.api import Store

GRADE, SUSPEND, UNSUSPEND, BURY, UNBURY, MAKE_DUE, RESET, FLAG, MARK = (
    "grade",
    "suspend",
    "unsuspend",
    "bury",
    "unbury",
    "make-due",
    "reset",
    "flag",
    "mark",
)
_STATE_COLUMNS = [c.name for c in states_t.columns if c.name not in ("user_id", "card_id")]


@dataclass
class Action:
    """One undoable action: ``rows`` maps a card row id to its state row before (None: there was none)."""

    kind: str
    card_ids: list[str]
    rows: dict[int, dict[str, Any] | None] = field(default_factory=dict)
    log_id: int | None = None


def snapshot(store: Store, conn: Connection, row_ids: list[int]) -> dict[int, dict[str, Any] | None]:
    """The user's state rows for these cards as they are now (None for a card without one)."""
    found = {
        r.card_id: {name: getattr(r, name) for name in _STATE_COLUMNS}
        for r in conn.execute(
            select(states_t).where(states_t.c.user_id == store.user_id, states_t.c.card_id.in_(row_ids))
        )
    }
    return {row_id: found.get(row_id) for row_id in row_ids}


def record(store: Store, action: Action) -> None:
    """Push an action once its transaction has committed."""
    store._undo.append(action)


def undo(store: Store) -> UndoResult | None:
    while store._undo:
        action = store._undo[-1]
        with store.transaction(write=True) as conn:
            if action.kind == GRADE:
                log = _log(store, conn, logs_t.c.id == action.log_id)
                if log is None:  # already undone (by another drill of this user): nothing left of it
                    store._undo.pop()
                    continue
                result = _undo_grade(store, conn, log)
            else:
                _restore_rows(store, conn, action.rows)
                result = UndoResult(
                    action.card_ids[0] if action.card_ids else "",
                    0,
                    None,
                    action.kind,
                    tuple(action.card_ids),
                )
        store._undo.pop()
        return result
    with store.transaction(write=True) as conn:  # nothing this session: the user's latest grade
        log = _log(store, conn)
        return None if log is None else _undo_grade(store, conn, log)


def _log(store: Store, conn: Connection, *where):
    return conn.execute(
        select(logs_t, cards_t.c.content_id)
        .join(cards_t, cards_t.c.id == logs_t.c.card_id)
        .where(logs_t.c.user_id == store.user_id, *where)
        .order_by(logs_t.c.id.desc())
        .limit(1)
    ).first()


def _undo_grade(store: Store, conn: Connection, log) -> UndoResult:
    later = conn.execute(
        select(logs_t.c.id)
        .where(logs_t.c.user_id == store.user_id, logs_t.c.card_id == log.card_id, logs_t.c.id > log.id)
        .limit(1)
    ).first()
    if later is not None:
        raise StoreError(
            f"{log.content_id} was graded again after that grade (by another drill?); undo that one first"
        )
    conn.execute(
        update(states_t).where(states_t.c.user_id == store.user_id, states_t.c.card_id == log.card_id),
        {
            "state": log.state_before,
            "step": log.step_before,
            "stability": log.stability_before,
            "difficulty": log.difficulty_before,
            "due": log.due_before,
            "last_review": log.last_review_before,
            "reps": log.reps_before,
            "lapses": log.lapses_before,
            "suspended": log.suspended_before,
            "buried_until": log.buried_until_before,
            "leech": log.leech_before,
            "fsrs_due": log.fsrs_due_before,
        },
    )
    conn.execute(delete(logs_t).where(logs_t.c.id == log.id))
    count_grade(
        conn,
        store.user_id,
        log.card_id,
        log.study_day,
        log.first_of_day,
        log.rating,
        log.duration_ms,
        log.state_before,
        sign=-1,
    )
    return UndoResult(log.content_id, log.rating, as_utc(log.reviewed_at))


def _restore_rows(store: Store, conn: Connection, rows: dict[int, dict[str, Any] | None]) -> None:
    for row_id, values in rows.items():
        where = (states_t.c.user_id == store.user_id, states_t.c.card_id == row_id)
        exists = conn.execute(select(states_t.c.card_id).where(*where)).first() is not None
        if values is None:
            if exists:
                conn.execute(delete(states_t).where(*where))
        elif exists:
            conn.execute(update(states_t).where(*where), values)
        else:
            conn.execute(insert(states_t), {"user_id": store.user_id, "card_id": row_id, **values})


def reset_values() -> dict[str, Any]:
    """A state row that makes a card new again (its review history is kept)."""
    return {
        "state": Phase.NEW.value,
        "step": 0,
        "stability": None,
        "difficulty": None,
        "due": None,
        "last_review": None,
        "reps": 0,
        "lapses": 0,
        "suspended": False,
        "buried_until": None,
        "leech": False,
        "fsrs_due": None,
    }
