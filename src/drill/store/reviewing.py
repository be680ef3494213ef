"""Reviewing: grading a card, undoing the latest grade, previewing the next due times, and the flags a learner
sets by hand (suspend, bury, make due now, Anki's colour flag and mark). Each write is one short transaction (``Store.transaction``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec

from sqlalchemy import bindparam, insert, select, update

from drill.errors import StoreError
from drill.srs import GRADES, CardState, Phase, is_leech, leech_suspends, next_day_start, schedule, to_grade
from drill.srs.deadline import apply_deadline
from drill.srs.misses import cap_interval
from drill.store import undoing
from drill.store.review_days import count_grade, first_counts, review_day_fields
from drill.store.tables import cards_t, logs_t, states_t
from drill.store.times import as_utc, aware
from drill.store.types import FLAGS, GradeResult, UndoResult

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy import Connection

    from drill.store.api import Store

P = ParamSpec("P")

# A never-reviewed card's state has this due time, so its fuzz seed (and so ``preview``) doesn't depend on
# the moment it is looked at.
NEW_DUE = datetime(2000, 1, 1, tzinfo=UTC)

_UPDATE_STATE = update(states_t).where(
    states_t.c.user_id == bindparam("b_user"), states_t.c.card_id == bindparam("b_card")
)
# A grade's write of the state row, its share of the card's true-retention counters in the same UPDATE
# (drill.store.review_days.first_counts).
_GRADE_STATE = _UPDATE_STATE.values(
    first_reviews=states_t.c.first_reviews + bindparam("b_first"),
    first_passes=states_t.c.first_passes + bindparam("b_passed"),
)
_INSERT_LOG = insert(logs_t).returning(logs_t.c.id)
# Built once (a grade's statements are module constants: building a SQLAlchemy statement costs more than
# running this key lookup).
_SELECT_STATE = select(states_t).where(
    states_t.c.user_id == bindparam("b_user"), states_t.c.card_id == bindparam("b_card")
)


@dataclass
class Flags:
    """What the store keeps beside the scheduling state; ``exists``: the user has a state row for the card."""

    suspended: bool = False
    buried_until: datetime | None = None
    leech: bool = False
    exists: bool = False
    fsrs_due: datetime | None = None  # FSRS's own due while an interview plan holds the card earlier


def load_state(store: Store, conn: Connection, row_id: int) -> tuple[CardState, Flags]:
    return _state_and_flags(conn.execute(_SELECT_STATE, {"b_user": store.user_id, "b_card": row_id}).first())


def load_card(store: Store, conn: Connection, card_id: str) -> tuple[int, CardState, Flags]:
    """The card's row id and this user's state for it, in one statement: by row id when the store knows the
    card's row, else ``Store.card_query`` with the state row joined (none yet: a new card)."""
    known = store.known_card(card_id)
    if known is not None:
        return (known[0], *load_state(store, conn, known[0]))

    def build() -> Any:
        on = (states_t.c.card_id == cards_t.c.id) & (states_t.c.user_id == store.user_id)
        return store.card_query().outerjoin(states_t, on).add_columns(*states_t.c)

    row: Any = conn.execute(store.statement(("card_state",), build), {"content_id": card_id}).first()
    row_id = store.found_card(card_id, row)[0]  # StoreError for no row
    return (row_id, *_state_and_flags(row if row.card_id is not None else None))


def _state_and_flags(row: Any) -> tuple[CardState, Flags]:
    if row is None:
        return CardState(state=Phase.NEW, step=0, due=NEW_DUE), Flags()
    flags = Flags(
        row.suspended, as_utc(row.buried_until), row.leech, exists=True, fsrs_due=as_utc(row.fsrs_due)
    )
    return state_of(row), flags


# the card_states columns ``state_of`` reads: a query that builds memory states selects these
MEMORY_COLUMNS = (
    states_t.c.state,
    states_t.c.step,
    states_t.c.stability,
    states_t.c.difficulty,
    states_t.c.due,
    states_t.c.last_review,
    states_t.c.reps,
    states_t.c.lapses,
)


def state_of(row: Any) -> CardState:
    """The memory state in a card_states row (or a row with its columns; a missing row or state is new)."""
    if row is None or row.state is None or row.state == Phase.NEW.value:
        return CardState(state=Phase.NEW, step=0, due=NEW_DUE)
    return CardState(
        state=Phase(row.state),
        step=row.step,
        stability=row.stability,
        difficulty=row.difficulty,
        due=row.due,
        last_review=row.last_review,
        reps=row.reps,
        lapses=row.lapses,
    )


def _write_state(store: Store, conn: Connection, row_id: int, exists: bool, values: dict[str, Any]) -> None:
    if exists:
        conn.execute(_UPDATE_STATE, {"b_user": store.user_id, "b_card": row_id, **values})
    else:
        pack, position, retired = conn.execute(
            select(cards_t.c.pack, cards_t.c.position, cards_t.c.retired).where(cards_t.c.id == row_id)
        ).one()  # the copies the new-card order and the due-review count read (drill.store.queue)
        conn.execute(
            insert(states_t),
            {
                "user_id": store.user_id,
                "card_id": row_id,
                "card_pack": pack,
                "card_position": position,
                "card_retired": retired,
                **values,
            },
        )


