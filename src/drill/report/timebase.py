"""Local study days for the report (drill.srs.days, the scheduler's own definition) as dates and day numbers.

Review logs record their study day number at grade time (drill.store.review_days: days since 1970-01-01);
the calendar, streak, forecast and --since use the same numbering.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from drill.srs.days import day_start, study_day
from drill.store.review_days import EPOCH_DAY


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
