"""Interview day, simulated: does the deadline-aware plan get a learner ready, and at what cost in reviews?

A simulated learner studies 38 bank cards every day for 30 days before an interview. Whether it recalls a card
at a review is drawn from the FSRS model itself (probability = the card's predicted recall then); it grades
Good when it recalls and Again when it does not, and works through learning steps within the day. On the
interview day every card is tested once more, again drawn from the model. Two runs per seed, same random draws:
plain FSRS and the plan (``drill.srs.deadline``: intervals that would leave recall on the day below the target
pulled in before it); both introduce new cards up to the daily limit, as the study queue does.

Prints, side by side: the fraction of cards recalled on the day and the number of reviews spent, and the ratio.
Goal: >= 0.90 recalled on the day with the plan, at no more than 1.5x the reviews of plain FSRS.

    python benchmarks/plan_sim.py [--seeds 40] [--cards 38] [--days 30] [--new-per-day 20] [--target 0.9]
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from drill.srs.config import SrsConfig
from drill.srs.deadline import Deadline, recall, schedule_for
from drill.srs.state import Grade, new_card_state

T0 = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def recall_now(state, moment, config) -> float:
    """The learner's true chance of recall: the model's (py-fsrs counts whole days, so 1 within the day)."""
    if state.stability is None:
        return 0.0
    return recall(state, moment, config)


def run(seed: int, cards: int, days: int, config: SrsConfig, target: float | None) -> tuple[float, int]:
    """(fraction recalled on the day, reviews) for one simulated learner; target None = plain FSRS."""
    rng = random.Random(seed)
    deadline = Deadline(at=T0 + days * DAY, target=target) if target is not None else None
    new = [new_card_state(T0) for _ in range(cards)]
    live = []
    reviews = 0
    per_day = config.new_per_day  # the study queue's daily new-card limit, with or without a plan
    for day in range(days):
        start = T0 + day * DAY
        end = start + DAY
        for _ in range(min(per_day, len(new))):
            live.append(replace(new.pop(), due=start))
        for index, state in enumerate(live):
            moment = start
            while state.due < end:
                moment = max(moment, state.due)
                recalled = rng.random() < recall_now(state, moment, config) if state.stability else True
                grade = Grade.GOOD if recalled else Grade.AGAIN
                state = schedule_for(
                    state, grade, moment, deadline, config, fuzz_seed=seed * 1000 + index
                ).after
                reviews += 1
            live[index] = state
    day = T0 + days * DAY
    recalled = sum(rng.random() < recall(state, day, config) for state in live)
    return recalled / cards, reviews


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--cards", type=int, default=38)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--new-per-day", type=int, default=20)
    parser.add_argument("--target", type=float, default=0.9)
    args = parser.parse_args()
    config = SrsConfig(new_per_day=args.new_per_day)
    plain = [run(seed, args.cards, args.days, config, None) for seed in range(args.seeds)]
    plan = [run(seed, args.cards, args.days, config, args.target) for seed in range(args.seeds)]
    plain_recall = statistics.mean(r for r, _ in plain)
    plan_recall = statistics.mean(r for r, _ in plan)
    plain_reviews = statistics.mean(n for _, n in plain)
    plan_reviews = statistics.mean(n for _, n in plan)
    print(
        f"simulated learners: {args.seeds}, cards: {args.cards}, days to the interview: {args.days}, "
        f"new per day: {args.new_per_day}, target: {args.target}"
    )
    print(f"{'':14}{'recalled on the day':>22}{'reviews':>10}")
    print(f"{'plain FSRS':14}{plain_recall:>22.3f}{plain_reviews:>10.1f}")
    print(f"{'with the plan':14}{plan_recall:>22.3f}{plan_reviews:>10.1f}")
    ratio = plan_reviews / plain_reviews
    print(f"reviews ratio (plan / plain): {ratio:.2f}x")
    ok = plan_recall >= 0.9 and ratio <= 1.5
    print(f"goal (>= 0.90 recalled with the plan, <= 1.5x reviews): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
