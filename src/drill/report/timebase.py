"""Local study days in Python (drill.srs.days, the scheduler's own definition) and the same arithmetic in SQL.

A review at UTC instant ``t`` belongs to the study day ``date(t + utcoffset(t) - day_start)``. In SQL the UTC
offset is a CASE over the zone's transitions within the data's range, so daylight-saving days are counted
exactly as Python counts them, and the database does the grouping.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo

from drill.srs.days import day_start, study_day

EPOCH_DAY = date(1970, 1, 1)


def timezone_name(tz: tzinfo) -> str:
    return getattr(tz, "key", None) or str(tz)


@dataclass(frozen=True)
class DayClock:
    tz: tzinfo
    day_start_hour: int = 0

    def day_of(self, moment: datetime) -> date:
        return study_day(moment, self.day_start_hour, self.tz)

    def day_number(self, moment: datetime) -> int:
        return (self.day_of(moment) - EPOCH_DAY).days

    def start_of(self, day: date) -> datetime:
        """The UTC instant the local study day ``day`` begins."""
        return day_start(day, self.day_start_hour, self.tz)

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
