"""The review queue: which card comes next and how much is left today (``Store.next_card``, ``Store.counts``).

``choose`` is the one due-vs-new rule, shared by ``next_card`` and the read-only first-card peek
(drill.store.peek). The peek imports this module without SQLAlchemy, so the statement builders below import
it when they are called (a store is open by then).

Per-grade work is bounded by the day's limits, not by the collection: ``counts`` counts due review cards and
new cards only up to what is left of the daily limits (a ``LIMIT`` subquery stops the index scan there).
What today's grades used of those limits is the day's row of study_day_totals, read by its key (as Anki keeps
a day's counters), not a count of today's review-log rows, which grows with what the day held. What "study
more today" added to today's limits is the day's row of study_day_extras (drill.store.extras), read by its
key too and added to both limits (``_left``), for ``next_card``, ``counts`` and the peek alike.
Learning and relearning cards have no daily limit and are counted in full, from the partial index
ix_card_states_pack_not_review, so due reviews are not read for it; due reviews are counted (without a section)
from ix_card_states_pack_review alone, which holds the state rows' copies of the card's pack and retired flag
(``due_reviews``), so neither state rows nor card rows are read for them. New cards are read in content order from
ix_card_states_pack_due through the state rows' copies of their card's pack and position (kept by
drill.store.sync), not sorted. Every statement names the studied packs on the state rows' own copy
(``card_pack``), the indexes' second column: cards of other packs in the table are never read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from drill.srs import Phase, remaining_today
from drill.srs.rules import learn_ahead
from drill.store.times import as_utc, aware
from drill.store.types import Counts, DueCard

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy import Connection, Select

    from drill.store.api import Store


def choose(
    done_by_state: Mapping[str, int],
    config: Any,
    first_due: Callable[[bool], Sequence | None],
    first_new: Callable[[], Sequence | None],
    first_ahead: Callable[[timedelta], Sequence | None] | None = None,
    extra: Sequence[int] = (0, 0),
) -> DueCard | None:
    """The card to show: due learning/relearning/review cards first (reviews only within the daily review
    limit), then a new card within the daily new limit, then (learn-ahead, `drill.srs.rules.learn_ahead`) a
    learning/relearning card due within ``learn_ahead_minutes``; None when nothing is left today.

    ``done_by_state``: today's grades counted by the state before the grade; ``first_due(include_reviews)``
    and ``first_ahead(ahead)`` (the first learning/relearning card due by now + ``ahead``) return
    (content_id, pack, section, state, due, reps, lapses) or None; ``first_new()`` returns
    (content_id, pack, section) or None; ``extra``: (new cards, reviews) "study more today" added to today's
    limits (`extra_of`).
    """
    new_left, reviews_left = _left(done_by_state, config, extra)
    row = first_due(reviews_left > 0)
    if row is None and new_left > 0:
        new = first_new()
        if new is not None:
            content_id, pack, section = new[:3]
            return DueCard(content_id, pack, section, Phase.NEW, None, 0, 0)
    ahead = learn_ahead(config)
    if row is None and first_ahead is not None and ahead:
        row = first_ahead(ahead)
    if row is None:
        return None
    content_id, pack, section, state, due, reps, lapses = row
    return DueCard(content_id, pack, section, Phase(state), due, reps, lapses)


def _left(done_by_state: Mapping[str, int], config: Any, extra: Sequence[int] = (0, 0)) -> tuple[int, int]:
    """(new cards, review cards) still allowed today: the daily limits plus today's ``extra``, less today's
    grades."""
    return remaining_today(
        done_by_state.get(Phase.NEW.value, 0),
        done_by_state.get(Phase.REVIEW.value, 0),
        config,
        extra[0],
        extra[1],
    )


# -- statements (each built once per store and set of packs: ``Store.statement``) ----------------------------


def in_packs(column: Any, packs: Sequence[str]) -> Any:
    """``column IN (packs)`` with one bound parameter a pack, named as SQLAlchemy names an expanding IN's
    (``pack_1_1``, ...): the same SQL and parameters, without expanding the list at every execution (the
    statements are built once per set of packs, ``Store.statement``)."""
    from sqlalchemy import bindparam

    return column.in_(
        [bindparam(f"{column.name}_1_{i}", pack, type_=column.type) for i, pack in enumerate(packs, 1)]
    )


def in_scope(store: Store, query: Select, section: str | None = None) -> Select:
    """``query`` restricted to the cards being studied: not retired, in the store's packs, in ``section``."""
    from drill.store.tables import cards_t

    query = query.where(cards_t.c.retired == False)  # noqa: E712 (SQL expression)
    if store.packs is not None:
        query = query.where(in_packs(cards_t.c.pack, store.packs))
    if section is not None:
        query = query.where(cards_t.c.section == section)
    return query


