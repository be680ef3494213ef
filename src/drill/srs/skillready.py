"""Readiness per skill: the one figure the reports (terminal, Markdown, HTML, JSON), ``drill plan`` and the plan
screen show for each skill (drill.content.skills), computed here and nowhere else.

For each skill: how many items it has, how many were never tried (a new card: it counts 0 and is named, "12 of
13 code tasks never tried"), and three readings of the same rule — the mean recall over the skill's items
(drill.srs.skillplan: a never-tried item 0):

- ``now``: recall at the moment asked (the report's time; with no interview date this is the only one);
- ``if_followed``: on the interview day, if the plan by skill (drill.srs.skillplan.skill_plan) is followed;
- ``if_stopped``: on the interview day, if the learner stops practising now.

The interview-day readings are the plan's own: ``if_followed`` is the mean of the plan's per-card recall on the
day (``SkillPlan.card_recall``; over the plan's own cards it is ``SkillPlan.on_the_day``), ``if_stopped`` the
same rule as ``SkillPlan.now``; a subset of the plan's cards (a report's ``--section``) reads the same per-card
figures. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from drill.content.skills import SKILLS
from drill.srs.config import DEFAULT_CONFIG, SrsConfig
from drill.srs.deadline import DayForecast
from drill.srs.skillplan import PlanCard, SkillPlan, readiness_now


@dataclass(frozen=True, slots=True)
class SkillReadiness:
    skill: str  # drill.content.skills.SKILLS
    items: int  # the skill's studied items (cards)
    never_tried: int  # of them, never tried (counted as 0 in every reading)
    now: float  # mean recall at the moment asked
    if_followed: float | None  # on the interview day if the plan is followed (None: no interview date)
    if_stopped: float | None  # on the interview day with no more practice (None: no interview date)


def skill_readiness(
    cards: Sequence[PlanCard],
    moment: datetime,
    config: SrsConfig = DEFAULT_CONFIG,
    plan: SkillPlan | None = None,
    day: datetime | None = None,
) -> tuple[SkillReadiness, ...]:
    """Readiness per skill for ``cards`` at ``moment`` and, when ``day`` (the interview's start, the plan's
    deadline) is given, on the day if the learner stops now, and with ``plan`` too (the plan by skill over these
    cards or more) on the day if it is followed; one row per skill, in `SKILLS` order, skills without items
    included (their figures 0)."""
    now = readiness_now(cards, moment, config)
    stopped = readiness_now(cards, day, config) if day is not None else None
    by_skill: dict[str, list[PlanCard]] = {s: [] for s in SKILLS}
    for card in cards:
        by_skill[card.skill].append(card)
    rows = []
    for skill in SKILLS:
        items = by_skill[skill]
        followed = None
        if plan is not None and day is not None:
            values = [plan.card_recall.get(c.card_id, 0.0) for c in items]
            followed = sum(values) / len(values) if values else 0.0  # skillplan's mean
        rows.append(
            SkillReadiness(
                skill=skill,
                items=len(items),
                never_tried=sum(1 for c in items if c.state.is_new),
                now=now[skill],
                if_followed=followed,
                if_stopped=None if stopped is None else stopped[skill],
            )
        )
    return tuple(rows)


def weakest(rows: Sequence[SkillReadiness], figure: str = "now") -> SkillReadiness | None:
    """The skill with the lowest ``figure`` (``now``, ``if_followed`` or ``if_stopped``) among those with items
    (ties: in `SKILLS` order), or None when no skill has one."""
    scored = [r for r in rows if r.items and getattr(r, figure) is not None]
    return min(scored, key=lambda r: getattr(r, figure)) if scored else None


def forecast_days(plan: SkillPlan) -> tuple[DayForecast, ...]:
    """The plan by skill's days as drill.srs.readiness's day-by-day forecast (today .. the day): the reviews and
    new cards planned each day and readiness at its start over every card (the skills' figures weighted by their
    items), then the day itself (its readiness: the plan's on the day). One simulation behind the per-skill
    rows, the overall figures and the day-by-day series."""
    counts = {s: plan.never_tried[s][1] for s in SKILLS}  # the plan's items per skill
    total = sum(counts.values())

    def overall(by_skill) -> float:
        return sum(by_skill[s] * counts[s] for s in SKILLS) / total if total else 0.0

    rows = [
        DayForecast(
            day=d.day,
            reviews=sum(len(ids) for ids in d.reviews.values()),
            new=sum(len(ids) for ids in d.new.values()),
            readiness=overall(d.readiness),
        )
        for d in plan.days
    ]
    rows.append(DayForecast(day=plan.days_left, reviews=0, new=0, readiness=overall(plan.on_the_day)))
    return tuple(rows)


__all__ = ["SkillReadiness", "forecast_days", "skill_readiness", "weakest"]
