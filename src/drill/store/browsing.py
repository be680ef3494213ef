"""Browsing: the card list with states (``Store.browse``), one card's details and history
(``Store.card_info``), and the review log (``Store.review_logs``). Read-only."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import and_, func, or_, select

from drill.errors import StoreError
from drill.srs import Phase, retrievability
from drill.store.queue import in_scope
from drill.store.reviewing import load_state
from drill.store.tables import cards_t, logs_t, states_t
from drill.store.times import as_utc, aware
from drill.store.types import (
    BROWSE_STATES,
    BURIED,
    FLAGS,
    LEECH,
    MARKED,
    NO_FLAG,
    SUSPENDED,
    BrowseRow,
    CardInfo,
    ReviewEntry,
)

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy import Connection

    from drill.store.api import Store


def entries(store: Store, conn: Connection, where) -> list[ReviewEntry]:
    """This user's review-log rows matching ``where``, in review order."""
    rows = conn.execute(
        select(logs_t, cards_t.c.content_id, cards_t.c.pack, cards_t.c.section)
        .join(cards_t, cards_t.c.id == logs_t.c.card_id)
        .where(logs_t.c.user_id == store.user_id, *where)
        .order_by(logs_t.c.reviewed_at, logs_t.c.id)
    )
    return [
        ReviewEntry(
            log_id=r.id,
            card_id=r.content_id,
            pack=r.pack,
            section=r.section,
            rating=r.rating,
            reviewed_at=as_utc(r.reviewed_at),
            duration_ms=r.duration_ms,
            state_before=Phase(r.state_before),
            state_after=Phase(r.state_after),
            stability_after=r.stability_after,
            difficulty_after=r.difficulty_after,
            due_after=as_utc(r.due_after),
            scheduled_days=r.scheduled_days,
            elapsed_days=r.elapsed_days,
            session_id=r.session_id,
        )
        for r in rows
    ]


def card_info(store: Store, card_id: str, now: datetime | None = None) -> CardInfo:
    now = aware(now) if now is not None else datetime.now(UTC)
    with store.transaction() as conn:
        row_id, pack, section = store.card_row(conn, card_id)
        retired = conn.execute(select(cards_t.c.retired).where(cards_t.c.id == row_id)).scalar_one()
        state, flags = load_state(store, conn, row_id)
        flag, marked = _marks(store, conn, row_id)
        history = entries(store, conn, [logs_t.c.card_id == row_id])
    is_new = state.state is Phase.NEW
    return CardInfo(
        card_id=card_id,
        pack=pack,
        section=section,
        retired=bool(retired),
        kind=state.state,
        step=state.step,
        stability=state.stability,
        difficulty=state.difficulty,
        retrievability=None if is_new else retrievability(state, now, store.config),
        due=None if is_new else state.due,
        last_review=state.last_review,
        reps=state.reps,
        lapses=state.lapses,
        suspended=flags.suspended,
        buried_until=flags.buried_until,
        leech=flags.leech,
        history=history,
        flag=flag,
        marked=marked,
    )


def card_marks(store: Store, card_id: str) -> tuple[int, bool]:
    """The card's flag (FLAGS) and whether it is marked: what study shows in its header."""
    with store.transaction() as conn:
        return _marks(store, conn, store.card_row(conn, card_id)[0])


def _marks(store: Store, conn: Connection, row_id: int) -> tuple[int, bool]:
    found = conn.execute(
        select(states_t.c.flag, states_t.c.marked).where(
            states_t.c.user_id == store.user_id, states_t.c.card_id == row_id
        )
    ).first()
    return (NO_FLAG, False) if found is None else (found.flag, bool(found.marked))


def browse(
    store: Store,
    text: str | None = None,
    section: str | None = None,
    state: str | None = None,
    *,
    now: datetime | None = None,
    limit: int | None = None,
    flag: int | None = None,
) -> list[BrowseRow]:
    if state is not None and state not in BROWSE_STATES:
        raise StoreError(f"unknown card state {state!r}; choose one of {', '.join(BROWSE_STATES)}")
    if flag is not None and (isinstance(flag, bool) or flag not in FLAGS):
        raise StoreError(f"unknown flag {flag!r}; choose 0 (none) to {FLAGS[-1]}")
    now = aware(now) if now is not None else datetime.now(UTC)
    join = cards_t.outerjoin(
        states_t, and_(states_t.c.card_id == cards_t.c.id, states_t.c.user_id == store.user_id)
    )
    query = in_scope(
        store,
        select(
            cards_t.c.content_id,
            cards_t.c.pack,
            cards_t.c.section,
            states_t.c.state,
            states_t.c.due,
            states_t.c.stability,
            states_t.c.difficulty,
            states_t.c.reps,
            states_t.c.lapses,
            states_t.c.suspended,
            states_t.c.buried_until,
            states_t.c.leech,
            states_t.c.flag,
            states_t.c.marked,
        ).select_from(join),
        section,
    )
    if text:
        pattern = f"%{_escape_like(text.lower())}%"
        query = query.where(
            or_(
                func.lower(cards_t.c.content_id).like(pattern, escape="\\"),
                func.lower(cards_t.c.section).like(pattern, escape="\\"),
            )
        )
    new_cond = or_(states_t.c.card_id.is_(None), states_t.c.state == Phase.NEW.value)
    if state == Phase.NEW.value:
        query = query.where(new_cond)
    elif state in (Phase.LEARNING.value, Phase.REVIEW.value, Phase.RELEARNING.value):
        query = query.where(states_t.c.state == state)
    elif state == SUSPENDED:
        query = query.where(states_t.c.suspended == True)  # noqa: E712
    elif state == BURIED:
        query = query.where(states_t.c.buried_until > now)
    elif state == LEECH:
        query = query.where(states_t.c.leech == True)  # noqa: E712
    elif state == MARKED:
        query = query.where(states_t.c.marked == True)  # noqa: E712
    if flag == NO_FLAG:
        query = query.where(or_(states_t.c.card_id.is_(None), states_t.c.flag == NO_FLAG))
    elif flag is not None:
        query = query.where(states_t.c.flag == flag)
    query = query.order_by(cards_t.c.pack, cards_t.c.position, cards_t.c.id)
    if limit is not None:
        query = query.limit(limit)
    with store.transaction() as conn:
        rows = conn.execute(query).all()
    return [
        BrowseRow(
            card_id=r.content_id,
            pack=r.pack,
            section=r.section,
            kind=Phase(r.state or Phase.NEW.value),
            due=None if r.state in (None, Phase.NEW.value) else as_utc(r.due),
            stability=r.stability,
            difficulty=r.difficulty,
            reps=r.reps or 0,
            lapses=r.lapses or 0,
            suspended=bool(r.suspended),
            buried=r.buried_until is not None and as_utc(r.buried_until) > now,
            leech=bool(r.leech),
            flag=r.flag or NO_FLAG,
            marked=bool(r.marked),
        )
        for r in rows
    ]


def review_logs(store: Store, since: datetime | None = None) -> list[ReviewEntry]:
    where = [] if since is None else [logs_t.c.reviewed_at >= aware(since, "since")]
    with store.transaction() as conn:
        return entries(store, conn, where)


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
