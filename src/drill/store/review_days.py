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


def day_number(moment: datetime, day_starts_at: int, tz: tzinfo | None) -> int:
    return (study_day(moment, day_starts_at, tz) - EPOCH_DAY).days


def review_day_fields(
    reviewed_at: datetime, previous: datetime | None, day_starts_at: int, tz: tzinfo | None
) -> tuple[int, bool]:
    """(study day number, first of the card's study day) for a grade at ``reviewed_at`` whose card was last
    reviewed at ``previous`` (None: never)."""
    day = day_number(reviewed_at, day_starts_at, tz)
    return day, previous is None or day_number(previous, day_starts_at, tz) < day
