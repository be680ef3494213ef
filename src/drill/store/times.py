"""Times as the store takes them in and hands them out (stdlib only: the read-only peek uses these too).

Every datetime taken in must be timezone-aware; every datetime handed out is aware UTC. On SQLite the
store's ``UTCDateTime`` keeps the naive UTC text that SQLAlchemy writes (``2026-03-02 09:00:00.000000``):
``sqlite_timestamp`` writes it, ``sqlite_utc`` reads it (tests/store check both against SQLAlchemy's own).
"""

from __future__ import annotations

from datetime import UTC, datetime


def aware(moment: datetime, what: str = "now") -> datetime:
    """``moment`` in UTC; ValueError naming ``what`` for anything but a timezone-aware datetime."""
    if not isinstance(moment, datetime) or moment.tzinfo is None:
        raise ValueError(f"{what} must be a timezone-aware datetime, got {moment!r}")
    return moment.astimezone(UTC)


def as_utc(moment: datetime | None) -> datetime | None:
    """A stored time as aware UTC (a naive one is UTC already)."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def sqlite_timestamp(value: datetime) -> str:
    """An aware datetime as the store's UTCDateTime writes it on SQLite (UTC, naive, microseconds)."""
    return aware(value, "a timestamp").replace(tzinfo=None).isoformat(" ", "microseconds")


def sqlite_utc(value: str | None) -> datetime | None:
    """A UTCDateTime read back from SQLite's text, as aware UTC."""
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)