def day_query(store: Store) -> Select:
    """Today's grades and "study more today" (parameter ``day``, the study day's number), in one row:
    (all grades, of new cards, of review cards, extra new, extra reviews) — the day's row of
    study_day_totals, which Store.grade and undo keep (drill.store.review_days; not today's log rows, whose
    number is whatever the day held), and of study_day_extras (drill.store.extras), each read by its key and
    joined to the user's row (NULLs for a day without one; no row at all for an unknown user)."""
    from sqlalchemy import Integer, and_, bindparam, select

    from drill.store.tables import days_t, extras_t, users_t

    day = bindparam("day", type_=Integer())
    totals = and_(days_t.c.user_id == users_t.c.id, days_t.c.study_day == day)
    extras = and_(extras_t.c.user_id == users_t.c.id, extras_t.c.study_day == day)
    return (
        select(
            days_t.c.reviews,
            days_t.c.new_grades,
            days_t.c.review_grades,
            extras_t.c.extra_new,
            extras_t.c.extra_reviews,
        )
        .select_from(users_t.outerjoin(days_t, totals).outerjoin(extras_t, extras))
        .where(users_t.c.id == store.user_id)
    )


def _studied(store: Store, section: str | None, *columns: Any, due: str) -> Select:
    """This user's unsuspended, unburied state rows joined to their cards in scope (parameter ``now``);
    ``due`` picks the rows: "due" (due <= now), "later" (due > now) or "new" (due IS NULL). Every one of
    them is a range of ix_card_states_pack_due (user_id, card_pack, suspended, due)."""
    from sqlalchemy import bindparam, or_, select

    from drill.store.models import UTCDateTime
    from drill.store.tables import cards_t, states_t

    now = bindparam("now", type_=UTCDateTime())
    rows = {"due": states_t.c.due <= now, "later": states_t.c.due > now, "new": states_t.c.due.is_(None)}[due]
    query = (
        select(*columns)
        .select_from(states_t.join(cards_t, cards_t.c.id == states_t.c.card_id))
        .where(
            states_t.c.user_id == store.user_id,
            states_t.c.suspended == False,  # noqa: E712
            rows,
            or_(states_t.c.buried_until.is_(None), states_t.c.buried_until <= now),
        )
    )
    if store.packs is not None:  # the indexes' pack column (the same as cards.pack, kept by sync_content)
        query = query.where(in_packs(states_t.c.card_pack, store.packs))
    return in_scope(store, query, section)


def due_query(store: Store, section: str | None, include_reviews: bool) -> Select:
    """Due cards, earliest first (parameter ``now``): (content_id, pack, section, state, due, reps, lapses)."""
    from drill.store.tables import cards_t, states_t

    query = _studied(
        store,
        section,
        cards_t.c.content_id,
        cards_t.c.pack,
        cards_t.c.section,
        states_t.c.state,
        states_t.c.due,
        states_t.c.reps,
        states_t.c.lapses,
        due="due",
    )
    if not include_reviews:
        # 'review' inline, not a bound parameter: the planners match this term against the WHERE of the
        # partial index ix_card_states_pack_not_review (models.NOT_REVIEW), so due reviews are not read.
        from sqlalchemy import literal_column

        query = query.where(states_t.c.state != literal_column(f"'{Phase.REVIEW.value}'"))
    return query.order_by(states_t.c.due)


