"""schedule/preview against py-fsrs itself: folding our pure function gives fsrs's card, step by step."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import fsrs
import fsrs.scheduler
import pytest
from fsrs import Card, Rating, Scheduler, State
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.errors import InputError
from drill.srs import (
    DEFAULT_CONFIG,
    GRADES,
    CardState,
    Grade,
    Phase,
    SrsConfig,
    as_utc,
    new_card_state,
    preview,
    schedule,
)
from drill.srs.scheduler import format_interval, fsrs_scheduler, fuzz_range, fuzzed_interval
from tests.srs.srs_strategies import T0, configs, gaps, histories, ratings

PHASE_OF = {State.Learning: Phase.LEARNING, State.Review: Phase.REVIEW, State.Relearning: Phase.RELEARNING}


def reference_scheduler(config: SrsConfig) -> Scheduler:
    """A fresh fsrs.Scheduler built directly from the settings (not our cached one)."""
    return Scheduler(
        parameters=config.parameters or fsrs.scheduler.DEFAULT_PARAMETERS,
        desired_retention=config.desired_retention,
        learning_steps=config.learning_steps,
        relearning_steps=config.relearning_steps,
        maximum_interval=config.maximum_interval,
        enable_fuzzing=False,
    )


def assert_same(ours: CardState, theirs: Card) -> None:
    assert ours.state == PHASE_OF[theirs.state]
    assert ours.step == theirs.step
    assert ours.stability == theirs.stability
    assert ours.difficulty == theirs.difficulty
    assert ours.due == theirs.due
    assert ours.last_review == theirs.last_review


def fold(history, config: SrsConfig, start: datetime = T0):
    state, now = new_card_state(start), start
    outcomes = []
    for rating, gap in history:
        now = now + gap
        outcome = schedule(state, rating, now, config)
        outcomes.append(outcome)
        state = outcome.after
    return outcomes


@settings(max_examples=300, deadline=None)
@given(history=histories, config=configs)
def test_folding_schedule_equals_fsrs_review_card(history, config):
    reference = reference_scheduler(config)
    card = Card(card_id=1, due=T0)
    state, now = new_card_state(T0), T0
    reps = lapses = 0
    for rating, gap in history:
        now = now + gap
        was_review = card.state == State.Review
        card, log = reference.review_card(card, Rating(rating), now)
        outcome = schedule(state, rating, now, config)
        reps += 1
        lapses += int(was_review and rating == 1)

        assert_same(outcome.after, card)
        assert outcome.after.reps == reps
        assert outcome.after.lapses == lapses
        assert outcome.is_lapse == (was_review and rating == 1)
        assert outcome.rating == log.rating
        assert outcome.reviewed_at == log.review_datetime == now
        assert outcome.interval == card.due - now
        assert outcome.before == state
        state = outcome.after


@settings(max_examples=150, deadline=None)
@given(history=histories)
def test_default_config_matches_fsrs_defaults(history):
    # The shipped defaults are py-fsrs's own defaults (except fuzz, checked separately).
    config = replace(DEFAULT_CONFIG, enable_fuzzing=False)
    reference = Scheduler(enable_fuzzing=False)
    card, now = Card(card_id=1, due=T0), T0
    for outcome, (rating, gap) in zip(fold(history, config), history, strict=True):
        now = now + gap
        card, _ = reference.review_card(card, Rating(rating), now)
        assert_same(outcome.after, card)


@settings(max_examples=150, deadline=None)
@given(history=histories, fuzz=st.booleans(), seed=st.integers(min_value=0, max_value=2**40))
def test_preview_equals_what_schedule_gives(history, fuzz, seed):
    config = replace(DEFAULT_CONFIG, enable_fuzzing=fuzz)
    state = fold(history, config)[-1].after
    now = state.due + timedelta(hours=3)
    shown = preview(state, now, config, fuzz_seed=seed)
    assert list(shown) == list(GRADES)
    for grade, due in shown.items():
        assert schedule(state, grade, now, config, fuzz_seed=seed).after.due == due


@settings(max_examples=200, deadline=None)
@given(history=histories, late=gaps, fuzz=st.booleans(), config=configs)
def test_intervals_are_monotone_in_rating_for_review_cards(history, late, fuzz, config):
    config = replace(config, enable_fuzzing=fuzz)
    # Reach review: graduate with Easy, then follow the history.
    state = schedule(new_card_state(T0), Grade.EASY, T0, config).after
    now = T0
    for rating, gap in history:
        now = now + gap
        state = schedule(state, rating, now, config).after
    if state.state is not Phase.REVIEW:
        state = schedule(state, Grade.EASY, now, config).after
    assert state.state is Phase.REVIEW
    now = now + late
    dues = preview(state, now, config)
    assert dues[Grade.AGAIN] <= dues[Grade.HARD] <= dues[Grade.GOOD] <= dues[Grade.EASY]


def test_new_card_first_grades_follow_learning_steps():
    start = new_card_state(T0)
    dues = preview(start, T0)
    assert dues[Grade.AGAIN] - T0 == timedelta(minutes=1)
    assert dues[Grade.HARD] - T0 == timedelta(minutes=5, seconds=30)  # fsrs: mean of the first two steps
    assert dues[Grade.GOOD] - T0 == timedelta(minutes=10)
    assert dues[Grade.EASY] - T0 >= timedelta(days=1)
    outcome = schedule(start, Grade.GOOD, T0)
    assert outcome.before.is_new and outcome.elapsed_days is None
    assert outcome.after.state is Phase.LEARNING and outcome.after.step == 1
    assert outcome.after.reps == 1 and outcome.after.lapses == 0


def test_lapse_counts_and_elapsed_days():
    state = schedule(new_card_state(T0), Grade.EASY, T0, replace(DEFAULT_CONFIG, enable_fuzzing=False)).after
    later = state.due + timedelta(days=2)
    outcome = schedule(state, Grade.AGAIN, later)
    assert outcome.is_lapse
    assert outcome.after.state is Phase.RELEARNING and outcome.after.lapses == 1
    assert outcome.elapsed_days == pytest.approx((later - T0).total_seconds() / 86400)
    # Again during relearning is not another lapse.
    again = schedule(outcome.after, Grade.AGAIN, later + timedelta(minutes=10))
    assert not again.is_lapse and again.after.lapses == 1 and again.after.reps == 3


def test_schedule_is_pure_and_deterministic_with_fuzz():
    state = schedule(new_card_state(T0), Grade.EASY, T0).after
    now = state.due + timedelta(days=30)
    first = schedule(state, Grade.GOOD, now)
    assert first == schedule(state, Grade.GOOD, now)
    assert state == schedule(new_card_state(T0), Grade.EASY, T0).after  # input untouched


def test_fuzz_seed_spreads_cards_learnt_together():
    state = schedule(new_card_state(T0), Grade.EASY, T0).after
    now = state.due + timedelta(days=40)
    dues = {schedule(state, Grade.GOOD, now, fuzz_seed=card_id).after.due for card_id in range(40)}
    assert len(dues) > 1


@pytest.mark.parametrize("days", [1, 2, 3, 5, 7, 8, 15, 20, 21, 60, 400, 36500])
@pytest.mark.parametrize("fraction", [0.0, 0.25, 0.5, 0.999999])
def test_fuzz_is_fsrs_fuzz_with_our_random_number(monkeypatch, days, fraction):
    reference = Scheduler(maximum_interval=36500)
    monkeypatch.setattr(fsrs.scheduler, "random", lambda: fraction)
    theirs = reference._get_fuzzed_interval(interval=timedelta(days=days))
    assert fuzzed_interval(timedelta(days=days), fraction, 36500) == theirs


@settings(max_examples=100, deadline=None)
@given(history=histories, seed=st.integers(min_value=0, max_value=2**63))
def test_fuzzed_grade_keeps_fsrs_memory_state_and_range(history, seed):
    fuzzy = DEFAULT_CONFIG
    plain = replace(DEFAULT_CONFIG, enable_fuzzing=False)
    state = fold(history, plain)[-1].after
    now = state.due + timedelta(days=1)
    for grade in GRADES:
        a = schedule(state, grade, now, fuzzy, fuzz_seed=seed)
        b = schedule(state, grade, now, plain)
        assert (a.after.stability, a.after.difficulty, a.after.state) == (
            b.after.stability,
            b.after.difficulty,
            b.after.state,
        )
        if b.after.state is Phase.REVIEW and b.interval.days >= 3:
            low, high = fuzz_range(b.interval.days, plain.maximum_interval)
            # py-fsrs draws round(u * (high - low + 1) + low), which reaches high + 1 when u is near 1.
            assert low <= a.interval.days <= min(high + 1, plain.maximum_interval)
        else:
            assert a.interval == b.interval


@pytest.mark.parametrize("bad", [0, 5, -1, "3", 3.0, True, None])
def test_bad_rating_is_an_input_error(bad):
    with pytest.raises(InputError, match="rating must be 1"):
        schedule(new_card_state(T0), bad, T0)


def test_fsrs_rating_and_grade_are_accepted():
    assert schedule(new_card_state(T0), Rating.Good, T0).rating is Grade.GOOD


def test_naive_and_non_utc_times_are_utc():
    naive = datetime(2026, 3, 1, 9, 30)
    tokyo = datetime(2026, 3, 1, 18, 30, tzinfo=timezone(timedelta(hours=9)))
    a = schedule(new_card_state(naive), 3, naive)
    b = schedule(new_card_state(T0), 3, tokyo)
    assert a == b
    assert a.reviewed_at.tzinfo is UTC and a.after.due.tzinfo is UTC
    assert as_utc(naive) == T0


def test_state_from_store_row_normalises():
    # What SQLite hands back: a plain string and naive datetimes.
    row = CardState(
        state="review",
        step=None,
        stability=3.2,
        difficulty=5.0,
        due=datetime(2026, 3, 5),
        last_review=datetime(2026, 3, 1),
        reps=2,
        lapses=0,
    )
    assert row.state is Phase.REVIEW and row.due.tzinfo is UTC and row.last_review.tzinfo is UTC


@given(rating=ratings)
def test_round_trip_through_fsrs_card(rating):
    state = schedule(new_card_state(T0), rating, T0).after
    assert CardState.from_fsrs(state.to_fsrs(), reps=state.reps, lapses=state.lapses) == state
    new = new_card_state(T0)
    assert CardState.from_fsrs(new.to_fsrs(), reps=0, lapses=0) == new


def test_scheduler_is_cached_per_settings():
    assert fsrs_scheduler(DEFAULT_CONFIG) is fsrs_scheduler(SrsConfig())
    assert fsrs_scheduler(replace(DEFAULT_CONFIG, desired_retention=0.85)) is not fsrs_scheduler(
        DEFAULT_CONFIG
    )
    # Settings that don't change fsrs's computation share the scheduler.
    assert fsrs_scheduler(replace(DEFAULT_CONFIG, new_per_day=5)) is fsrs_scheduler(DEFAULT_CONFIG)


def test_optimised_parameters_are_used():
    weights = list(fsrs.scheduler.DEFAULT_PARAMETERS)
    weights[2] = 10.0  # initial stability for Good
    config = replace(DEFAULT_CONFIG, parameters=tuple(weights), enable_fuzzing=False, learning_steps=())
    outcome = schedule(new_card_state(T0), Grade.GOOD, T0, config)
    assert outcome.after.stability == 10.0
    assert outcome.interval == timedelta(days=10)


def test_format_interval():
    assert [
        format_interval(timedelta(seconds=s)) for s in (30, 600, 5400, 86400 * 3, 86400 * 75, 86400 * 800)
    ] == ["1m", "10m", "2h", "3d", "2.5mo", "2.2y"]
