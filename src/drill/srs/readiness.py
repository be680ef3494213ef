"""Readiness for an interview day: the figures ``drill plan``, the study header and ``drill report`` show.

Pure: computed from each card's memory state (``drill.srs.deadline``) — recall on the day if no more reviews
happen, and if the plan is followed — overall, per section, the cards most at risk, the new-card pace and the
daily workload until the day.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from drill.content.sections import section_key
from drill.srs.config import DEFAULT_CONFIG, SrsConfig
from drill.srs.deadline import (
    DAY,
    DayForecast,
    Deadline,
    NewCardPace,
    followed_recall,
    introduction_day,
    new_card_pace,
    recall,
    workload,
)
from drill.srs.state import CardState, as_utc


@dataclass(frozen=True, slots=True)
class CardReadiness:
    card_id: str
    section: str
    if_no_reviews: float  # recall on the day if it is not reviewed again (0 for a new card)
    if_followed: float  # recall on the day if every planned review is done and recalled


@dataclass(frozen=True, slots=True)
class SectionReadiness:
    section: str
    cards: int
    if_no_reviews: float
    if_followed: float


@dataclass(frozen=True, slots=True)
class Readiness:
    deadline: Deadline
    days_left: int
    cards: tuple[CardReadiness, ...]
    sections: tuple[SectionReadiness, ...]
    pace: NewCardPace
    days: tuple[DayForecast, ...]  # today .. the day: reviews, new cards, readiness if followed

    @property
    def if_no_reviews(self) -> float:
        return _mean([c.if_no_reviews for c in self.cards])

    @property
    def if_followed(self) -> float:
        return _mean([c.if_followed for c in self.cards])

    def at_risk(self, count: int = 10) -> list[CardReadiness]:
        """The cards with the lowest recall on the day if not reviewed again (ties: by id)."""
        return sorted(self.cards, key=lambda c: (c.if_no_reviews, c.card_id))[:count]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def readiness(
    cards: Sequence[tuple[str, str, CardState]],
    now: datetime,
    deadline: Deadline,
    config: SrsConfig = DEFAULT_CONFIG,
    per_day: int | None = None,
    followed: Mapping[str, float] | None = None,
    days: Sequence[DayForecast] | None = None,
) -> Readiness:
    """Readiness of ``cards`` — (card id, section, state) — for the interview ``deadline`` seen from ``now``.

    ``per_day``: the new cards a day the plan introduces (drill.srs.skillplan's ``SkillPlan.new_per_day``, the
    one figure every surface states); then the pace, the workload and "if followed" all follow it, and
    ``pace.needed_per_day`` is it. Default: the daily limit ``new_per_day``, as the study queue introduces them.
    ``followed``: each card's recall on the day if the plan is followed, by id (``SkillPlan.card_recall``): then
    "if followed" — overall, per section, per card — is the plan by skill's own figure, the one the per-skill
    rows show (cards it does not hold are simulated here, as without it). ``days``: the day-by-day forecast
    from the same plan (drill.srs.skillready.forecast_days) instead of this module's own simulation."""
    now = as_utc(now)
    days_left = max(0, math.ceil((deadline.at - now) / DAY))
    new = sum(1 for _, _, state in cards if state.is_new)
    if per_day is None:
        pace = new_card_pace(new, days_left, config.new_per_day)
        per_day = config.new_per_day
    else:
        pace = NewCardPace(new, days_left, per_day if new else 0, config.new_per_day)
        config = replace(config, new_per_day=per_day)  # drill.srs.deadline.workload's pace
    rows = []
    new_index = 0
    for card_id, section, state in cards:
        start = now
        if state.is_new:
            day = introduction_day(new_index, per_day)
            new_index += 1
            start = now + day * DAY if per_day and day < days_left else None
        if followed is not None and card_id in followed:
            if_followed = followed[card_id]
        elif start is None:  # not introduced before the day at this pace
            if_followed = 0.0
        else:
            if_followed = followed_recall(state, start, deadline, config)[0]
        rows.append(CardReadiness(card_id, section, recall(state, deadline.at, config), if_followed))
    by_section: dict[str, list[CardReadiness]] = {}
    for row in rows:
        by_section.setdefault(row.section, []).append(row)
    sections = tuple(
        SectionReadiness(
            section,
            len(items),
            _mean([i.if_no_reviews for i in items]),
            _mean([i.if_followed for i in items]),
        )
        for section, items in sorted(by_section.items(), key=lambda kv: section_key(kv[0]))
    )
    if days is None:
        days = workload([state for _, _, state in cards], now, deadline, config)
    return Readiness(deadline, days_left, tuple(rows), sections, pace, tuple(days))


__all__ = ["CardReadiness", "Readiness", "SectionReadiness", "readiness"]
