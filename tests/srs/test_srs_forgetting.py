"""drill.srs.forgetting (the forgetting curve as a function of stability, elapsed days and decay) against
py-fsrs's own ``get_card_retrievability``, for any parameters py-fsrs accepts and any review history."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest
from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.srs.forgetting import decay_of, elapsed_days, retrievability
from tests.srs.srs_strategies import T0, histories, weights

later = st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=800))


@settings(max_examples=150, deadline=None)
@given(history=histories, parameters=st.none() | weights, after=later)
def test_retrievability_equals_py_fsrs(history, parameters, after):
    scheduler = Scheduler(parameters=parameters or DEFAULT_PARAMETERS, enable_fuzzing=False)
    card, now = Card(), T0
    for rating, gap in history:
        now += gap
        card, _ = scheduler.review_card(card, Rating(rating), now)
    now += after
    want = scheduler.get_card_retrievability(card, now)
    got = retrievability(card.stability, elapsed_days(card.last_review, now), decay_of(parameters))
    assert got == pytest.approx(want, rel=1e-12)


def test_the_decay_is_the_last_parameter_negated_and_defaults_to_py_fsrs():
    custom = list(DEFAULT_PARAMETERS)
    custom[20] = 0.35  # a steeper forgetting curve than the default decay
    assert decay_of(custom) == -0.35
    assert decay_of() == -DEFAULT_PARAMETERS[20]


def test_the_curve_is_90_percent_at_the_stability_and_falls_with_time():
    decay = decay_of()
    assert retrievability(12.5, 12.5, decay) == pytest.approx(0.9, rel=1e-12)
    assert retrievability(12.5, 0, decay) == 1.0
    values = [retrievability(12.5, days, decay) for days in (1, 5, 30, 365)]
    assert values == sorted(values, reverse=True) and values[-1] > 0


def test_arrays_give_each_elements_value():
    decay = decay_of()
    stability, days = np.array([0.5, 3.0, 40.0]), np.array([0.0, 7.0, 100.0])
    got = retrievability(stability, days, decay)
    assert got.tolist() == [
        retrievability(s, d, decay) for s, d in zip(stability.tolist(), days.tolist(), strict=True)
    ]


def test_elapsed_days_counts_whole_days_and_never_goes_negative():
    assert elapsed_days(T0, T0 + timedelta(days=2, hours=23, minutes=59)) == 2
    assert elapsed_days(T0, T0 - timedelta(hours=5)) == 0
