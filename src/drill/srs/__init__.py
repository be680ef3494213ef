"""Scheduling rules on top of py-fsrs: pure functions of (card state, rating, time), settings, study days.

Importing this package does not import fsrs (it is imported where a grade is computed), textual, rich
or sqlalchemy.
"""

from drill.srs.config import DEFAULT_CONFIG, ConfigError, SrsConfig, load_config
from drill.srs.days import day_bounds, local_timezone, next_day_start, study_day
from drill.srs.rules import LEECH_TAG, is_leech, leech_suspends, limit_kind, remaining_today
from drill.srs.scheduler import fsrs_scheduler, preview, retrievability, schedule
from drill.srs.state import (
    GRADES,
    UTC,
    CardState,
    Grade,
    Phase,
    ReviewOutcome,
    as_utc,
    new_card_state,
    to_grade,
)

__all__ = [
    "DEFAULT_CONFIG",
    "GRADES",
    "LEECH_TAG",
    "UTC",
    "CardState",
    "ConfigError",
    "Grade",
    "Phase",
    "ReviewOutcome",
    "SrsConfig",
    "as_utc",
    "day_bounds",
    "fsrs_scheduler",
    "is_leech",
    "leech_suspends",
    "limit_kind",
    "load_config",
    "local_timezone",
    "new_card_state",
    "next_day_start",
    "preview",
    "remaining_today",
    "retrievability",
    "schedule",
    "study_day",
    "to_grade",
]
