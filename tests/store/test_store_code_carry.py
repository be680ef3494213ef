"""Progress under the old `drill-code` pack is carried to the main deck's `code-<task>` cards when the content
that has them is synced (drill.store.code_carry), on SQLite and PostgreSQL.

The databases are built by the old code path: the chapter content as it was before it had code cards (the
shipped content less its code cards), and `drill code`'s own pack made by `sync_code_cards`, as the code screen
did then. The expected results are recomputed here in plain Python from the rows read before the carry."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from drill.srs import DEFAULT_CONFIG, Phase
from drill.srs.mix import new_card_places
from drill.store import open_store
from drill.store.code_carry import CODE_PACK
from drill.store.tables import cards_t, logs_t, states_t

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CHILD = Path(__file__).with_name("code_carry_child.py")
SCHEDULE = ("state", "step", "stability", "difficulty", "due", "last_review", "fsrs_due")


@pytest.fixture(scope="module")
def libraries():
    """(the content before it had code cards, the content now)."""
    from drill.content import load_content

    now = load_content()
    before = replace(now, cards={k: c for k, c in now.cards.items() if c.kind != "code"})
    assert len(before.cards) < len(now.cards) and any(k.startswith("code-") for k in now.cards)
    return before, now


def old_path(store, before) -> None:
    """What the old drill did on `drill code TASK`: the content has no code cards, so the tasks become cards
    of a pack of their own."""
    from drill.tui.options import AppOptions
    from drill.tui.screens.code_cards import sync_code_cards

    store.sync_content(before)  # a study session on the old content
    sync_code_cards(store, AppOptions(library=before))
    assert store.packs == (CODE_PACK,)


def grade(store, card_id: str, ratings, start: datetime, step=timedelta(days=1, hours=1)) -> datetime:
    when = start
    for rating in ratings:
        store.grade(card_id, rating, when, duration_ms=4000)
        when += step
    return when


def open_user(url, user="learner"):
    store = open_store(url, user)
    store.tz = UTC
    return store


def rows(url, user="learner"):
    """Every card, state and log row of the database, as plain dicts (read through a fresh store)."""
    store = open_store(url, user)
    try:
        with store.transaction() as conn:
            cards = {r.id: r._asdict() for r in conn.execute(select(cards_t))}
            states = {(r.user_id, r.card_id): r._asdict() for r in conn.execute(select(states_t))}
            logs = {r.id: r._asdict() for r in conn.execute(select(logs_t))}
    finally:
        store.close()
    return cards, states, logs


def card_of(cards, pack, content_id):
    found = [i for i, c in cards.items() if c["pack"] == pack and c["content_id"] == content_id]
    return found[0] if found else None


def main_pack(now) -> str:
    return now.cards["code-softmax"].pack


def first_of_day_flags(logs: list[dict]) -> list[bool]:
    """A grade is the card's first of its study day when no earlier grade fell on that day."""
    seen: set[int] = set()
    flags = []
    for log in sorted(logs, key=lambda r: (r["reviewed_at"], r["id"])):
        flags.append(log["study_day"] not in seen and all(d < log["study_day"] for d in seen))
        seen.add(log["study_day"])
    return flags


