"""Two weeks to an interview, simulated: does the mixed daily order and the plan by skill reach the code tasks,
the hand calculations and the bank questions in time, and get every skill ready?

A seeded simulated learner studies the shipped content (232 cards) for the 14 days before an interview, default
settings. Whether it recalls a card at a review is drawn from the FSRS model (probability = the card's predicted
recall then, drill.srs.deadline.recall); it grades Good when it recalls and Again when it does not, and works
through learning steps within the day; a card's first sight is a Good. Each morning it asks ``drill plan`` (the
pure core, drill.srs.skillplan) for the day: the new-card pace and the bank questions to answer in a mock
interview (drawn the same way, graded onto the card as `drill interview` does). Minutes are counted with the
plan's stated default seconds per item (no history). Readiness on the day: each skill's mean predicted recall (a card never seen counts 0).

Two runs per seed, beside each other:
- ``mixed``: the defaults now (new_order = mixed, the plan's pace and its mock-interview questions);
- ``kind``: the old order (new_order = kind, the daily limit, no mock interview planned).

Checks (mixed): day 1 holds >= 1 code task, >= 1 hand calculation and >= 1 interview question; by day -3 every
code task passed >= 1x, every hand calculation done, every bank question answered >= 1x; recall on the day >= 0.9
for each skill; daily minutes within 20 % of the budget (``--minutes``, above it at most 20 %).

    python benchmarks/plan_sim.py [--seeds 3] [--days 14] [--minutes 100]
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from drill.content import load_content
from drill.content.skills import CALCULATE, CODE, SKILLS
from drill.srs.config import DEFAULT_CONFIG
from drill.srs.deadline import Deadline, recall, schedule_for
from drill.srs.mix import ranked
from drill.srs.skillplan import SETTLE_DAYS, PlanCard, skill_plan, timings
from drill.srs.state import Grade, new_card_state

T0 = datetime(2026, 11, 1, 4, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def simulate(seed: int, days: int, order: str, budget: float) -> dict:
    rng = random.Random(seed)
    library = load_content()
    config = replace(DEFAULT_CONFIG, new_order=order)
    deadline = Deadline(at=T0 + days * DAY)
    cards = {c.id: c for c in library.cards.values()}
    skill = {cid: PlanCard(cid, c.kind, c.section, new_card_state(T0)).skill for cid, c in cards.items()}
    bank = {cid for cid, c in cards.items() if getattr(c, "bank", None) is not None}
    states = {cid: new_card_state(T0) for cid in cards}
    order_new = ranked([(c.id, c.kind, c.section) for c in cards.values()], config)
    seconds = timings({}).seconds
    interview_seconds = timings({}).interview_seconds
    passed: set[str] = set()  # code tasks passed / hand calculations done (graded Good at least once)
    interviewed: set[str] = set()
    first_day: dict[str, int] = {}
    minutes: list[float] = []
    day_one = {"code": 0, "calc": 0, "interview": 0}
    for day in range(days):
        start = T0 + day * DAY
        end = start + DAY
        asked: list[str] = []
        if order == "mixed":
            plan = skill_plan(
                [
                    PlanCard(cid, cards[cid].kind, cards[cid].section, states[cid], cid in bank)
                    for cid in order_new
                ],
                start,
                deadline,
                config,
                code_passed=frozenset(i for i in passed if skill[i] == CODE),
                interviewed=frozenset(interviewed),
                budget_minutes=budget,
            )
            pace = sum(len(ids) for ids in plan.days[0].new.values()) if plan.days else 0
            asked = list(plan.days[0].interview) if plan.days else []
        else:
            pace = config.new_per_day
        new_today = [cid for cid in order_new if states[cid].is_new][:pace]
        work = 0.0
        for cid in new_today:
            states[cid] = schedule_for(states[cid], Grade.GOOD, start, deadline, config).after
            first_day.setdefault(cid, day)
            passed.add(cid)
            work += seconds[skill[cid]]
        for index, cid in enumerate(sorted(states)):
            state = states[cid]
            moment = start
            while not state.is_new and state.due < end:
                moment = max(moment, state.due)
                recalled = rng.random() < recall(state, moment, config)
                grade = Grade.GOOD if recalled else Grade.AGAIN
                if recalled:
                    passed.add(cid)
                state = schedule_for(
                    state, grade, moment, deadline, config, fuzz_seed=seed * 1000 + index
                ).after
                work += seconds[skill[cid]]
            states[cid] = state
        for cid in asked:
            state = states[cid]
            recalled = not state.is_new and rng.random() < recall(state, start + DAY / 2, config)
            grade = Grade.GOOD if recalled else Grade.AGAIN
            states[cid] = schedule_for(state, grade, start + DAY / 2, deadline, config).after
            interviewed.add(cid)
            work += interview_seconds
        if day == 0:
            day_one = {
                "code": sum(1 for c in new_today if skill[c] == CODE),
                "calc": sum(1 for c in new_today if skill[c] == CALCULATE),
                "interview": len(asked) + sum(1 for c in new_today if c in bank),
            }
        minutes.append(work / 60)
    settle = days - SETTLE_DAYS
    late_or_never = {cid for cid in cards if first_day.get(cid, days) >= settle}
    on_the_day = {}
    for s in SKILLS:
        ids = [cid for cid in cards if skill[cid] == s]
        on_the_day[s] = statistics.fmean(recall(states[cid], deadline.at, config) for cid in ids)  # readiness
    code_ids = [cid for cid in cards if skill[cid] == CODE]
    calc_ids = [cid for cid in cards if skill[cid] == CALCULATE]
    return {
        "day_one": day_one,
        "code_passed_by_settle": sum(1 for c in code_ids if c in passed and c not in late_or_never),
        "code_total": len(code_ids),
        "calc_done_by_settle": sum(1 for c in calc_ids if c not in late_or_never),
        "calc_total": len(calc_ids),
        "bank_answered": len(interviewed),
        "bank_total": len(bank),
        "on_the_day": on_the_day,
        "minutes": minutes,
        "first_code_day": min((first_day.get(c, days) for c in code_ids), default=days) + 1,
        "first_calc_day": min((first_day.get(c, days) for c in calc_ids), default=days) + 1,
    }


def _readiness_figure(med, skill: str):
    return lambda order: round(med(order, "on_the_day", skill), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--days", type=int, default=14)
    parser.add_argument("--minutes", type=float, default=100.0, help="the daily budget given to the plan")
    args = parser.parse_args()
    runs = {
        order: [simulate(seed, args.days, order, args.minutes) for seed in range(args.seeds)]
        for order in ("mixed", "kind")
    }

    def med(order, key, sub=None):
        values = [r[key][sub] if sub else r[key] for r in runs[order]]
        return statistics.median(values)

    rows = [
        ("day 1: code tasks", lambda o: med(o, "day_one", "code")),
        ("day 1: hand calculations", lambda o: med(o, "day_one", "calc")),
        ("day 1: interview questions", lambda o: med(o, "day_one", "interview")),
        ("first code task on day", lambda o: med(o, "first_code_day")),
        ("first hand calculation on day", lambda o: med(o, "first_calc_day")),
        (f"code tasks passed by day -{SETTLE_DAYS} (of 13)", lambda o: med(o, "code_passed_by_settle")),
        (f"hand calcs done by day -{SETTLE_DAYS} (of 7)", lambda o: med(o, "calc_done_by_settle")),
        ("bank questions answered in a mock interview (of 38)", lambda o: med(o, "bank_answered")),
        *[(f"readiness on the day: {s}", _readiness_figure(med, s)) for s in SKILLS],
        (
            "daily minutes: median",
            lambda o: round(statistics.median(m for r in runs[o] for m in r["minutes"]), 1),
        ),
        ("daily minutes: max", lambda o: round(max(m for r in runs[o] for m in r["minutes"]), 1)),
    ]
    print(f"{args.seeds} seeds, {args.days} days to the interview, budget {args.minutes:g} min/day (medians)")
    print(f"{'':<52} {'mixed (now)':>12} {'kind (old)':>12}")
    for label, figure in rows:
        print(f"{label:<52} {figure('mixed'):>12} {figure('kind'):>12}")
    mixed = runs["mixed"]
    checks = {
        "day 1 holds a code task, a hand calculation and an interview question": all(
            min(r["day_one"].values()) >= 1 for r in mixed
        ),
        f"by day -{SETTLE_DAYS}: every code task passed": all(
            r["code_passed_by_settle"] == r["code_total"] for r in mixed
        ),
        f"by day -{SETTLE_DAYS}: every hand calculation done": all(
            r["calc_done_by_settle"] == r["calc_total"] for r in mixed
        ),
        "every bank question answered in a mock interview": all(
            r["bank_answered"] == r["bank_total"] for r in mixed
        ),
        "readiness on the day >= 0.9 for each skill": all(
            min(r["on_the_day"].values()) >= 0.9 for r in mixed
        ),
        "daily minutes within 20 % of the budget (never above 1.2x)": all(
            max(r["minutes"]) <= 1.2 * args.minutes for r in mixed
        ),
    }
    for name, ok in checks.items():
        print(f"{'PASS' if ok else 'FAIL'}  {name}")


if __name__ == "__main__":
    main()
