"""Grading as a pure function: ``schedule(state, rating, now, config) -> ReviewOutcome``, over py-fsrs.

py-fsrs computes stability, difficulty, the learning steps and the interval. Two things are ours:

- **reps and lapses**, which fsrs 6 doesn't track (a lapse is Again on a card in review);
- **fuzz**: py-fsrs draws fuzz from the global ``random()``, which would make grading impure and make the
  study screen's preview disagree with the grade. We ask fsrs for the unfuzzed interval and apply the same
  fuzz ranges (``fsrs.scheduler.FUZZ_RANGES``) with a random number seeded from the card's state before the
  grade (and an optional per-card seed, e.g. the card id). The same number serves every rating, so fuzzed
  intervals stay ordered Again <= Hard <= Good <= Easy, and ``preview`` equals what ``schedule`` gives.

With ``enable_fuzzing = false`` the result is exactly ``fsrs.Scheduler.review_card``'s.
"""

from __future__ import annotations

import hashlib
import struct
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

from drill.i18n import _
from drill.srs.config import DEFAULT_CONFIG, SrsConfig
from drill.srs.state import GRADES, CardState, Grade, Phase, ReviewOutcome, as_utc, to_grade

if TYPE_CHECKING:  # pragma: no cover
    import fsrs


def _scheduler_key(config: SrsConfig) -> tuple:
    return (
        config.parameters,
        config.desired_retention,
        config.learning_steps,
        config.relearning_steps,
        config.maximum_interval,
    )


@lru_cache(maxsize=8)
def _cached_scheduler(key: tuple) -> fsrs.Scheduler:
    from fsrs import Scheduler
    from fsrs.scheduler import DEFAULT_PARAMETERS

    parameters, retention, learning, relearning, maximum = key
    return Scheduler(
        parameters=parameters if parameters is not None else DEFAULT_PARAMETERS,
        desired_retention=retention,
        learning_steps=learning,
        relearning_steps=relearning,
        maximum_interval=maximum,
        enable_fuzzing=False,  # fuzz is applied here, deterministically (see the module docstring)
    )


def fsrs_scheduler(config: SrsConfig = DEFAULT_CONFIG) -> fsrs.Scheduler:
    """The (cached, unfuzzed) fsrs.Scheduler for these settings."""
    return _cached_scheduler(_scheduler_key(config))


def fuzz_fraction(state: CardState, seed: int = 0) -> float:
    """A number in [0, 1) fixed by the card's state before the grade (and the caller's seed)."""
    stamp = state.last_review.timestamp() if state.last_review else 0.0
    packed = struct.pack(
        "<qqqdddd",
        seed & 0x7FFF_FFFF_FFFF_FFFF,
        state.reps,
        state.lapses,
        stamp,
        state.stability or 0.0,
        state.difficulty or 0.0,
        state.due.timestamp(),
    )
    digest = hashlib.blake2b(packed, digest_size=7).digest()
    return int.from_bytes(digest, "little") / 2.0**56  # uniform in [0, 1)


def fuzz_range(interval_days: int, maximum_interval: int) -> tuple[int, int]:
    """py-fsrs's fuzz bounds for an interval in whole days (same ranges, same rounding)."""
    from fsrs.scheduler import FUZZ_RANGES

    delta = 1.0
    for fuzz in FUZZ_RANGES:
        delta += fuzz["factor"] * max(min(float(interval_days), fuzz["end"]) - fuzz["start"], 0.0)
    low = max(2, round(interval_days - delta))
    high = min(round(interval_days + delta), maximum_interval)
    return min(low, high), high


def fuzzed_interval(interval: timedelta, fraction: float, maximum_interval: int) -> timedelta:
    days = interval.days
    if days < 2.5:  # py-fsrs leaves short intervals alone
        return interval
    low, high = fuzz_range(days, maximum_interval)
    return timedelta(days=min(round(fraction * (high - low + 1) + low), maximum_interval))


def schedule(
    state: CardState,
    rating: int,
    now: datetime,
    config: SrsConfig = DEFAULT_CONFIG,
    *,
    fuzz_seed: int = 0,
) -> ReviewOutcome:
    """The outcome of grading a card in ``state`` with ``rating`` (1-4) at ``now``. Pure.

    Raises InputError for a rating outside 1-4.
    """
    from fsrs import Rating, State

    grade = to_grade(rating)
    now = as_utc(now)
    card, _log = fsrs_scheduler(config).review_card(state.to_fsrs(), Rating(int(grade)), now)

    if config.enable_fuzzing and card.state == State.Review:
        card.due = now + fuzzed_interval(
            card.due - now, fuzz_fraction(state, fuzz_seed), config.maximum_interval
        )

    is_lapse = state.state is Phase.REVIEW and grade is Grade.AGAIN
    after = CardState.from_fsrs(card, reps=state.reps + 1, lapses=state.lapses + int(is_lapse))
    elapsed = None if state.last_review is None else (now - state.last_review).total_seconds() / 86400.0
    return ReviewOutcome(
        before=state,
        after=after,
        rating=grade,
        reviewed_at=now,
        interval=after.due - now,
        elapsed_days=elapsed,
        is_lapse=is_lapse,
    )


def preview(
    state: CardState, now: datetime, config: SrsConfig = DEFAULT_CONFIG, *, fuzz_seed: int = 0
) -> dict[Grade, datetime]:
    """What each grade would give: {Grade: due}, for the study screen's buttons."""
    return {grade: schedule(state, grade, now, config, fuzz_seed=fuzz_seed).after.due for grade in GRADES}


def retrievability(state: CardState, now: datetime, config: SrsConfig = DEFAULT_CONFIG) -> float | None:
    """Predicted probability of recall at ``now`` (None for a card never reviewed)."""
    if state.last_review is None or state.stability is None:
        return None
    return float(fsrs_scheduler(config).get_card_retrievability(state.to_fsrs(), as_utc(now)))


def format_interval(delta: timedelta) -> str:
    """A short label for a button, in the UI language: 1m, 10m, 3h, 4d, 2.1mo, 1.3y (zh: 1分钟 … 1.3年)."""
    seconds = max(delta.total_seconds(), 0.0)
    if seconds < 3600:
        return _("{n}m").format(n=max(1, round(seconds / 60)))  # minutes
    if seconds < 86400:
        return _("{n}h").format(n=round(seconds / 3600))  # hours
    days = seconds / 86400
    if days < 30:
        return _("{n}d").format(n=round(days))  # days
    if days < 365:
        return _("{n}mo").format(n=f"{days / 30:.1f}")  # months of 30 days
    return _("{n}y").format(n=f"{days / 365:.1f}")  # years of 365 days


__all__ = [
    "format_interval",
    "fsrs_scheduler",
    "fuzz_fraction",
    "fuzz_range",
    "fuzzed_interval",
    "preview",
    "retrievability",
    "schedule",
]
