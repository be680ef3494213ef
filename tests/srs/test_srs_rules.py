"""Daily limits and leeches."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from drill.srs import (
    DEFAULT_CONFIG,
    Grade,
    Phase,
    is_leech,
    leech_suspends,
    limit_kind,
    new_card_state,
    remaining_today,
    schedule,
)
from tests.srs.srs_strategies import T0


def test_remaining_today_defaults_and_floor():
    assert remaining_today(0, 0) == (20, 200)
    assert remaining_today(5, 150) == (15, 50)
    assert remaining_today(25, 250) == (0, 0)
    config = replace(DEFAULT_CONFIG, new_per_day=3, reviews_per_day=0)
    assert remaining_today(1, 0, config) == (2, 0)


def test_limit_kind():
    assert limit_kind(new_card_state(T0)) == "new"
    assert limit_kind("review") == "review"
    assert limit_kind(Phase.LEARNING) is None and limit_kind("relearning") is None


def lapse_until(lapses: int, config):
    """Grade a card Again in review, `lapses` times; return every outcome that was a lapse."""
    state = schedule(new_card_state(T0), Grade.EASY, T0, config).after
    now, lapse_outcomes = T0, []
    while len(lapse_outcomes) < lapses:
        now = state.due + timedelta(hours=1)
        rating = Grade.AGAIN if state.state is Phase.REVIEW else Grade.EASY
        outcome = schedule(state, rating, now, config)
        if outcome.is_lapse:
            lapse_outcomes.append(outcome)
        state = outcome.after
    return lapse_outcomes


def test_eighth_lapse_makes_a_leech_then_every_fourth():
    outcomes = lapse_until(16, DEFAULT_CONFIG)
    flagged = [o.after.lapses for o in outcomes if is_leech(o, DEFAULT_CONFIG)]
    assert flagged == [8, 12, 16]
    assert not is_leech(7) and is_leech(8) and is_leech(20)


def test_threshold_is_settable():
    config = replace(DEFAULT_CONFIG, leech_threshold=3)
    flagged = [o.after.lapses for o in lapse_until(6, config) if is_leech(o, config)]
    assert flagged == [3, 4, 5, 6]  # half of 3 rounds down to 1: every further lapse
    assert is_leech(3, config)


def test_non_lapse_grades_never_make_a_leech():
    config = replace(DEFAULT_CONFIG, leech_threshold=1)
    outcome = schedule(new_card_state(T0), Grade.AGAIN, T0, config)
    assert not outcome.is_lapse and not is_leech(outcome, config)


def test_leech_action():
    assert leech_suspends(DEFAULT_CONFIG)
    assert not leech_suspends(replace(DEFAULT_CONFIG, leech_action="tag"))


def test_is_leech_rejects_other_types():
    with pytest.raises(TypeError):
        is_leech("8", DEFAULT_CONFIG)
