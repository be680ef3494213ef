"""The report's interview section: readiness for the day set with ``drill plan`` (``drill.srs.readiness``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from drill.content.sections import covers
from drill.report.data import Interview, InterviewCard, InterviewDay, InterviewSection


def interview_figure(
    store: Any,
    now: datetime,
    section: str | None,
    questions: dict[str, str],
    skill_plan: Any = None,
    packs: tuple[str, ...] | None = None,
) -> Interview | None:
    """The section's figures for ``store``'s user, or None when no interview date is set (or the store is not a
    drill Store: reports over a bare engine have no user plan). ``skill_plan``: the plan by skill over every
    studied card (drill.srs.skillplan, when the content is known): its new cards a day is the pace and the
    workload's, its per-card recall on the day is "if followed". ``packs``: the content's packs (those `drill
    plan` plans for; default the store's)."""
    if not hasattr(store, "interview_plan"):
        return None
    from drill.srs.readiness import readiness
    from drill.store.plans import deadline_of

    plan = store.interview_plan(now)
    if plan is None:
        return None
    cards = [c for c in store.plan_cards(packs) if covers(section, c[1])]
    deadline = deadline_of(store, plan)
    if skill_plan is None:
        ready = readiness(cards, now, deadline, store.config)
    else:  # the plan by skill's figures (its days only for every card: a section's are not apart in it)
        from drill.report.skills import plan_readiness

        ready = plan_readiness(store, now, deadline, skill_plan, cards, whole=section is None)
    start = plan.interview_day - timedelta(days=ready.days_left)
    return Interview(
        interview_day=plan.interview_day,
        target=plan.target,
        days_left=ready.days_left,
        if_followed=ready.if_followed,
        if_no_reviews=ready.if_no_reviews,
        new_needed_per_day=ready.pace.needed_per_day,
        new_limit=ready.pace.limit,
        sections=[
            InterviewSection(s.section, s.cards, s.if_followed, s.if_no_reviews) for s in ready.sections
        ],
        at_risk=[
            InterviewCard(c.card_id, c.section, questions.get(c.card_id, ""), c.if_no_reviews)
            for c in ready.at_risk(10)
        ],
        days=[InterviewDay(start + timedelta(days=d.day), d.reviews, d.new, d.readiness) for d in ready.days],
        recall={c.card_id: c.if_no_reviews for c in ready.cards},
    )


def skills_figure(store: Any, library: Any, now: datetime, section: str | None) -> tuple[list | None, Any]:
    """(readiness per skill — drill.srs.skillready's rows —, the plan by skill it read, or None) for
    ``store``'s user: on the interview day too when a date is set. (None, None) without the content (no kinds)
    or over a bare engine."""
    if library is None or not hasattr(store, "plan_cards"):
        return None, None
    from drill.report.skills import readiness_by_skill
    from drill.store.plans import deadline_of

    plan = store.interview_plan(now) if hasattr(store, "interview_plan") else None
    deadline = deadline_of(store, plan) if plan is not None else None
    rows, skill_plan = readiness_by_skill(store, library, now, section, deadline)
    return list(rows), skill_plan
