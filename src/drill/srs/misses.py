"""Misses become practice: an interview answer that missed a key point or stated a misconception brings its card
back sooner than its grade alone would.

The rule, declared here once: with at least one missed point or one misconception stated, the card's next
interval is at most :data:`MISS_CAP` (one day: the card is asked again at the next day's study). An interval the
grade already keeps shorter (Again's learning step, say) is left alone; the memory state (stability,
difficulty) is FSRS's own either way — only the due date is pulled in, as the interview day's deadline does.
Pure functions of (outcome, counts).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from drill.srs.state import ReviewOutcome

MISS_CAP = timedelta(days=1)


def miss_cap(missed_points: int, misconceptions: int) -> timedelta | None:
    """The longest interval an answer with these misses may get; None when nothing was missed."""
    return MISS_CAP if missed_points > 0 or misconceptions > 0 else None


def cap_interval(outcome: ReviewOutcome, cap: timedelta | None) -> ReviewOutcome:
    """``outcome`` with its due date at most ``cap`` after the review (unchanged with no cap or a shorter one)."""
    if cap is None or outcome.interval <= cap:
        return outcome
    due = outcome.reviewed_at + cap
    return replace(outcome, after=replace(outcome.after, due=due), interval=cap)
