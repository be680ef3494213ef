"""Hypothesis strategies shared by the scheduler tests (``from tests.srs.srs_strategies import ...``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS
from hypothesis import strategies as st

from drill.srs.config import SrsConfig

T0 = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)

ratings = st.integers(min_value=1, max_value=4)

# Gaps between reviews: within a learning step, within a day, days, up to a year and a half.
gaps = st.one_of(
    st.integers(min_value=0, max_value=3600),
    st.integers(min_value=3600, max_value=3 * 86400),
    st.integers(min_value=86400, max_value=500 * 86400),
).map(lambda seconds: timedelta(seconds=seconds))

histories = st.lists(st.tuples(ratings, gaps), min_size=1, max_size=25)

step_lists = st.lists(
    st.integers(min_value=1, max_value=24 * 60).map(lambda m: timedelta(minutes=m)), max_size=3
).map(tuple)

# Any FSRS-6 weights within py-fsrs's bounds (what `drill optimize` may save).
weights = st.tuples(
    *(
        st.floats(min_value=low, max_value=high, allow_nan=False)
        for low, high in zip(LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
    )
)

configs = st.builds(
    SrsConfig,
    desired_retention=st.floats(min_value=0.7, max_value=0.99),
    learning_steps=step_lists,
    relearning_steps=step_lists,
    maximum_interval=st.integers(min_value=1, max_value=36500),
    enable_fuzzing=st.just(False),
    parameters=st.none() | weights,
)
