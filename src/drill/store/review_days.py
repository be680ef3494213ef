"""The study day of a grade, recorded in its review-log row so reports never recompute it per row.

``study_day`` is the local study day (drill.srs.days.study_day: the zone's date, hours before ``day_starts_at``
counting as the day before) as a day number, days since 1970-01-01. ``first_of_day`` is true when the grade
is the card's first of its study day: the card had no earlier review, or it fell on an earlier study day.
Store.grade, the 0003 migration's backfill and the test fixtures all call ``review_day_fields``.
"""

from __future__ import annotations

from datetime import date, datetime, tzinfo

from drill.srs.days import study_day

EPOCH_DAY = date(1970, 1, 1)
NEW, REVIEW = "new", "review"  # drill.srs.Phase's values, as review_logs.state_before holds them


def day_number(moment: datetime, day_starts_at: int, tz: tzinfo | None) -> int:
    return (study_day(moment, day_starts_at, tz) - EPOCH_DAY).days


def review_day_fields(
    reviewed_at: datetime, previous: datetime | None, day_starts_at: int, tz: tzinfo | None
) -> tuple[int, bool]:
    """(study day number, first of the card's study day) for a grade at ``reviewed_at`` whose card was last
    reviewed at ``previous`` (None: never)."""
    day = day_number(reviewed_at, day_starts_at, tz)
    return day, previous is None or day_number(previous, day_starts_at, tz) < day


# -- summaries kept at write time ----------------------------------------------------------------------
# study_day_totals (reviews, answer ms, and the grades of new and of review cards, per user and study day) and
# card_states.first_reviews/first_passes (true retention per card) are sums over review_logs. Store.grade adds a grade's share and undo_last takes
# it back (``count_grade``); ``rebuild_summaries`` recomputes both from the log (migration backfill, bulk
# loads). tests/store checks that the two agree.


_STATEMENTS: dict[str, dict[str, object]] = {}


def _statements(dialect: str) -> dict[str, object]:
    """count_grade's statements for one dialect, built once (building SQLAlchemy statements costs more than
    running them)."""
    if dialect not in _STATEMENTS:
        from sqlalchemy import bindparam, update

        from drill.store.tables import days_t as days
        from drill.store.tables import states_t as states

        day = (
            update(days)
            .where(days.c.user_id == bindparam("b_user"), days.c.study_day == bindparam("b_day"))
            .values(
                reviews=days.c.reviews + bindparam("b_n"),
                duration_ms=days.c.duration_ms + bindparam("b_ms"),
                new_grades=days.c.new_grades + bindparam("b_new"),
                review_grades=days.c.review_grades + bindparam("b_review"),
            )
        )
        card = (
            update(states)
            .where(states.c.user_id == bindparam("b_user"), states.c.card_id == bindparam("b_card"))
            .values(
                first_reviews=states.c.first_reviews + bindparam("b_n"),
                first_passes=states.c.first_passes + bindparam("b_passed"),
            )
        )
        _STATEMENTS[dialect] = {"day": day, "upsert_day": _upsert_day(days, dialect), "card": card}
    return _STATEMENTS[dialect]


def _upsert_day(days, dialect: str):
    """INSERT … ON CONFLICT DO UPDATE where the database has it: two sessions of one user making the first
    grade of a study day at once both count (an update-then-insert would fail one of them on PostgreSQL)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:
        return None
    stmt = insert(days)
    return stmt.on_conflict_do_update(
        index_elements=[days.c.user_id, days.c.study_day],
        set_={
            "reviews": days.c.reviews + stmt.excluded.reviews,
            "duration_ms": days.c.duration_ms + stmt.excluded.duration_ms,
            "new_grades": days.c.new_grades + stmt.excluded.new_grades,
            "review_grades": days.c.review_grades + stmt.excluded.review_grades,
        },
    )


def count_grade(
    conn,
    user_id: int,
    card_id: int,
    day: int,
    first_of_day: bool,
    rating: int,
    duration_ms: int | None,
    state_before: str,
    sign: int = 1,
    *,
    card: bool = True,
) -> None:
    """Add (sign=1) or take back (sign=-1) one grade's share of the summaries (``state_before``: the card's
    state before the grade, drill.srs.Phase's value); ``card=False``: the day's totals only, the caller writes
    the card's share (``first_counts``) with the card's state row (Store.grade: one UPDATE of that row)."""
    statements = _statements(conn.dialect.name)
    ms = sign * (duration_ms or 0)
    new = sign if state_before == NEW else 0
    review = sign if state_before == REVIEW else 0
    new_row = {
        "user_id": user_id,
        "study_day": day,
        "reviews": 1,
        "duration_ms": ms,
        "new_grades": new,
        "review_grades": review,
    }
    if sign > 0 and statements["upsert_day"] is not None:
        conn.execute(statements["upsert_day"], new_row)
    else:
        changed = conn.execute(
            statements["day"],
            {"b_user": user_id, "b_day": day, "b_n": sign, "b_ms": ms, "b_new": new, "b_review": review},
        ).rowcount
        if not changed and sign > 0:
            # Other databases: serialised writes are the caller's affair.
            from sqlalchemy import insert

            from drill.store.tables import days_t

            conn.execute(insert(days_t), new_row)
    reviews, passes = first_counts(first_of_day, rating, sign)
    if card and reviews:
        conn.execute(
            statements["card"], {"b_user": user_id, "b_card": card_id, "b_n": reviews, "b_passed": passes}
        )


def first_counts(first_of_day: bool, rating: int, sign: int = 1) -> tuple[int, int]:
    """A grade's share (sign=1; sign=-1 takes it back) of its card's (first_reviews, first_passes): a first
    grade of the card's study day counts, and passes unless it is Again (1)."""
    if not first_of_day:
        return 0, 0
    return sign, sign if rating != 1 else 0


