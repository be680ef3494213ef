"""Study more today (Anki's custom study: "increase today's new card limit" / "increase today's review
limit"): the learner adds N new cards and M reviews to one study day's limits. The day's row of
study_day_extras keeps the sums; the queue (drill.store.queue: ``_left``) adds them to ``new_per_day`` and
``reviews_per_day`` for that study day only, for ``next_card``, ``counts`` and the read-only peek alike. The
next study day starts from the settings again. Undoing a grade gives its card back to the day's count, so an
extra card undone comes back within the raised limit.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from drill.errors import InputError
from drill.store.times import aware

if TYPE_CHECKING:  # pragma: no cover
    from drill.store.api import Store

MAX_EXTRA = 9999  # per call, as Anki's custom study dialog caps it


def check_extra(new: int, reviews: int) -> None:
    """Refuse a negative, oversized or empty addition (one line naming the value)."""
    for name, value in (("new cards", new), ("reviews", reviews)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_EXTRA:
            raise InputError(f"study more today: {name} {value!r}: a whole number from 0 to {MAX_EXTRA}")
    if new == 0 and reviews == 0:
        raise InputError("study more today: nothing to add (0 new cards and 0 reviews)")


def study_more(store: Store, now: datetime, new: int = 0, reviews: int = 0) -> tuple[int, int]:
    """Add ``new`` new cards and ``reviews`` reviews to the limits of ``now``'s study day; returns the day's
    extras after it (extra new, extra reviews). One transaction: two drills adding at once both count."""
    from sqlalchemy import select

    from drill.store.review_days import day_number
    from drill.store.tables import extras_t

    check_extra(new, reviews)
    day = day_number(aware(now), store.config.day_starts_at, store.tz)
    row = {"user_id": store.user_id, "study_day": day, "extra_new": new, "extra_reviews": reviews}
    with store.transaction(write=True) as conn:
        conn.execute(_upsert(conn.dialect.name), row)
        got = conn.execute(
            select(extras_t.c.extra_new, extras_t.c.extra_reviews).where(
                extras_t.c.user_id == store.user_id, extras_t.c.study_day == day
            )
        ).one()
    return int(got[0]), int(got[1])


def _upsert(dialect: str) -> Any:
    """INSERT … ON CONFLICT DO UPDATE adding to the day's row (SQLite and PostgreSQL both have it)."""
    from sqlalchemy.dialects import postgresql, sqlite

    from drill.store.tables import extras_t

    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    stmt = insert(extras_t)
    return stmt.on_conflict_do_update(
        index_elements=[extras_t.c.user_id, extras_t.c.study_day],
        set_={
            "extra_new": extras_t.c.extra_new + stmt.excluded.extra_new,
            "extra_reviews": extras_t.c.extra_reviews + stmt.excluded.extra_reviews,
        },
    )
