"""Store.counts against a plain recomputation from the store's own card list (browse) and review log.

counts() stops counting due reviews and new cards at what is left of the day's limits; the oracle counts
every card and applies the limits afterwards, as the contract states them. "Study more today" additions
(Store.study_more) are kept by the test itself, per study day (``added``), and added to that day's limits.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from drill.srs import Phase, day_bounds
from tests.store.store_support import CARDS, open_test_store

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SECTIONS = (None, "7.2")


def expected_counts(store, now, section, added=None):
    rows = [row for row in store.browse(section=section, now=now) if not row.suspended and not row.buried]
    due = [row for row in rows if row.kind is not Phase.NEW and row.due <= now]
    later = [row.due for row in rows if row.kind is not Phase.NEW and row.due > now]
    start, end = day_bounds(now, store.config.day_starts_at, store.tz)
    today = [e for e in store.review_logs(since=start) if e.reviewed_at < end]
    new_done = sum(e.state_before is Phase.NEW for e in today)
    reviews_done = sum(e.state_before is Phase.REVIEW for e in today)
    extra_new, extra_reviews = (added or {}).get(start, (0, 0))
    new_left = max(0, store.config.new_per_day + extra_new - new_done)
    reviews_left = max(0, store.config.reviews_per_day + extra_reviews - reviews_done)
    reviews = sum(row.kind is Phase.REVIEW for row in due)
    new = sum(row.kind is Phase.NEW for row in rows)
    return {
        "due": len(due) - reviews + min(reviews, reviews_left),
        "new": min(new, new_left),
        "done_today": len(today),
        "new_today": new_done,
        "reviews_today": reviews_done,
        "next_due": min(later, default=None),
        "learning": len(due) - reviews,
        "review": min(reviews, reviews_left),
        "extra_new": extra_new,
        "extra_reviews": extra_reviews,
        "new_held": new > new_left,
        "reviews_held": reviews > reviews_left,
    }


def assert_counts(store, now, added=None):
    for section in SECTIONS:
        counts = store.counts(now, section)
        assert vars(counts) == expected_counts(store, now, section, added), (section, now)


@pytest.mark.parametrize("seed,new_per_day,reviews_per_day", [(0, 8, 2), (1, 12, 5), (2, 40, 0), (3, 0, 300)])
def test_counts_equal_a_plain_recomputation(db_url, seed, new_per_day, reviews_per_day):
    rng = random.Random(seed)
    store = open_test_store(db_url, enable_fuzzing=False)
    try:
        now = T0
        for day in range(4):  # a backlog: cards studied on earlier days, due together later
            store.config = replace(store.config, new_per_day=40, reviews_per_day=300)
            for _ in range(6):
                card = store.next_card(now)
                if card is not None:
                    store.grade(card.card_id, rng.choice((1, 3, 3, 4)), now)
            now += timedelta(days=1 + day)
        store.config = replace(store.config, new_per_day=new_per_day, reviews_per_day=reviews_per_day)
        assert_counts(store, now)
        added: dict = {}  # study day's start -> (new cards, reviews) added to it
        for _ in range(60):
            op = rng.random()
            card = store.next_card(now, rng.choice(SECTIONS))
            if op < 0.6 and card is not None:
                store.grade(card.card_id, rng.randint(1, 4), now)
            elif op < 0.66 and card is not None:
                store.suspend(card.card_id)
            elif op < 0.72 and card is not None:
                store.bury(card.card_id, now)
            elif op < 0.76:
                store.unsuspend(rng.choice(CARDS)[1])
            elif op < 0.79:
                store.undo_last()
            elif op < 0.84:
                more = (rng.choice((0, 1, 3)), rng.choice((0, 1, 2)))
                if more != (0, 0):
                    start = day_bounds(now, store.config.day_starts_at, store.tz)[0]
                    before = added.get(start, (0, 0))
                    added[start] = (before[0] + more[0], before[1] + more[1])
                    assert store.study_more(now, *more) == added[start]
            else:
                now += timedelta(minutes=rng.choice((1, 10, 60 * 5, 60 * 24, 60 * 24 * 6)))
            assert_counts(store, now, added)
        assert added  # the walk did add to some day's limits
    finally:
        store.close()