def test_old_progress_moves_to_the_main_deck_card_whole(db_url, libraries):
    before, now = libraries
    store = open_user(db_url)
    old_path(store, before)
    grade(store, "code-softmax", [3, 3, 1, 3], T0)
    grade(store, "code-attention", [4], T0)
    store.record_code_attempt(
        "softmax", "def softmax(x): ...", T0, seed=7, backend="numpy", passed=1, total=9, all_passed=False,
        mistakes=["softmax/no-max-subtraction"], results={}, elapsed_ms=30,
    )  # fmt: skip
    store.close()
    cards, states, logs = rows(db_url)
    user = next(iter(states))[0]
    old_ids = {c: card_of(cards, CODE_PACK, c) for c in ("code-softmax", "code-attention", "code-rope")}
    expected_logs = {c: {i for i, r in logs.items() if r["card_id"] == old_ids[c]} for c in old_ids}
    expected_state = {c: states[(user, old_ids[c])] for c in old_ids}

    store = open_user(db_url)
    store.sync_content(now)  # `drill study` (or `drill code`) on the content with code cards
    assert store.code_attempts("softmax")[0].mistakes == ("softmax/no-max-subtraction",)
    info = store.card_info("code-softmax")
    assert info.reps == 4 and sorted(h.rating for h in info.history) == [1, 3, 3, 3]
    store.close()

    cards2, states2, logs2 = rows(db_url)
    assert not [c for c in cards2.values() if c["pack"] == CODE_PACK]  # no duplicate left for reports
    for content_id in ("code-softmax", "code-attention"):
        new_id = card_of(cards2, main_pack(now), content_id)
        assert {i for i, r in logs2.items() if r["card_id"] == new_id} == expected_logs[content_id]
        state = states2[(user, new_id)]
        for name in (*SCHEDULE, "reps", "lapses", "first_reviews", "first_passes", "suspended", "leech"):
            assert state[name] == expected_state[content_id][name], (content_id, name)
        # the user's place for it among the new cards: the new-card order (drill.srs.mix) of the content
        places = new_card_places(
            [(c.pack, c.id, c.section) for c in now.cards.values()], {c.id: c.kind for c in now.cards.values()},
            DEFAULT_CONFIG,
        )  # fmt: skip
        assert state["card_pack"] == main_pack(now)
        assert state["card_position"] == places[(main_pack(now), content_id)]
    rope = states2[(user, card_of(cards2, main_pack(now), "code-rope"))]
    assert rope["state"] == "new" and rope["reps"] == 0  # never practised: nothing to carry
    for log_id, log in logs2.items():  # the rows themselves are as they were, only re-pointed
        assert {k: v for k, v in log.items() if k != "card_id"} == {
            k: v for k, v in logs[log_id].items() if k != "card_id"
        }


def test_a_learner_who_practised_is_not_shown_the_tasks_as_new(sqlite_url, libraries):
    before, now = libraries
    store = open_user(sqlite_url)
    old_path(store, before)
    grade(store, "code-softmax", [3], T0)
    store.close()
    store = open_user(sqlite_url)
    store.sync_content(now)
    shown = set()
    when = T0 + timedelta(minutes=5)
    for _ in range(40):  # the new cards of a day, in content order
        card = store.next_card(when)
        if card is None:
            break
        shown.add((card.card_id, card.kind))
        store.grade(card.card_id, 3, when)
    # In learning, due at T0 + 10 min: never offered as a new card. (Once the day's new cards are done,
    # learn-ahead shows it as the learning card it is, due within learn_ahead_minutes.)
    assert ("code-softmax", Phase.NEW) not in shown
    assert ("code-softmax", Phase.LEARNING) in shown
    assert store.card_info("code-softmax").reps >= 1
    store.close()


def test_both_cards_with_history_keep_every_log_and_the_later_state(db_url, libraries):
    """A learner who used the main deck's code card (this drill) and the old pack's (the old drill, or a
    content without code cards) on alternate days: every log of both stays, on the main card; the state is the
    one reviewed last; reps and lapses add up; the first-of-day flags are recomputed over the merged logs."""
    before, now = libraries
    store = open_user(db_url)
    store.sync_content(now)
    grade(store, "code-softmax", [3, 1], T0, step=timedelta(days=2))  # main card: days 0 and 2
    old_path(store, before)
    # old card: day 2 (later the same study day as the main card's Again), then day 5
    grade(store, "code-softmax", [1, 3], T0 + timedelta(days=2, hours=3), step=timedelta(days=3))
    store.close()
    cards, states, logs = rows(db_url)
    user = next(iter(states))[0]
    old_id = card_of(cards, CODE_PACK, "code-softmax")
    new_id = card_of(cards, main_pack(now), "code-softmax")
    old_state, new_state = states[(user, old_id)], states[(user, new_id)]
    assert old_state["last_review"] > new_state["last_review"]

    store = open_user(db_url)
    store.sync_content(now)
    store.close()
    cards2, states2, logs2 = rows(db_url)
    merged = [r for r in logs2.values() if r["card_id"] == new_id]
    assert {r["id"] for r in merged} == {i for i, r in logs.items() if r["card_id"] in (old_id, new_id)}
    state = states2[(user, new_id)]
    for name in SCHEDULE:  # the old card was reviewed last: its schedule
        assert state[name] == old_state[name], name
    assert state["reps"] == old_state["reps"] + new_state["reps"] == 4
    assert state["lapses"] == old_state["lapses"] + new_state["lapses"]
    ordered = sorted(merged, key=lambda r: (r["reviewed_at"], r["id"]))
    flags = first_of_day_flags(ordered)
    assert [bool(r["first_of_day"]) for r in ordered] == flags == [True, True, False, True]
    assert state["first_reviews"] == sum(flags) == 3
    assert state["first_passes"] == sum(f and r["rating"] != 1 for f, r in zip(flags, ordered, strict=True))
    assert (user, old_id) not in states2 and old_id not in cards2


