"""Local study days: which time zone, when a day starts, and the same day arithmetic in Python and in SQL.

A review at UTC instant ``t`` belongs to the local day ``date(t + utcoffset(t) - day_start)``. In SQL the UTC
offset is a CASE over the zone's transitions within the data's range, so daylight-saving days are counted
exactly as Python counts them, and the database does the grouping.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo

EPOCH_DAY = date(1970, 1, 1)


def local_timezone() -> tuple[tzinfo, str]:
    """The machine's zone with its rules ($TZ, else /etc/localtime), else its current fixed offset."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    name = os.environ.get("TZ", "").lstrip(":")
    if name:
        try:
            return ZoneInfo(name), name
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
    try:
        with open("/etc/localtime", "rb") as handle:
            zone = ZoneInfo.from_file(handle)
        key = os.path.realpath("/etc/localtime").partition("zoneinfo/")[2] or "localtime"
        return zone, key
    except OSError:
        fixed = datetime.now().astimezone().tzinfo or UTC
        return fixed, str(fixed)


def day_start_setting() -> tuple[int, str]:
    """The hour a study day starts (drill.srs config ``day_starts_at``) and where it came from."""
    try:
        from drill.srs.config import load_config
    except ImportError:  # pragma: no cover - the srs layer always ships it
        return 0, "default: midnight"
    config = load_config()
    return config.day_starts_at, f"drill config day_starts_at ({config.source('day_starts_at')})"


@dataclass(frozen=True)
class DayClock:
    tz: tzinfo
    day_start_hour: int = 0

    def day_of(self, moment: datetime) -> date:
        local = moment.astimezone(self.tz) - timedelta(hours=self.day_start_hour)
        return local.date()

    def day_number(self, moment: datetime) -> int:
        return (self.day_of(moment) - EPOCH_DAY).days

    def start_of(self, day: date) -> datetime:
        """The UTC instant the local study day ``day`` begins."""
        naive = datetime(day.year, day.month, day.day) + timedelta(hours=self.day_start_hour)
        return naive.replace(tzinfo=self.tz).astimezone(UTC)

    def offset_segments(self, first: datetime, last: datetime) -> list[tuple[datetime | None, int]]:
        """[(segment start or None for "from the beginning", offset seconds)] covering [first, last]."""
        first, last = first.astimezone(UTC), last.astimezone(UTC)
        segments: list[tuple[datetime | None, int]] = [(None, _offset(self.tz, first))]
        probe = first
        while probe < last:
            step = min(probe + timedelta(days=1), last)
            if _offset(self.tz, step) != segments[-1][1]:
                # The change happens in (lo, hi]: bisect on whole seconds (zones change on whole seconds).
                lo, hi = int(probe.timestamp()), int(step.timestamp()) + 1
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    if _offset(self.tz, datetime.fromtimestamp(mid, UTC)) == segments[-1][1]:
                        lo = mid
                    else:
                        hi = mid
                hi = datetime.fromtimestamp(hi, UTC)
                segments.append((hi, _offset(self.tz, hi)))
            probe = step
        return segments


def _offset(tz: tzinfo, moment: datetime) -> int:
    delta = moment.astimezone(tz).utcoffset()
    return int(delta.total_seconds()) if delta is not None else 0


def day_from_number(number: int) -> date:
    return EPOCH_DAY + timedelta(days=int(number))