def grade_in(
    store: Store,
    conn: Connection,
    card_id: str,
    rating: int,
    now: datetime,
    duration_ms: int | None = None,
    *,
    session_id: int | None = None,
    due_cap: timedelta | None = None,
) -> GradeResult:
    """``grade``'s writes inside the caller's write transaction ``conn`` (an interview answer commits its grade
    and its scorecard row together); the caller records the undo action once it has committed."""
    now = aware(now)
    rated = to_grade(rating)
    config = store.config
    row_id, before, flags = load_card(store, conn, card_id)
    # FSRS's own due, capped after a miss (drill.srs.misses): the due a cleared interview plan returns to
    own = cap_interval(schedule(before, rated, now, config, fuzz_seed=row_id), due_cap)
    outcome = apply_deadline(own, store.deadline(conn), config, fuzz_seed=row_id)
    after = outcome.after
    became_leech = is_leech(outcome, config)
    leech = flags.leech or became_leech
    suspended = flags.suspended or (became_leech and leech_suspends(config))
    is_new = before.state is Phase.NEW
    day, first_of_day = review_day_fields(now, before.last_review, config.day_starts_at, store.tz)
    first_reviews, first_passes = first_counts(first_of_day, int(rated))
    values = {
        "state": after.state.value,
        "step": after.step,
        "stability": after.stability,
        "difficulty": after.difficulty,
        "due": after.due,
        "last_review": after.last_review,
        "reps": after.reps,
        "lapses": after.lapses,
        "suspended": suspended,
        "buried_until": flags.buried_until,
        "leech": leech,
        "fsrs_due": own.after.due if outcome is not own else None,
    }
    if flags.exists:
        counters = {"b_first": first_reviews, "b_passed": first_passes}
        conn.execute(_GRADE_STATE, {"b_user": store.user_id, "b_card": row_id, **counters, **values})
    else:
        values.update(first_reviews=first_reviews, first_passes=first_passes)
        _write_state(store, conn, row_id, False, values)
    log_id = conn.execute(
        _INSERT_LOG,
        {
            "user_id": store.user_id,
            "card_id": row_id,
            "session_id": session_id,
            "rating": int(rated),
            "reviewed_at": now,
            "duration_ms": duration_ms,
            "state_before": before.state.value,
            "step_before": before.step,
            "stability_before": before.stability,
            "difficulty_before": before.difficulty,
            "due_before": None if is_new else before.due,
            "last_review_before": before.last_review,
            "reps_before": before.reps,
            "lapses_before": before.lapses,
            "suspended_before": flags.suspended,
            "buried_until_before": flags.buried_until,
            "leech_before": flags.leech,
            "fsrs_due_before": flags.fsrs_due,
            "state_after": after.state.value,
            "step_after": after.step,
            "stability_after": after.stability,
            "difficulty_after": after.difficulty,
            "due_after": after.due,
            "scheduled_days": outcome.scheduled_days,
            "elapsed_days": outcome.elapsed_days,
            "leech_after": leech,
            "study_day": day,
            "first_of_day": first_of_day,
        },
    ).scalar_one()
    count_grade(
        conn,
        store.user_id,
        row_id,
        day,
        first_of_day,
        int(rated),
        duration_ms,
        before.state.value,
        card=False,
    )
    return GradeResult(card_id, log_id, outcome, leech, became_leech, suspended)


def _committed(
    write: Callable[Concatenate[Store, Connection, P], GradeResult],
) -> Callable[Concatenate[Store, P], GradeResult]:
    """``write`` (``grade_in``) in a short write transaction of its own, its undo action recorded once it has
    committed: the same parameters, declared once."""

    def committed(store: Store, /, *args: P.args, **kwargs: P.kwargs) -> GradeResult:
        """Grade a card (1 Again, 2 Hard, 3 Good, 4 Easy) at ``now``, with ``grade_in``'s parameters but the
        connection (``due_cap``: the longest interval allowed, an interview answer's misses, drill.srs.misses).

        One short write transaction: the card's state is read, scheduled by ``drill.srs.schedule``, written
        with its review-log row (including the whole state before, for undo), the leech rule applied, and
        committed before this returns. Raises ``StoreError`` in read-only mode or when the disk is full
        (nothing is written then; the grade can be retried)."""
        with store.transaction(write=True) as conn:
            result = write(store, conn, *args, **kwargs)
        undoing.record(store, undoing.Action(undoing.GRADE, [result.card_id], log_id=result.log_id))
        return result

    return committed


grade = _committed(grade_in)  # Store.grade


def preview(store: Store, card_id: str, now: datetime) -> dict[int, datetime]:
    now = aware(now)
    with store.transaction() as conn:
        row_id = store.card_row(conn, card_id)[0]
        state, _flags = load_state(store, conn, row_id)
    deadline = store.deadline()
    return {
        grade: apply_deadline(
            schedule(state, grade, now, store.config, fuzz_seed=row_id),
            deadline,
            store.config,
            fuzz_seed=row_id,
        ).after.due
        for grade in GRADES
    }


