"""Daily limits and leeches: small pure rules the store and the study screen share."""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from drill.srs.config import DEFAULT_CONFIG, SrsConfig
from drill.srs.state import CardState, Phase, ReviewOutcome

LEECH_TAG = "leech"


def limit_kind(before: CardState | Phase | str) -> Literal["new", "review"] | None:
    """Which daily limit a grade of a card in this state counts against.

    A card's first grade is a "new" card; a grade of a card in review is a "review". Learning and
    relearning steps are not limited (as in Anki: once started, a card finishes its steps today).
    """
    phase = Phase(before.state if isinstance(before, CardState) else before)
    if phase is Phase.NEW:
        return "new"
    if phase is Phase.REVIEW:
        return "review"
    return None


def remaining_today(
    new_done: int,
    reviews_done: int,
    config: SrsConfig = DEFAULT_CONFIG,
    extra_new: int = 0,
    extra_reviews: int = 0,
) -> tuple[int, int]:
    """(new cards left, reviews left) for today, given how many of each were graded since the day began and
    what "study more today" added to today's limits (``extra_new``, ``extra_reviews``)."""
    return (
        max(0, config.new_per_day + extra_new - new_done),
        max(0, config.reviews_per_day + extra_reviews - reviews_done),
    )


def learn_ahead(config: SrsConfig = DEFAULT_CONFIG) -> timedelta:
    """How far ahead a learning or relearning card may be shown when nothing else is left today (Anki's
    learn-ahead limit, ``learn_ahead_minutes``): a card due in 5 minutes is shown now rather than ending the
    session on "nothing left"."""
    return timedelta(minutes=config.learn_ahead_minutes)


def is_leech(outcome_or_lapses: ReviewOutcome | int, config: SrsConfig = DEFAULT_CONFIG) -> bool:
    """Leech rule.

    - Given a lapse count: whether a card with that many lapses is a leech (lapses >= threshold).
    - Given a ReviewOutcome: whether *this grade* makes the card a leech, i.e. it is a lapse reaching the
      threshold, or (as in Anki) every half-threshold lapses after it, so a leech the learner unsuspended
      and keeps forgetting is flagged again rather than on every single lapse.
    """
    threshold = config.leech_threshold
    if isinstance(outcome_or_lapses, ReviewOutcome):
        if not outcome_or_lapses.is_lapse:
            return False
        lapses = outcome_or_lapses.after.lapses
        if lapses < threshold:
            return False
        return (lapses - threshold) % max(1, threshold // 2) == 0
    if isinstance(outcome_or_lapses, bool) or not isinstance(outcome_or_lapses, int):
        raise TypeError(f"expected a ReviewOutcome or a lapse count, got {outcome_or_lapses!r}")
    return outcome_or_lapses >= threshold


def leech_suspends(config: SrsConfig = DEFAULT_CONFIG) -> bool:
    """Whether a new leech is suspended as well as tagged."""
    return config.leech_action == "suspend"


__all__ = ["LEECH_TAG", "is_leech", "learn_ahead", "leech_suspends", "limit_kind", "remaining_today"]
