"""New cards come in content order (pack, then place in the pack) for every user, after the content is
reordered, trimmed and extended by one user's sync: Store.next_card against the order recomputed in plain
Python from the content lists the test synced.

The queue reads that order from each state row's copy of its card's pack and position (drill.store.sync keeps
the copies for every user when any user's sync moves a card), so a stale copy shows up here as a wrong card.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from drill.srs import DEFAULT_CONFIG, Phase

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SECTIONS = (None, "7.2")


def content(rng: random.Random, ids: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(pack, content id, section) in a random order; the section follows from the id."""
    order = ids[:]
    rng.shuffle(order)
    return [(pack, cid, f"7.{int(cid[1:]) % 3 + 1}") for pack, cid in order]


def expected_first_new(items, section, not_new: set[str]) -> str | None:
    """The first card of ``items`` (the content last synced) in (pack, place in its pack) order that is in
    ``section`` and still new and shown for the user (``not_new``: graded, suspended or buried ids)."""
    places: dict[str, int] = {}
    candidates = []
    for pack, cid, card_section in items:
        places[pack] = places.get(pack, -1) + 1
        if (section is None or card_section == section) and cid not in not_new:
            candidates.append((pack, places[pack], cid))
    return min(candidates)[2] if candidates else None


def open_user(db_url, user, items):
    from drill.store import open_store

    store = open_store(db_url, user)
    store.tz = UTC
    store.config = replace(DEFAULT_CONFIG, new_per_day=1000, reviews_per_day=1000, enable_fuzzing=False)
    store.sync_content(items)
    return store


@pytest.mark.parametrize("seed", range(4))
def test_new_cards_in_content_order_after_another_users_sync(db_url, seed):
    rng = random.Random(seed)
    ids = [(pack, f"{pack[-1]}{i:02d}") for pack in ("pack-a", "pack-b") for i in range(12)]  # ids unique
    first = content(rng, ids[:20])
    users = {name: open_user(db_url, name, first) for name in ("alice", "bob")}
    hidden: dict[str, set[str]] = {name: set() for name in users}
    try:
        for name, store in users.items():  # some progress of each user's own: graded, suspended, buried
            for cid in rng.sample([cid for _, cid, _ in first], 6):
                store.grade(cid, rng.choice((1, 3, 4)), T0 - timedelta(seconds=30))  # due after T0: not due
                hidden[name].add(cid)
            suspended, buried = rng.sample([cid for _, cid, _ in first if cid not in hidden[name]], 2)
            store.suspend(suspended)
            store.bury(buried, T0)
            hidden[name] |= {suspended, buried}
        # alice's sync reorders the content, drops a card, adds four: every user's order changes with it
        second = content(rng, ids[1:])
        users["alice"].sync_content(second)
        users["bob"].sync_content(second)  # adds bob's rows for the new cards; the moves are alice's
        for step in range(8):
            for name, store in users.items():
                for section in SECTIONS:
                    card = store.next_card(T0, section)
                    want = expected_first_new(second, section, hidden[name])
                    assert (card and card.card_id) == want, (name, section, step)
                    assert card is None or (card.kind is Phase.NEW and card.due is None)
            name = rng.choice(list(users))
            card = users[name].next_card(T0)
            if card is not None:  # the next one is shown once it is out of the way
                users[name].bury(card.card_id, T0)
                hidden[name].add(card.card_id)
    finally:
        for store in users.values():
            store.close()
