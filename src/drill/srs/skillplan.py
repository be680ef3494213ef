"""The plan by skill: day by day until the interview, which items to practise (ids by skill), how long it takes,
and readiness per skill — the figures ``drill plan --json`` prints.

The guarantee, when the days allow it: by three days before the day (``SETTLE_DAYS``) every code task has been
passed at least once, every hand calculation done and every bank question answered in a mock interview. The plan
introduces new cards in the new-card order (drill.srs.mix) at the daily limit, or faster when the guarantee needs
it (every code task and hand calculation introduced by then); bank questions not yet answered in a mock interview
are spread over the same days, those whose card is already learnt first. After that it reviews what is due and,
with time left in the budget, re-asks the weakest questions in a mock interview. Every planned review is taken as
recalled (graded Good, the deadline applied: drill.srs.deadline).

Minutes come from the learner's own timings — the median review duration per skill in their history, and their
mock-interview answers — and, before there is a history, from `DEFAULT_SECONDS` (stated in the output). When the
days or the budget do not allow the guarantee, `SkillPlan.missed` names what will be missed and
``minutes_needed`` the daily time that would fix it.

Readiness per skill is the mean recall over the skill's items (a never-tried item counts 0, and is counted). Pure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from drill.content.skills import CALCULATE, CODE, EXPLAIN, INTERVIEW, SKILLS, skill_of
from drill.srs.config import DEFAULT_CONFIG, SrsConfig
from drill.srs.deadline import DAY, Deadline, planned_due, recall, recalls, schedule_for
from drill.srs.mix import ranked
from drill.srs.state import CardState, Grade, as_utc

SETTLE_DAYS = 3  # the guarantee holds by this many days before the interview
# Seconds one item takes before the learner has a history of their own (drill's estimate, stated in the output).
DEFAULT_SECONDS: dict[str, float] = {"recall": 20.0, "explain": 60.0, "calculate": 180.0, "code": 600.0}
DEFAULT_INTERVIEW_SECONDS = 180.0  # one mock-interview answer (ui.interview_minutes' default, 3 minutes)


@dataclass(frozen=True, slots=True)
class PlanCard:
    card_id: str
    kind: str  # the card's kind (drill.content.kinds), its skill by drill.content.skills
    section: str
    state: CardState
    bank: bool = False  # a bank question (asked in a mock interview)

    @property
    def skill(self) -> str:
        return skill_of(self.kind)


@dataclass(frozen=True, slots=True)
class Timings:
    """Seconds per review by skill and per mock-interview answer, and where each came from."""

    seconds: Mapping[str, float]
    interview_seconds: float
    source: Mapping[str, str]  # skill or "interview" -> "history" | "default"


def timings(
    review_seconds: Mapping[str, Sequence[float]], interview_seconds: Sequence[float] = ()
) -> Timings:
    """The median of the learner's own durations per skill (``review_seconds``: skill -> seconds of each
    review) and of their mock-interview answers; `DEFAULT_SECONDS` where there are none."""

    def median(values: Sequence[float]) -> float:
        ordered = sorted(values)
        mid = len(ordered) // 2
        return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2

    seconds, source = {}, {}
    for skill in SKILLS:
        own = [v for v in review_seconds.get(skill, ()) if v > 0]
        seconds[skill] = median(own) if own else DEFAULT_SECONDS[skill]
        source[skill] = "history" if own else "default"
    own = [v for v in interview_seconds if v > 0]
    source[INTERVIEW] = "history" if own else "default"
    return Timings(seconds, median(own) if own else DEFAULT_INTERVIEW_SECONDS, source)


@dataclass(frozen=True, slots=True)
class PlanDay:
    day: int  # 0 = today
    new: Mapping[str, tuple[str, ...]]  # skill -> ids of the new cards introduced
    reviews: Mapping[str, tuple[str, ...]]  # skill -> ids reviewed, once per review (learning steps included)
    interview: tuple[str, ...]  # bank questions to answer in a mock interview
    minutes: float
    readiness: Mapping[str, float]  # skill -> mean recall at the day's start, if the plan is followed so far

    def items(self, skill: str) -> tuple[str, ...]:
        """Every id practised that day for ``skill`` (new and reviewed; mock-interview questions: explain)."""
        extra = self.interview if skill == EXPLAIN else ()
        return tuple(dict.fromkeys((*self.new[skill], *self.reviews[skill], *extra)))


@dataclass(frozen=True, slots=True)
class SkillPlan:
    days_left: int
    settle_day: int  # the day (index) by which the guarantee holds
    new_per_day: int  # the pace the plan introduces new cards at
    timings: Timings
    budget_minutes: float | None
    days: tuple[PlanDay, ...]
    on_the_day: Mapping[str, float]  # skill -> readiness on the interview day if followed
    now: Mapping[str, float]  # skill -> readiness on the day if no more practice (never tried: 0)
    never_tried: Mapping[str, tuple[int, int]]  # skill -> (never tried, total)
    missed: Mapping[str, tuple[str, ...]] = field(
        default_factory=dict
    )  # guarantee -> ids not reached in time
    minutes_needed: float | None = None  # the daily minutes that would reach them (None: nothing missed)
    # card id -> recall on the interview day if followed (never introduced: 0); on_the_day is its mean per skill
    card_recall: Mapping[str, float] = field(default_factory=dict)


def _new_cards(cards: Sequence[PlanCard], config: SrsConfig) -> list[PlanCard]:
    new = [c for c in cards if c.state.is_new]
    order = ranked([(c.card_id, c.kind, c.section) for c in new], config)
    by_id = {c.card_id: c for c in new}
    return [by_id[i] for i in order]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def skill_plan(
    cards: Sequence[PlanCard],
    now: datetime,
    deadline: Deadline,
    config: SrsConfig = DEFAULT_CONFIG,
    *,
    code_passed: frozenset[str] = frozenset(),
    interviewed: frozenset[str] = frozenset(),
    timing: Timings | None = None,
    budget_minutes: float | None = None,
) -> SkillPlan:
    """The plan from ``now`` to ``deadline`` for ``cards`` (every studied card; ``code_passed``: ids of code
    cards whose task was passed at least once; ``interviewed``: ids of bank questions already answered in a
    mock interview)."""
    now = as_utc(now)
    timing = timing or timings({})
    days_left = max(0, math.ceil((deadline.at - now) / DAY))
    settle = max(1, days_left - SETTLE_DAYS) if days_left > SETTLE_DAYS else max(0, days_left)
    pending = _new_cards(cards, config)
    must = [i for i, c in enumerate(pending) if c.skill in (CODE, CALCULATE)]
    pace = config.new_per_day
    if must and settle:
        pace = max(pace, math.ceil((must[-1] + 1) / settle))
    bank_left = [c.card_id for c in cards if c.bank and c.card_id not in interviewed]
    per_day_interviews = math.ceil(len(bank_left) / settle) if bank_left and settle else 0
    skill = {c.card_id: c.skill for c in cards}
    by_id = {c.card_id: c for c in cards}
    live: dict[str, CardState] = {
        c.card_id: replace(c.state, due=planned_due(c.state, deadline, config))
        for c in cards
        if not c.state.is_new
    }
    introduced_on: dict[str, int] = {}
    asked_on: dict[str, int] = {}
    rows: list[PlanDay] = []

    def readiness_at(moment: datetime) -> dict[str, float]:
        return {
            s: _mean(
                [
                    recall(live[c.card_id], moment, config) if c.card_id in live else 0.0
                    for c in cards
                    if c.skill == s
                ]
            )
            for s in SKILLS
        }

    for day in range(days_left):
        start = now + day * DAY
        end = start + DAY
        readiness = readiness_at(start)
        reviewed: list[str] = []  # one id per review today (a card at each of its steps)
        for card_id, state in list(live.items()):
            # the last day's reviews include those due at the interview's start (that morning)
            while state.due <= deadline.at and (state.due < end or day == days_left - 1):
                state = schedule_for(state, Grade.GOOD, max(start, state.due), deadline, config).after
                reviewed.append(card_id)
            live[card_id] = state
        # mock-interview questions: learnt ones first, then in order
        ask: list[str] = []
        if day < settle and bank_left:
            ready_first = sorted(bank_left, key=lambda i: (i not in live, bank_left.index(i)))
            ask = ready_first[:per_day_interviews]
            bank_left = [i for i in bank_left if i not in ask]
            for card_id in ask:
                asked_on[card_id] = day
        count = min(pace, len(pending))
        if budget_minutes is not None:  # within the budget, never below what the guarantee still needs
            must_left = [i for i, c in enumerate(pending) if c.skill in (CODE, CALCULATE)]
            floor = math.ceil((must_left[-1] + 1) / (settle - day)) if must_left and day < settle else 0
            room = budget_minutes * 60 - sum(timing.seconds[skill[i]] for i in reviewed)
            room -= len(ask) * timing.interview_seconds
            views = 1 + len(config.learning_steps)  # a new card is seen once, then at each learning step
            count = 0
            while count < min(pace, len(pending)) and (
                count < floor or room >= views * timing.seconds[pending[count].skill]
            ):
                room -= views * timing.seconds[pending[count].skill]
                count += 1
        new_ids = [c.card_id for c in pending[:count]]
        pending = pending[count:]
        for card_id in new_ids:
            introduced_on[card_id] = day
            state = schedule_for(by_id[card_id].state, Grade.GOOD, start, deadline, config).after
            while state.due <= deadline.at and state.due < end:  # its learning steps today
                state = schedule_for(state, Grade.GOOD, max(start, state.due), deadline, config).after
                reviewed.append(card_id)
            live[card_id] = state
        minutes = (
            sum(timing.seconds[skill[i]] for i in (*new_ids, *reviewed)) + len(ask) * timing.interview_seconds
        ) / 60
        if budget_minutes is not None and day >= settle and minutes < budget_minutes:
            # time left once the guarantee holds: re-ask the weakest questions in a mock interview
            weakest = sorted(
                (c for c in cards if c.bank and c.card_id in live),
                key=lambda c: (recall(live[c.card_id], end, config), c.card_id),
            )
            room = int((budget_minutes - minutes) * 60 // timing.interview_seconds)
            ask = [c.card_id for c in weakest[:room]]
            minutes += len(ask) * timing.interview_seconds / 60
        rows.append(
            PlanDay(
                day=day,
                new={s: tuple(i for i in new_ids if skill[i] == s) for s in SKILLS},
                reviews={s: tuple(i for i in reviewed if skill[i] == s) for s in SKILLS},
                interview=tuple(ask),
                minutes=minutes,
                readiness=readiness,
            )
        )
    missed: dict[str, tuple[str, ...]] = {}
    late = {c.card_id for c in pending} | {i for i, d in introduced_on.items() if d >= settle}
    for name, wanted in (("code", CODE), ("calculate", CALCULATE)):
        ids = tuple(
            c.card_id
            for c in cards
            if c.skill == wanted and c.card_id in late and not (wanted == CODE and c.card_id in code_passed)
        )
        if ids:
            missed[name] = ids
    if bank_left:
        missed["interview"] = tuple(bank_left)
    needed = None
    if budget_minutes is not None:
        busiest = max((r.minutes for r in rows[:settle]), default=0.0)
        if busiest > budget_minutes:
            needed = busiest
            missed.setdefault("budget", ())
    if missed and needed is None and settle:
        needed = max((r.minutes for r in rows[:settle]), default=0.0)
    on_day = readiness_at(deadline.at)
    card_recall = {
        c.card_id: recall(live[c.card_id], deadline.at, config) if c.card_id in live else 0.0 for c in cards
    }
    never = {
        s: (
            sum(1 for c in cards if c.skill == s and c.state.is_new),
            sum(1 for c in cards if c.skill == s),
        )
        for s in SKILLS
    }
    idle = {s: _mean([recall(c.state, deadline.at, config) for c in cards if c.skill == s]) for s in SKILLS}
    return SkillPlan(
        days_left=days_left,
        settle_day=settle,
        new_per_day=pace,
        timings=timing,
        budget_minutes=budget_minutes,
        days=tuple(rows),
        on_the_day=on_day,
        now=idle,
        never_tried=never,
        missed=missed,
        minutes_needed=needed if missed else None,
        card_recall=card_recall,
    )


def readiness_now(
    cards: Sequence[PlanCard], moment: datetime, config: SrsConfig = DEFAULT_CONFIG
) -> dict[str, float]:
    """Readiness per skill at ``moment`` with no more practice: mean recall, a never-tried item 0."""
    by_skill: dict[str, list[float]] = {s: [] for s in SKILLS}
    for card, value in zip(cards, recalls([c.state for c in cards], moment, config), strict=True):
        by_skill[card.skill].append(value)
    return {s: _mean(by_skill[s]) for s in SKILLS}


__all__ = [
    "DEFAULT_INTERVIEW_SECONDS",
    "DEFAULT_SECONDS",
    "SETTLE_DAYS",
    "PlanCard",
    "PlanDay",
    "SkillPlan",
    "Timings",
    "readiness_now",
    "skill_plan",
    "timings",
]