def undo_last(store: Store) -> UndoResult | None:
    return undoing.undo(store)


def set_flags(store: Store, card_id: str, *, action: str | None = None, **values: Any) -> None:
    """Set suspended / buried_until (or, for a reset, the whole state) on a card (a "new" state row is made if
    the user has none); recorded for undo as ``action``."""
    change(store, card_id, lambda _before: values, action=action)


def change(
    store: Store,
    card_id: str,
    values_of: Callable[[dict[str, Any] | None], dict[str, Any]],
    *,
    action: str | None = None,
) -> dict[str, Any]:
    """Write ``values_of(the card's state row now, or None)`` to the card's state row in one transaction (a
    "new" row is made if the user has none); recorded for undo as ``action``. Returns the values written."""
    return change_many(store, [card_id], values_of, action=action)[card_id]


def change_many(
    store: Store,
    card_ids: Iterable[str],
    values_of: Callable[[dict[str, Any] | None], dict[str, Any]],
    *,
    action: str | None = None,
) -> dict[str, dict[str, Any]]:
    """``change`` on several cards in one transaction, recorded as one undoable action (one undo takes the
    whole bulk action back). An unknown id refuses the lot. Returns the values written, by card id."""
    ids = list(dict.fromkeys(card_ids))
    written: dict[str, dict[str, Any]] = {}
    with store.transaction(write=True) as conn:
        rows = {cid: store.card_row(conn, cid)[0] for cid in ids}
        before = undoing.snapshot(store, conn, list(rows.values()))
        for cid, row_id in rows.items():
            values = written[cid] = values_of(before[row_id])
            if before[row_id] is None:
                values = {
                    "state": Phase.NEW.value,
                    "step": 0,
                    "reps": 0,
                    "lapses": 0,
                    "suspended": False,
                    "leech": False,
                    **values,
                }
            _write_state(store, conn, row_id, before[row_id] is not None, values)
    if action is not None and ids:
        undoing.record(store, undoing.Action(action, ids, before))
    return written


def set_flag(store: Store, card_id: str, flag: int) -> None:
    if isinstance(flag, bool) or not isinstance(flag, int) or flag not in FLAGS:
        raise StoreError(f"flag {flag!r} for {card_id}: choose 0 (none) to {FLAGS[-1]}")
    change(store, card_id, lambda _before: {"flag": flag}, action=undoing.FLAG)


def toggle_mark(store: Store, card_id: str) -> bool:
    written = change(
        store,
        card_id,
        lambda before: {"marked": not (before or {}).get("marked", False)},
        action=undoing.MARK,
    )
    return bool(written["marked"])


def bury(store: Store, card_id: str, now: datetime) -> None:
    bulk(store, undoing.BURY, [card_id], now)


_BULK = {undoing.SUSPEND: True, undoing.UNSUSPEND: False, undoing.BURY: None, undoing.UNBURY: None}


def bulk(store: Store, action: str, card_ids: Iterable[str], now: datetime) -> None:
    """Suspend, unsuspend, bury or unbury several cards in one transaction, undone as one action."""
    if action not in _BULK:
        raise StoreError(f"{action!r} on several cards: choose one of {', '.join(_BULK)}")
    if action in (undoing.SUSPEND, undoing.UNSUSPEND):
        values: dict[str, Any] = {"suspended": _BULK[action]}
    else:
        until = next_day_start(aware(now), store.config.day_starts_at, store.tz)
        values = {"buried_until": until if action == undoing.BURY else None}
    change_many(store, card_ids, lambda _before: values, action=action)


def make_due_now(store: Store, card_ids: Iterable[str], now: datetime) -> int:
    now = aware(now)
    ids = list(dict.fromkeys(card_ids))
    if not ids:
        return 0
    with store.transaction(write=True) as conn:
        rows: list[int] = []
        names: dict[int, str] = {}
        for cid in ids:
            try:
                rows.append(store.card_row(conn, cid)[0])
                names[rows[-1]] = cid
            except StoreError:
                continue
        if not rows:
            return 0
        changing = [
            r[0]
            for r in conn.execute(
                select(states_t.c.card_id).where(
                    states_t.c.user_id == store.user_id,
                    states_t.c.card_id.in_(rows),
                    states_t.c.state != Phase.NEW.value,
                    states_t.c.due > now,
                )
            )
        ]
        if not changing:
            return 0
        before = undoing.snapshot(store, conn, changing)
        conn.execute(
            update(states_t)
            .where(states_t.c.user_id == store.user_id, states_t.c.card_id.in_(changing))
            .values(due=now, fsrs_due=None)  # the learner's own choice: nothing for a plan to put back
        )
    undoing.record(store, undoing.Action(undoing.MAKE_DUE, [names.get(r, "") for r in changing], before))
    return len(changing)