def rebuild_summaries(conn, grade_counts: bool = True) -> None:
    """Recompute study_day_totals and the first-of-day counters of card_states from review_logs
    (``grade_counts=False``: without study_day_totals' new_grades/review_grades, for migrations before 0011)."""
    from sqlalchemy import (
        Boolean,
        Integer,
        and_,
        case,
        column,
        delete,
        func,
        insert,
        select,
        table,
        true,
        update,
    )

    # Only the columns used, as plain table clauses: migration 0003 calls this too, whatever the models
    # later become.
    days = table(
        "study_day_totals", *(column(c, Integer) for c in ("user_id", "study_day", "reviews", "duration_ms"))
    )
    states = table(
        "card_states", *(column(c, Integer) for c in ("user_id", "card_id", "first_reviews", "first_passes"))
    )
    logs = table(
        "review_logs",
        *(column(c, Integer) for c in ("user_id", "card_id", "study_day", "rating", "duration_ms")),
        column("first_of_day", Boolean),
    )
    conn.execute(delete(days))
    conn.execute(
        insert(days).from_select(
            ["user_id", "study_day", "reviews", "duration_ms"],
            select(
                logs.c.user_id, logs.c.study_day, func.count(), func.coalesce(func.sum(logs.c.duration_ms), 0)
            ).group_by(logs.c.user_id, logs.c.study_day),
        )
    )
    conn.execute(update(states).values(first_reviews=0, first_passes=0))
    per_card = (
        select(
            logs.c.user_id,
            logs.c.card_id,
            func.count().label("n"),
            func.sum(case((logs.c.rating != 1, 1), else_=0)).label("passed"),
        )
        .where(logs.c.first_of_day == true())
        .group_by(logs.c.user_id, logs.c.card_id)
        .subquery()
    )
    conn.execute(
        update(states)
        .where(and_(states.c.user_id == per_card.c.user_id, states.c.card_id == per_card.c.card_id))
        .values(first_reviews=per_card.c.n, first_passes=per_card.c.passed)
    )
    if grade_counts:
        rebuild_grade_counts(conn)


def rebuild_grade_counts(conn) -> None:
    """Recompute study_day_totals' new_grades and review_grades from review_logs (one grouped pass)."""
    from sqlalchemy import Integer, String, and_, case, column, func, select, table, update

    days = table(
        "study_day_totals",
        *(column(c, Integer) for c in ("user_id", "study_day", "new_grades", "review_grades")),
    )
    logs = table(
        "review_logs", *(column(c, Integer) for c in ("user_id", "study_day")), column("state_before", String)
    )
    per_day = (
        select(
            logs.c.user_id,
            logs.c.study_day,
            func.sum(case((logs.c.state_before == NEW, 1), else_=0)).label("new"),
            func.sum(case((logs.c.state_before == REVIEW, 1), else_=0)).label("review"),
        )
        .group_by(logs.c.user_id, logs.c.study_day)
        .subquery()
    )
    conn.execute(update(days).values(new_grades=0, review_grades=0))
    conn.execute(
        update(days)
        .where(and_(days.c.user_id == per_day.c.user_id, days.c.study_day == per_day.c.study_day))
        .values(new_grades=per_day.c.new, review_grades=per_day.c.review)
    )
