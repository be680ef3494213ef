"""The plan by skill and readiness per skill from a store: the one place that turns a Store and a Library into
drill.srs.skillplan's inputs, for ``drill plan``, the plan screen and every report format.

``plan_cards`` reads the studied cards (the store's ``plan_cards``: retired and suspended left out) with their
kind from the content; ``plan_for`` builds the plan with the learner's own timings and answers;
``readiness_by_skill`` gives drill.srs.skillready's rows — now, and on the interview day (if the plan is
followed / if the learner stops now) when a date is set.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from drill.content.sections import covers
from drill.i18n import _
from drill.srs.skillplan import PlanCard, SkillPlan, skill_plan, timings
from drill.srs.skillready import SkillReadiness, skill_readiness


def plan_cards(store: Any, library: Any, section: str | None = None) -> list[PlanCard]:
    """Every studied card of ``store``'s user that ``library`` knows (in ``section`` when given), with its kind
    and whether it is a bank question (asked in a mock interview)."""
    known = getattr(library, "cards", None) or {}
    return [
        PlanCard(cid, known[cid].kind, card_section, state, getattr(known[cid], "bank", None) is not None)
        for cid, card_section, state in store.plan_cards(library_packs(library))
        if cid in known and covers(section, card_section)
    ]


def library_packs(library: Any) -> tuple[str, ...] | None:
    """The packs ``library`` holds (what `drill plan` plans for), or None when that is not known (no library, or
    cards that name no pack): readiness then reads the store's studied packs. A report's readiness and the plan's
    are over the same cards, and packs of the database this content does not load are not read card by card."""
    cards = getattr(library, "cards", None)
    if not isinstance(cards, dict):
        return None
    packs = {getattr(card, "pack", None) for card in cards.values()}
    packs |= {getattr(pack, "id", None) for pack in getattr(library, "packs", None) or ()}
    named = {pack for pack in packs if isinstance(pack, str)}
    return tuple(sorted(named)) if len(named) == len(packs) else None


def plan_for(
    store: Any,
    library: Any,
    now: datetime,
    deadline: Any,
    minutes: float | None = None,
    cards: Sequence[PlanCard] | None = None,
) -> SkillPlan:
    """drill.srs.skillplan's plan for ``cards`` (default: every studied card) with the learner's own timings
    (review durations per skill, mock-interview answers), the code tasks passed and the bank questions answered."""
    from drill.content.skills import skill_of

    if cards is None:
        cards = plan_cards(store, library)
    kinds = {cid: card.kind for cid, card in library.cards.items()}
    durations: dict[str, list[float]] = {}
    for card_id, duration_ms in store.review_durations():  # the studied packs' timed grades only
        if card_id in kinds:
            durations.setdefault(skill_of(kinds[card_id]), []).append(duration_ms / 1000)
    answers = [a for record in store.interview_history() for a in record.answers]
    passed = frozenset(f"code-{task}" for task, status in store.code_status().items() if status.passed_ever)
    return skill_plan(
        cards,
        now,
        deadline,
        store.config,
        code_passed=passed,
        interviewed=frozenset(a.card_id for a in answers),
        timing=timings(durations, [a.duration_ms / 1000 for a in answers if a.duration_ms]),
        budget_minutes=minutes,
    )


def new_cards_text(remaining: int | None, per_day: int, limit: int, days_left: int) -> str:
    """The plan's one new-cards-a-day figure (drill.srs.skillplan's ``new_per_day``), as `drill plan`, the plan
    screen and the reports say it: how many are left (``remaining``; None: not said), whether they are all
    introduced before the day, and the daily limit when the plan needs more than it."""
    if remaining is None:
        text = _("New cards: {per} a day in the plan").format(per=per_day)
    else:
        text = _("New cards: {n} left, {per} a day in the plan").format(n=remaining, per=per_day)
    late = 0 if remaining is None else remaining - per_day * days_left
    if late > 0:
        text += " · " + _("{late} not introduced before the day").format(late=late)
    if per_day > limit:
        text += " · " + _(
            "{more} more than your daily limit (new_per_day = {limit}): raise it in drill.toml or study more today"
        ).format(more=per_day - limit, limit=limit)
    return text


def plan_readiness(store: Any, now: datetime, deadline: Any, plan: SkillPlan, cards=None, whole: bool = True):
    """drill.srs.readiness's forecast (overall, per section, at risk, day by day) read from ``plan``: its new
    cards a day, each card's recall on the day if followed and (``whole``: ``cards`` are every studied card)
    its days. ``cards``: (id, section, state) rows, default the store's every studied card."""
    from drill.srs.readiness import readiness
    from drill.srs.skillready import forecast_days

    rows = store.plan_cards() if cards is None else cards
    days = forecast_days(plan) if whole else None
    return readiness(rows, now, deadline, store.config, plan.new_per_day, plan.card_recall, days)


def readiness_by_skill(
    store: Any,
    library: Any,
    now: datetime,
    section: str | None = None,
    deadline: Any = None,
) -> tuple[tuple[SkillReadiness, ...], SkillPlan | None]:
    """Readiness per skill of the studied cards (in ``section``) at ``now`` and, when ``deadline`` (the interview
    day's drill.srs.deadline.Deadline) is given, on the day, by the plan over every studied card (a section's
    cards read their own figures from it); with that plan (or None)."""
    cards = plan_cards(store, library)
    plan = None
    if deadline is not None and deadline.at > now:
        plan = skill_plan(cards, now, deadline, store.config)  # readiness needs neither timings nor answers
    if section is not None:
        cards = [c for c in cards if covers(section, c.section)]
    day = deadline.at if plan is not None else None
    return skill_readiness(cards, now, store.config, plan, day), plan


__all__ = [
    "library_packs",
    "new_cards_text",
    "plan_cards",
    "plan_for",
    "plan_readiness",
    "readiness_by_skill",
]
