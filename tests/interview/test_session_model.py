"""Which questions an interview asks, in which order, and when it follows up — recomputed independently."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.errors import InputError
from drill.srs import schedule
from drill.srs.deadline import recall
from drill.srs.forgetting import decay_of, elapsed_days, retrievability
from drill.srs.state import CardState
from drill.store.plans import deadline_of
from drill.tui.models.interview import InterviewSession, bank_cards, question_order, store_order
from tests.tui.conftest import NOW


@dataclass(frozen=True)
class FakeCard:
    id: str
    section: str


def reference_session(pool, count, follow_up, seed):
    """The documented rule, written out: first left in the order, unless the seeded draw says follow up and a
    card of the previous question's section is left."""
    rng = random.Random(seed)
    asked, left = [], list(pool)
    while left and len(asked) < min(count, len(pool)):
        choice, follow = left[0], False
        if asked and rng.random() < follow_up:
            same = [c for c in left if c.section == asked[-1][0].section]
            if same:
                choice, follow = same[0], True
        asked.append((choice, follow))
        left.remove(choice)
    return asked


@settings(max_examples=200, deadline=None)
@given(
    sections=st.lists(st.sampled_from(["7.2", "7.9", "7.12", "7.15"]), min_size=1, max_size=12),
    count=st.integers(1, 14),
    follow_up=st.sampled_from([0.0, 0.3, 0.5, 1.0]),
    seed=st.integers(0, 2**31),
)
def test_the_session_follows_its_documented_rule(sections, count, follow_up, seed):
    pool = [FakeCard(f"c{i}", s) for i, s in enumerate(sections)]
    session = InterviewSession(pool, count, follow_up, seed)
    asked = []
    while (question := session.next_question()) is not None:
        asked.append(question)
    assert [(a.card, a.follow_up) for a in asked] == reference_session(pool, count, follow_up, seed)
    assert [a.position for a in asked] == list(range(1, len(asked) + 1))
    assert len({a.card.id for a in asked}) == len(asked) == min(count, len(pool))  # never twice
    for before, after in zip(asked, asked[1:], strict=False):
        if after.follow_up:
            assert after.card.section == before.card.section
    if follow_up == 0.0:
        assert [a.card for a in asked] == pool[: len(asked)]
    assert session.finished and session.next_question() is None


def test_follow_ups_come_at_about_the_set_rate():
    pool = [FakeCard(f"c{i}", "7.9") for i in range(400)]  # one section: every draw that says so follows up
    session = InterviewSession(pool, 400, 0.3, seed=11)
    while session.next_question() is not None:
        pass
    rate = sum(a.follow_up for a in session.asked[1:]) / 399
    assert 0.22 < rate < 0.38


@pytest.mark.parametrize("bad", [dict(follow_up=1.5), dict(follow_up=-0.1), dict(count=0)])
def test_bad_session_settings_are_refused(bad):
    values = dict(count=3, follow_up=0.5, seed=1) | bad
    with pytest.raises(InputError):
        InterviewSession([FakeCard("a", "7.2")], **values)


def test_only_bank_cards_with_points_and_the_section_asked(library):
    cards = list(library.cards.values())
    chosen = bank_cards(cards)
    assert chosen and all(c.bank is not None and c.points for c in chosen)
    assert len(chosen) == sum(1 for c in cards if c.bank is not None and c.points)
    in_79 = bank_cards(cards, "7.9")
    assert in_79 and all(c.section == "7.9" for c in in_79)
    assert bank_cards(cards, "7") == [c for c in chosen if c.section.startswith("7.")]


def test_due_first_by_due_then_weakest_now(library):
    cards = bank_cards(list(library.cards.values()))[:8]
    states: dict[str, CardState] = {}
    start = NOW - timedelta(days=30)
    for i, card in enumerate(cards[:6]):  # reviewed at different times and grades; two stay new
        state = CardState()
        for j in range(i % 3 + 1):
            state = schedule(state, (i + j) % 4 + 1, start + timedelta(days=4 * j + i)).after
        states[card.id] = state
    ordered = question_order(cards, states, NOW, seed=5)
    assert sorted(c.id for c in ordered) == sorted(c.id for c in cards)
    due = [c for c in cards if c.id in states and states[c.id].due <= NOW]
    assert 0 < len(due) < len(states)  # some due, some not: both rules are exercised
    assert ordered[: len(due)] == sorted(due, key=lambda c: states[c.id].due)
    decay = decay_of(None)

    def recall_now(card):  # new cards: 0
        s = states.get(card.id)
        if s is None or s.last_review is None:
            return 0.0
        return retrievability(s.stability, elapsed_days(s.last_review, NOW), decay)

    rest = [recall_now(c) for c in ordered[len(due) :]]
    assert rest == sorted(rest)


def test_equal_cards_are_shuffled_by_the_seed(library):
    cards = bank_cards(list(library.cards.values()))
    orders = {tuple(c.id for c in question_order(cards, {}, NOW, seed=s)) for s in range(5)}
    assert len(orders) > 1
    assert question_order(cards, {}, NOW, seed=3) == question_order(cards, {}, NOW, seed=3)


def test_with_an_interview_date_the_weakest_on_the_day_come_first(store, library):
    store.sync_content(library)
    cards = bank_cards(list(library.cards.values()))
    for card, rating in zip(cards[:6], (1, 4, 3, 2, 4, 3), strict=False):
        store.grade(card.id, rating, NOW - timedelta(days=2))
    assert store_order(cards, store, NOW, seed=1) == question_order(
        cards, {c: s for c, _sec, s in store.plan_cards()}, NOW, store.config, seed=1
    )
    store.set_interview_plan(date(2026, 3, 30), 0.9, NOW)
    ordered = store_order(cards, store, NOW, seed=1)
    deadline = deadline_of(store, store.interview_plan(NOW))
    states = {cid: state for cid, _s, state in store.plan_cards()}
    values = [recall(states[c.id], deadline.at, store.config) for c in ordered]
    assert values == sorted(values) and sorted(c.id for c in ordered) == sorted(c.id for c in cards)