def new_query(store: Store, section: str | None) -> Select:
    """New cards in content order (parameter ``now``): (content_id, pack, section).

    ``sync_content`` gives this user a state row for every card ("new", due NULL), so new cards are found
    through ix_card_states_pack_due rather than by scanning every card for a missing row. A read-only store
    could not write those rows: it looks for missing rows too (slower, still right).
    """
    from sqlalchemy import and_, bindparam, or_, select

    from drill.store.models import UTCDateTime
    from drill.store.tables import cards_t, states_t

    columns = (cards_t.c.content_id, cards_t.c.pack, cards_t.c.section)
    if (
        not store.readonly
    ):  # ix_card_states_pack_due's order after (user_id, card_pack, suspended, due IS NULL)
        order = (states_t.c.card_pack, states_t.c.card_position, states_t.c.card_id)
        return _studied(store, section, *columns, due="new").order_by(*order)
    order = (cards_t.c.pack, cards_t.c.position, cards_t.c.id)
    now = bindparam("now", type_=UTCDateTime())
    new_row = and_(
        states_t.c.due.is_(None),
        states_t.c.suspended == False,  # noqa: E712
        or_(states_t.c.buried_until.is_(None), states_t.c.buried_until <= now),
    )
    join = cards_t.outerjoin(
        states_t, and_(states_t.c.card_id == cards_t.c.id, states_t.c.user_id == store.user_id)
    )
    query = select(*columns).select_from(join).where(or_(states_t.c.card_id.is_(None), new_row))
    return in_scope(store, query, section).order_by(*order)


def due_reviews(store: Store, section: str | None) -> Select:
    """Due review cards (parameter ``now``), for counting. Without a section this is a range of the partial
    index ix_card_states_pack_review, which holds every column named here (the state rows' copies of the
    card's pack and retired flag): no state row and no card row is read. A section is the card's own column,
    so with one the cards are joined (``due_query``)."""
    from sqlalchemy import bindparam, literal, literal_column, or_, select

    from drill.store.models import REVIEW, UTCDateTime
    from drill.store.tables import states_t

    review: Any = literal_column(REVIEW)  # inline, as the partial index's WHERE, so the planners can match it
    if section is not None:
        return due_query(store, section, True).where(review)
    now = bindparam("now", type_=UTCDateTime())
    query = (
        select(literal(1))
        .select_from(states_t)
        .where(
            states_t.c.user_id == store.user_id,
            states_t.c.suspended == False,  # noqa: E712
            states_t.c.due <= now,
            or_(states_t.c.buried_until.is_(None), states_t.c.buried_until <= now),
            states_t.c.card_retired == False,  # noqa: E712
            review,
        )
    )
    if store.packs is not None:
        query = query.where(in_packs(states_t.c.card_pack, store.packs))
    return query


def next_card_statements(store: Store, section: str | None) -> dict[str, Select]:
    """The statements ``next_card`` runs, by name (the peek's plan records their digests)."""
    return {
        "day": day_query(store),
        "due": due_query(store, section, True).limit(1),
        "due_no_reviews": due_query(store, section, False).limit(1),
        "new": new_query(store, section).limit(1),
    }


def count_statements(store: Store, section: str | None) -> dict[str, Select]:
    """The statements ``counts`` runs: the day's row, then every count in one row (parameters ``now``,
    ``review_limit`` and ``new_limit``), each count a subquery reading its own index range."""
    from sqlalchemy import bindparam, func, literal, select

    from drill.store.tables import states_t

    def upto(query: Select, limit: str) -> Any:
        """How many rows ``query`` gives, counting no further than ``limit``: the scan stops there."""
        limited = query.with_only_columns(literal(1)).order_by(None).limit(bindparam(limit)).subquery()
        return select(func.count()).select_from(limited).scalar_subquery()

    learning = due_query(store, section, False).with_only_columns(func.count()).order_by(None)
    # The earliest later due: the first row of an index range (SQLite's min() would read them all here).
    next_due = _studied(store, section, states_t.c.due, due="later").order_by(states_t.c.due).limit(1)
    return {
        "day": day_query(store),
        "counts": select(
            learning.scalar_subquery(),
            upto(due_reviews(store, section), "review_limit"),
            upto(new_query(store, section), "new_limit"),
            next_due.scalar_subquery(),
        ),
    }


