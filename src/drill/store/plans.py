"""Interview day in the store: a user's plan (date and target), and the card dues it pulls in.

Setting a plan pulls in every card already scheduled past the day whose recall on the day would fall below the
target (``drill.srs.deadline.planned_due``), keeping FSRS's own due in ``card_states.fsrs_due``; while the plan
holds, ``reviewing.grade`` does the same for each new grade. Clearing the plan (or the day passing: ``current``
clears a plan whose day is over) puts every kept due back, so plain FSRS resumes with nothing lost.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

from sqlalchemy import and_, bindparam, delete, select, update

from drill.srs import CardState, Phase
from drill.srs.days import day_start
from drill.srs.deadline import DEFAULT_TARGET, Deadline, planned_due
from drill.store.reviewing import MEMORY_COLUMNS, state_of
from drill.store.tables import cards_t, insert_ignore, logs_t, plans_t, states_t
from drill.store.times import aware

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy import Connection, Select

    from drill.store.api import Store


@dataclass(frozen=True, slots=True)
class Plan:
    interview_day: date
    target: float
    set_at: datetime


def deadline_of(store: Store, plan: Plan | None) -> Deadline | None:
    """The moment recall is judged: the start of the interview's study day (the store's day boundary)."""
    if plan is None:
        return None
    return Deadline(
        at=day_start(plan.interview_day, store.config.day_starts_at, store.tz), target=plan.target
    )


def load(store: Store, conn: Connection) -> Plan | None:
    row = conn.execute(select(plans_t).where(plans_t.c.user_id == store.user_id)).first()
    return None if row is None else Plan(row.interview_day, row.target, aware(row.set_at))


def current(store: Store, now: datetime) -> Plan | None:
    """The user's plan, or None; a plan whose day has begun is cleared first (plain FSRS from then on)."""
    with store.transaction() as conn:
        plan = load(store, conn)
    if plan is not None and aware(now) >= deadline_of(store, plan).at and not store.readonly:
        clear(store)
        return None
    return plan


def card_states_query(user_id: int, packs: Collection[str] | None) -> Select:
    """card_states's query: (pack, position, content id, section, memory columns) of the user's unretired,
    unsuspended cards in ``packs`` (None: every pack), in content order; a card without a state row is new.
    drill.tui.models.interview_peek runs it written out for sqlite3, checked against this by digest."""
    join = cards_t.outerjoin(
        states_t, and_(states_t.c.card_id == cards_t.c.id, states_t.c.user_id == user_id)
    )
    query = (
        select(
            cards_t.c.pack,
            cards_t.c.position,
            cards_t.c.content_id,
            cards_t.c.section,
            *MEMORY_COLUMNS,
        )
        .select_from(join)
        .where(cards_t.c.retired.is_(False), states_t.c.suspended.is_not(True))
        .order_by(cards_t.c.pack, cards_t.c.position, cards_t.c.id)
    )
    return query if packs is None else query.where(cards_t.c.pack.in_(packs))


def card_states(store: Store, packs: Collection[str] | None = None) -> list[tuple[str, str, CardState]]:
    """(content id, section, memory state) of every card the user studies in ``packs`` (default: the store's
    studied packs, or every pack when none is set), in content order: retired and suspended cards left out (the
    plan never shows them); a card never graded is new, and so is a card of the content a read-only store could
    not add (``Store.unsynced``: what a writing open would sync in)."""
    packs = store.packs if packs is None else tuple(packs)
    query = card_states_query(store.user_id, packs)
    with store.transaction() as conn:
        rows = [
            ((row.pack, row.position), (row.content_id, row.section, state_of(row)))
            for row in conn.execute(query)
        ]
    if store.unsynced:
        new = state_of(None)
        rows += [
            ((pack, pos), (cid, section, new))
            for pack, cid, section, pos in store.unsynced
            if packs is None or pack in packs
        ]
        rows.sort(key=lambda keyed: keyed[0])
    return [card for _key, card in rows]


