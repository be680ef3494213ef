"""Interview day: how much a learner will recall on a date, and FSRS intervals that do not overshoot it.

FSRS optimises long-term retention; it happily schedules a card for the week after an interview. With a
:class:`Deadline` set, :func:`apply_deadline` keeps FSRS's interval unless the card's predicted recall on the
day would fall below the target; then the interval is shortened to at most the day on which recall reaches the
target (so the card is seen again before the interview, and again after that if needed), with the fuzz drawn
inside that shorter window. Once the day has passed, scheduling is plain FSRS again: the deadline only ever
shortens an interval, it never changes the memory state.

Recall follows the forgetting curve py-fsrs uses (``drill.srs.forgetting``), ``t`` in whole days since the last
review.
All functions are pure functions of (states, times, config).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from drill.errors import InputError
from drill.srs.config import DEFAULT_CONFIG, SrsConfig
from drill.srs.forgetting import days_until, decay_of, elapsed_days, retrievability
from drill.srs.scheduler import fuzz_fraction, fuzz_range, schedule
from drill.srs.state import CardState, Grade, ReviewOutcome, as_utc

DAY = timedelta(days=1)
DEFAULT_TARGET = 0.9


@dataclass(frozen=True, slots=True)
class Deadline:
    """The moment recall is judged (the start of the interview's study day, aware UTC) and the target."""

    at: datetime
    target: float = DEFAULT_TARGET

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", as_utc(self.at))
        if not 0.5 <= self.target < 1.0:
            raise InputError(f"the interview target recall must be from 0.5 to 0.99, got {self.target}")


def recall(state: CardState, moment: datetime, config: SrsConfig = DEFAULT_CONFIG) -> float:
    """Predicted probability of recalling the card at ``moment`` with no review before it (0 for a new card)."""
    return _recall(state, as_utc(moment), decay_of(config.parameters))


def recalls(states: Iterable[CardState], moment: datetime, config: SrsConfig = DEFAULT_CONFIG) -> list[float]:
    """`recall` of each of ``states`` at ``moment`` (the curve's exponent and the moment worked out once: a
    collection's worth at a time, as the reports' readiness per skill reads it)."""
    at, decay = as_utc(moment), decay_of(config.parameters)
    return [_recall(state, at, decay) for state in states]


def _recall(state: CardState, at: datetime, decay: float) -> float:
    if state.last_review is None or state.stability is None:
        return 0.0
    return retrievability(state.stability, elapsed_days(state.last_review, at), decay)


def days_until_recall(stability: float, target: float, config: SrsConfig = DEFAULT_CONFIG) -> float:
    """How many days after a review recall falls to ``target`` (the curve solved for t)."""
    return days_until(stability, target, decay_of(config.parameters))


def apply_deadline(
    outcome: ReviewOutcome,
    deadline: Deadline | None,
    config: SrsConfig = DEFAULT_CONFIG,
    *,
    fuzz_seed: int = 0,
) -> ReviewOutcome:
    """``outcome`` with its due date pulled in before the interview when recall on the day would be too low.

    Unchanged when there is no deadline, the day has passed, the card is due on or before the day, or its
    recall on the day stays at or above the target. Otherwise the interval becomes at most the whole days until
    recall reaches the target (at least one day, and never past the day itself), fuzzed inside that window with
    the card's own fuzz number, so the grade buttons' preview and the grade agree.
    """
    now = outcome.reviewed_at
    after = outcome.after
    if deadline is None or now >= deadline.at or after.due <= deadline.at:
        return outcome
    if recall(after, deadline.at, config) >= deadline.target or after.stability is None:
        return outcome
    until_day = deadline.at - now
    window = max(1, math.floor(days_until_recall(after.stability, deadline.target, config)))
    if config.enable_fuzzing and window >= 3:
        low, high = fuzz_range(window, window)
        fraction = fuzz_fraction(outcome.before, fuzz_seed)
        window = min(round(fraction * (high - low + 1) + low), window)
    interval = min(window * DAY, until_day)
    return replace(outcome, after=replace(after, due=now + interval), interval=interval)


def planned_due(state: CardState, deadline: Deadline | None, config: SrsConfig = DEFAULT_CONFIG) -> datetime:
    """When the plan wants a card already scheduled seen again: its own due, or, when that lands after the day and
    its recall on the day would be below the target, the last whole day on which recall is still at the target
    (counted from its last review, at least one day after it, never past the day). May be in the past: overdue."""
    if deadline is None or state.due <= deadline.at or state.last_review is None or state.stability is None:
        return state.due
    if state.last_review >= deadline.at or recall(state, deadline.at, config) >= deadline.target:
        return state.due
    window = max(1, math.floor(days_until_recall(state.stability, deadline.target, config)))
    return min(state.last_review + window * DAY, deadline.at)


def schedule_for(
    state: CardState,
    rating: int,
    now: datetime,
    deadline: Deadline | None,
    config: SrsConfig = DEFAULT_CONFIG,
    *,
    fuzz_seed: int = 0,
) -> ReviewOutcome:
    """:func:`drill.srs.scheduler.schedule`, then :func:`apply_deadline`."""
    outcome = schedule(state, rating, now, config, fuzz_seed=fuzz_seed)
    return apply_deadline(outcome, deadline, config, fuzz_seed=fuzz_seed)


# --------------------------------------------------------------------------------------------- forecasts


def followed_recall(
    state: CardState, now: datetime, deadline: Deadline, config: SrsConfig = DEFAULT_CONFIG
) -> tuple[float, int]:
    """(recall on the day, reviews before it) if the learner reviews the card whenever it is due and recalls it.

    A new card is taken as introduced at ``now``. Each review is graded Good at its due time (not before
    ``now``), with the deadline applied, until the next due lands after the day.
    """
    moment = as_utc(now)
    reviews = 0
    state = replace(state, due=planned_due(state, deadline, config))
    if state.is_new:
        state = schedule_for(state, Grade.GOOD, moment, deadline, config).after
        reviews = 1
    while state.due <= deadline.at and reviews < 400:
        moment = max(moment, state.due)
        state = schedule_for(state, Grade.GOOD, moment, deadline, config).after
        reviews += 1
    return recall(state, deadline.at, config), reviews


@dataclass(frozen=True, slots=True)
class NewCardPace:
    """How many new cards a day reach every card before the day, against the daily limit."""

    remaining: int
    days: int
    needed_per_day: int
    limit: int

    @property
    def reachable(self) -> bool:
        return self.needed_per_day <= self.limit


def new_card_pace(remaining_new: int, days_left: int, limit: int, *, settle_days: int = 2) -> NewCardPace:
    """The pace that introduces every new card at least ``settle_days`` before the day (when there is room)."""
    days = max(1, days_left - settle_days) if days_left > settle_days else max(1, days_left)
    needed = math.ceil(remaining_new / days) if remaining_new else 0
    return NewCardPace(remaining=remaining_new, days=days, needed_per_day=needed, limit=limit)


@dataclass(frozen=True, slots=True)
class DayForecast:
    day: int  # 0 = today
    reviews: int  # reviews due that day if the plan is followed
    new: int  # new cards introduced that day
    readiness: float  # mean recall over all cards at that day's start, if the plan is followed up to it


def introduction_day(index: int, per_day: int) -> int:
    """The day (0 = today) the plan introduces the ``index``-th new card (content order) at ``per_day`` a day."""
    return index // max(1, per_day)


def workload(
    states: Sequence[CardState], now: datetime, deadline: Deadline, config: SrsConfig = DEFAULT_CONFIG
) -> list[DayForecast]:
    """Day-by-day reviews, new cards and readiness from today to the interview, if the plan is followed
    (every due card reviewed and recalled, new cards introduced as the study queue does: up to the daily limit,
    in content order; ``new_card_pace`` says whether that limit reaches every card in time)."""
    now = as_utc(now)
    days_left = max(0, math.ceil((deadline.at - now) / DAY))
    pending_new = [s for s in states if s.is_new]
    per_day = config.new_per_day  # as the study queue introduces them: up to the daily limit
    live = [replace(s, due=planned_due(s, deadline, config)) for s in states if not s.is_new]
    total = len(states)
    rows: list[DayForecast] = []
    for day in range(days_left + 1):
        start = min(now + day * DAY, deadline.at)
        end = start + DAY
        readiness = sum(recall(s, start, config) for s in live) / total if total else 0.0
        reviews = 0
        new_today = 0
        if day < days_left:
            introduced = [pending_new.pop(0) for _ in range(min(per_day, len(pending_new)))]
            new_today = len(introduced)
            live.extend(schedule_for(s, Grade.GOOD, start, deadline, config).after for s in introduced)
            for index, state in enumerate(live):
                # the last day's reviews include those due at the interview's start (that morning)
                while state.due <= deadline.at and (state.due < end or day == days_left - 1):
                    state = schedule_for(state, Grade.GOOD, max(start, state.due), deadline, config).after
                    reviews += 1
                live[index] = state
        rows.append(DayForecast(day=day, reviews=reviews, new=new_today, readiness=readiness))
    return rows


def readiness(
    states: Iterable[CardState], deadline: Deadline, config: SrsConfig = DEFAULT_CONFIG
) -> list[float]:
    """Each card's recall on the day if no more reviews happen (new cards: 0)."""
    return [recall(state, deadline.at, config) for state in states]


__all__ = [
    "DEFAULT_TARGET",
    "DayForecast",
    "Deadline",
    "NewCardPace",
    "apply_deadline",
    "days_until_recall",
    "followed_recall",
    "introduction_day",
    "new_card_pace",
    "planned_due",
    "readiness",
    "recall",
    "recalls",
    "schedule_for",
    "workload",
]