def test_when_the_main_card_was_reviewed_last_its_schedule_stays(db_url, libraries):
    before, now = libraries
    store = open_user(db_url)
    store.sync_content(now)
    grade(store, "code-attention", [3, 4], T0 + timedelta(days=5))  # the main card, days 5 and 6
    old_path(store, before)
    grade(store, "code-attention", [1, 1], T0)  # the old card, days 0 and 1: earlier
    store.close()
    cards, states, _ = rows(db_url)
    user = next(iter(states))[0]
    old_state = states[(user, card_of(cards, CODE_PACK, "code-attention"))]
    new_id = card_of(cards, main_pack(now), "code-attention")
    new_state = states[(user, new_id)]
    store = open_user(db_url)
    store.sync_content(now)
    store.close()
    _, states2, logs2 = rows(db_url)
    state = states2[(user, new_id)]
    for name in SCHEDULE:
        assert state[name] == new_state[name], name
    assert state["reps"] == 4 and state["lapses"] == old_state["lapses"] + new_state["lapses"]
    assert sorted(r["rating"] for r in logs2.values() if r["card_id"] == new_id) == [1, 1, 3, 4]
    assert state["first_reviews"] == 4 and state["first_passes"] == 2  # four study days, two passes


def test_carrying_twice_changes_nothing(db_url, libraries):
    before, now = libraries
    store = open_user(db_url)
    old_path(store, before)
    grade(store, "code-softmax", [3, 2], T0)
    store.sync_content(now)
    store.close()
    first = rows(db_url)
    store = open_user(db_url)
    store.sync_content(now)
    store.sync_content(now)
    store.close()
    assert rows(db_url) == first


def test_each_user_carries_their_own_and_the_old_card_stays_until_the_last(db_url, libraries):
    before, now = libraries
    for user, ratings in (("ann", [3, 3]), ("bob", [1])):
        store = open_user(db_url, user)
        old_path(store, before)
        grade(store, "code-softmax", ratings, T0)
        store.close()
    store = open_user(db_url, "ann")
    store.sync_content(now)
    assert store.card_info("code-softmax").reps == 2
    store.close()
    cards, states, logs = rows(db_url)
    old_id = card_of(cards, CODE_PACK, "code-softmax")
    assert cards[old_id]["retired"]  # bob's history is still on it: hidden from study, not deleted
    assert [r["rating"] for r in logs.values() if r["card_id"] == old_id] == [1]
    store = open_user(db_url, "bob")
    store.sync_content(now)
    assert [h.rating for h in store.card_info("code-softmax").history] == [1]
    store.close()
    cards, _, _ = rows(db_url)
    assert card_of(cards, CODE_PACK, "code-softmax") is None


def _child(url: str, mode: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    return subprocess.Popen(
        [sys.executable, str(CHILD), url, "learner", mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )


def first_line(child: subprocess.Popen, deadline_s: float = 300.0) -> str:
    """The child's first line, or "" when it prints none within the deadline (a hang fails, never blocks)."""
    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ)
    try:
        return child.stdout.readline() if selector.select(deadline_s) else ""
    finally:
        selector.close()


@pytest.mark.parametrize("moment", ["after-first-card", "before-commit"])
def test_kill_9_mid_carry_leaves_the_old_state_and_a_rerun_finishes(db_url, libraries, moment):
    before, now = libraries
    store = open_user(db_url)
    old_path(store, before)
    grade(store, "code-softmax", [3, 3, 1], T0)
    grade(store, "code-causal_mask", [4], T0)
    store.close()
    old = rows(db_url)

    child = _child(db_url, moment)
    try:
        line = first_line(child)  # waits for the child: no sleep
        assert line.strip() == "PAUSED", (line, child.stderr.read() if child.poll() is not None else "")
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    assert rows(db_url) == old  # the old cards, states and logs, readable and untouched

    done = _child(db_url, "finish")
    out, err = done.communicate(timeout=300)
    assert done.returncode == 0, err
    assert out.strip() == "DONE 2"
    cards, states, logs = rows(db_url)
    user = next(iter(states))[0]
    assert not [c for c in cards.values() if c["pack"] == CODE_PACK]
    new_id = card_of(cards, main_pack(now), "code-softmax")
    assert [r["rating"] for r in sorted(logs.values(), key=lambda r: r["id"]) if r["card_id"] == new_id] == [
        3,
        3,
        1,
    ]
    assert states[(user, new_id)]["reps"] == 3