def review_durations(store: Store) -> list[tuple[str, int]]:
    """(content id, duration in ms) of each of the user's timed grades of a card in the studied packs (all
    packs when the store has none), in no particular order: the plan's minutes per skill. Read through the
    pack's cards (the review log's card index), so other packs' history, however long, is never read."""
    query = (
        select(cards_t.c.content_id, logs_t.c.duration_ms)
        .select_from(cards_t.join(logs_t, logs_t.c.card_id == cards_t.c.id))
        # ``user_id + 0``: not an index term, so SQLite drives the join from the pack's cards (the card
        # index of the log) instead of reading every grade of the user through a (user_id, ...) index,
        # which it picks when the log's statistics are missing (a migration's rebuild drops them)
        .where((logs_t.c.user_id + 0) == store.user_id, logs_t.c.duration_ms > 0)
    )
    if store.packs is not None:
        query = query.where(cards_t.c.pack.in_(store.packs))
    with store.transaction() as conn:
        return [(row.content_id, row.duration_ms) for row in conn.execute(query)]


def _restore(store: Store, conn: Connection) -> int:
    return (
        conn.execute(
            update(states_t)
            .where(states_t.c.user_id == store.user_id, states_t.c.fsrs_due.is_not(None))
            .values(due=states_t.c.fsrs_due, fsrs_due=None)
        ).rowcount
        or 0
    )


def set_plan(store: Store, interview_day: date, target: float, now: datetime) -> int:
    """Set (or move) the user's interview day; returns how many card dues the plan pulled in (of the studied
    packs' cards when the store has them: another pack's cards, however many, are not read)."""
    now = aware(now)
    plan = Plan(interview_day, target, now)
    deadline = deadline_of(store, plan)  # validates the target
    if deadline.at <= now:
        from drill.errors import InputError

        raise InputError(
            f"the interview day {interview_day.isoformat()} has already begun: give a later date"
        )
    with store.transaction(write=True) as conn:
        _restore(store, conn)
        conn.execute(delete(plans_t).where(plans_t.c.user_id == store.user_id))
        conn.execute(
            insert_ignore(conn, plans_t),
            {"user_id": store.user_id, "interview_day": interview_day, "target": target, "set_at": now},
        )
        query = select(states_t.c.card_id, *MEMORY_COLUMNS).where(
            states_t.c.user_id == store.user_id,
            states_t.c.state != Phase.NEW.value,
            states_t.c.due > deadline.at,
        )
        if store.packs is not None:
            # the studied packs' cards, as the forecast: (user, pack, suspended, due) is the pack-due index,
            # ``suspended IN (false, true)`` lets the due range use it (every card, suspended or not)
            query = query.where(
                states_t.c.card_pack.in_(store.packs), states_t.c.suspended.in_((False, True))
            )
        rows = conn.execute(query).all()
        moved = []
        for row in rows:
            state = state_of(row)
            due = planned_due(state, deadline, store.config)
            if due < state.due:
                moved.append({"b_card": row.card_id, "b_due": due, "b_own": state.due})
        if moved:
            conn.execute(
                update(states_t)
                .where(states_t.c.user_id == store.user_id, states_t.c.card_id == bindparam("b_card"))
                .values(due=bindparam("b_due"), fsrs_due=bindparam("b_own")),
                moved,
            )
    store.plan_changed()
    return len(moved)


def clear(store: Store) -> int:
    """Remove the plan; returns how many card dues went back to FSRS's own."""
    with store.transaction(write=True) as conn:
        restored = _restore(store, conn)
        conn.execute(delete(plans_t).where(plans_t.c.user_id == store.user_id))
    store.plan_changed()
    return restored


__all__ = [
    "DEFAULT_TARGET",
    "Plan",
    "card_states",
    "clear",
    "current",
    "deadline_of",
    "load",
    "review_durations",
    "set_plan",
]
