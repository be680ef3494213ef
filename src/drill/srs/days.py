"""Study days: a day starts at a local hour (``day_starts_at``, Anki's 4 am), not at midnight.

All pure functions of (now, day_starts_at, tz). ``tz`` defaults to the system's local time zone (a real
``zoneinfo`` zone when it can be found, so day bounds are right across DST changes); tests pass one in.
Arithmetic is done on local wall-clock dates, so a 23- or 25-hour day around a DST change is still one day.
"""

from __future__ import annotations

import os
from datetime import date, datetime, time, timedelta, tzinfo
from functools import lru_cache
from pathlib import Path

from drill.srs.state import UTC, as_utc


@lru_cache(maxsize=1)
def local_timezone() -> tzinfo:
    """The system's time zone: $TZ, else /etc/localtime's zone name, else the current fixed offset."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    candidates = []
    tz_env = os.environ.get("TZ", "").lstrip(":")
    if tz_env:
        candidates.append(tz_env)
    try:
        target = str(Path("/etc/localtime").resolve())
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    try:
        candidates.append(Path("/etc/timezone").read_text().strip())
    except OSError:
        pass
    for name in candidates:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            continue
    return datetime.now().astimezone().tzinfo or UTC


def _check_hour(day_starts_at: int) -> None:
    if not 0 <= day_starts_at <= 23:
        raise ValueError(f"day_starts_at must be an hour from 0 to 23, got {day_starts_at}")


def study_day(now: datetime, day_starts_at: int = 4, tz: tzinfo | None = None) -> date:
    """The study day ``now`` belongs to: the local date, counting hours before ``day_starts_at`` as the
    previous day's."""
    _check_hour(day_starts_at)
    local = as_utc(now).astimezone(tz or local_timezone())
    day = local.date()
    if local.hour < day_starts_at:
        day -= timedelta(days=1)
    return day


def day_start(day: date, day_starts_at: int = 4, tz: tzinfo | None = None) -> datetime:
    """The UTC instant a study day begins: the first instant whose local wall-clock time is at or after
    ``day_starts_at``:00 on ``day``, the same rule `study_day` reads."""
    _check_hour(day_starts_at)
    zone = tz or local_timezone()
    wall = datetime.combine(day, time(day_starts_at))
    # In a repeated (fall-back) hour the two folds are two instants: the first is the start. In a
    # spring-forward gap the hour does not exist and neither fold's instant reads back as it: the start is
    # the end of the gap (the transition), which need not be on the hour (Pacific/Chatham's gap is 2:45 ->
    # 3:45), so it is searched between the two readings, to the microsecond.
    first, second = sorted(wall.replace(tzinfo=zone, fold=f).astimezone(UTC) for f in (0, 1))
    if _wall(first, zone) >= wall:
        return first
    low, high = (
        0,
        (second - first) // timedelta(microseconds=1),
    )  # the gap: wall(first) < wall <= wall(second)
    while high - low > 1:
        middle = (low + high) // 2
        if _wall(first + timedelta(microseconds=middle), zone) >= wall:
            high = middle
        else:
            low = middle
    return first + timedelta(microseconds=high)


def _wall(instant: datetime, zone: tzinfo) -> datetime:
    return instant.astimezone(zone).replace(tzinfo=None)


def day_bounds(now: datetime, day_starts_at: int = 4, tz: tzinfo | None = None) -> tuple[datetime, datetime]:
    """(start, end) in aware UTC of the study day containing ``now``; start <= now < end."""
    day = study_day(now, day_starts_at, tz)
    return day_start(day, day_starts_at, tz), day_start(day + timedelta(days=1), day_starts_at, tz)


def next_day_start(now: datetime, day_starts_at: int = 4, tz: tzinfo | None = None) -> datetime:
    """When the next study day begins: "bury until tomorrow" means due at this instant."""
    return day_bounds(now, day_starts_at, tz)[1]


__all__ = ["day_bounds", "day_start", "local_timezone", "next_day_start", "study_day"]