# -- the queue -----------------------------------------------------------------------------------------------


def done_by_state(
    store: Store, conn: Connection, now: datetime, statement: Select
) -> tuple[dict[str, int], tuple[int, int]]:
    """Today's grades by state and today's extra limits (`of_day` of the day statement's row)."""
    from drill.store.review_days import day_number

    day = {"day": day_number(now, store.config.day_starts_at, store.tz)}
    return of_day(conn.execute(statement, day).first())


def of_day(row: Sequence | None) -> tuple[dict[str, int], tuple[int, int]]:
    """The day statement's row (``day_query``) as today's grades by state (`by_state`) and today's extra
    limits (`extra_of`)."""
    if row is None:
        return by_state(None), extra_of(None)
    return by_state(None if row[0] is None else row[:3]), extra_of(None if row[3] is None else row[3:])


def extra_of(row: Sequence | None) -> tuple[int, int]:
    """The extra statement's row as (extra new cards, extra reviews) for today; (0, 0) without a row."""
    if row is None:
        return 0, 0
    return int(row[0] or 0), int(row[1] or 0)


def by_state(row: Sequence | None) -> dict[str, int]:
    """The done statement's row as today's grades by the state before the grade ("learning": learning and
    relearning together; the daily limits count only new and review grades)."""
    if row is None:
        return {}
    total, new, review = (int(n or 0) for n in row)
    return {Phase.NEW.value: new, Phase.REVIEW.value: review, Phase.LEARNING.value: total - new - review}


def next_card(store: Store, now: datetime, section: str | None = None, *, new: bool = True) -> DueCard | None:
    """``choose`` on the store's rows; ``new=False``: no new card may come (a session's ``--new N`` is used
    up), so learn-ahead cards still do."""
    now = aware(now)
    statements = store.statement(("next", section), lambda: next_card_statements(store, section))

    def first(name: str, until: datetime = now) -> tuple | None:
        row = conn.execute(statements[name], {"now": until}).first()
        return None if row is None else tuple(row)

    with store.transaction() as conn:
        done, extra = done_by_state(store, conn, now, statements["day"])
        return choose(
            done,
            store.config,
            lambda include_reviews: first("due" if include_reviews else "due_no_reviews"),
            lambda: first("new") if new else None,
            lambda ahead: first("due_no_reviews", now + ahead),
            extra,
        )


def counts(store: Store, now: datetime, section: str | None = None) -> Counts:
    now = aware(now)
    statements = store.statement(("counts", section), lambda: count_statements(store, section))

    with store.transaction() as conn:
        by_state, extra = done_by_state(store, conn, now, statements["day"])
        new_left, reviews_left = _left(by_state, store.config, extra)
        # One row past what is left: whether the daily limit holds cards back (the scan stops there).
        limits = {"review_limit": reviews_left + 1, "new_limit": new_left + 1}
        learning, review, new, next_due = conn.execute(statements["counts"], {"now": now, **limits}).one()
    return Counts(
        due=learning + min(review, reviews_left),
        new=min(new, new_left),
        done_today=sum(by_state.values()),
        new_today=by_state.get(Phase.NEW.value, 0),
        reviews_today=by_state.get(Phase.REVIEW.value, 0),
        next_due=as_utc(next_due),
        learning=learning,
        review=min(review, reviews_left),
        extra_new=extra[0],
        extra_reviews=extra[1],
        new_held=new > new_left,
        reviews_held=review > reviews_left,
    )
