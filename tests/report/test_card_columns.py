"""The exports' card columns (drill.report.card_columns) against a plain recomputation: each JSON line is what
json.dumps makes of the card's dict, each CSV number is ``repr(round(v, 6))``, for any cards (hypothesis)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from drill.report.card_columns import CardColumns, json_numbers
from drill.report.csvout import _numbers
from drill.report.data import RATINGS, STATES, CardFigure

floats = st.one_of(st.none(), st.floats(min_value=0, max_value=1e6, allow_nan=False))
cards = st.builds(
    CardFigure,
    id=st.text(min_size=1, max_size=12),
    section=st.text(max_size=8),
    question=st.text(max_size=40),
    state=st.sampled_from(STATES),
    due=st.one_of(
        st.none(),
        st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)).map(
            lambda d: d.replace(tzinfo=UTC)
        ),
    ),
    stability=floats,
    difficulty=floats,
    retrievability=st.one_of(st.none(), st.floats(min_value=0, max_value=1)),
    reviews=st.integers(0, 10**6),
    lapses=st.integers(0, 10**4),
    last_rating=st.one_of(st.none(), st.sampled_from(list(RATINGS.values()))),
    flag=st.integers(0, 7),
    marked=st.booleans(),
)


def plain(card: CardFigure) -> dict:
    return {
        "id": card.id,
        "section": card.section,
        "question": card.question,
        "state": card.state,
        "due": None if card.due is None else card.due.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00"),
        "stability": card.stability,
        "difficulty": card.difficulty,
        "retrievability": card.retrievability,
        "reviews": card.reviews,
        "lapses": card.lapses,
        "last_rating": card.last_rating,
        "flag": card.flag,
        "marked": card.marked,
    }


@settings(max_examples=150, deadline=None)
@given(st.lists(cards, max_size=25))
def test_json_lines_are_json_dumps_of_each_card(figures):
    columns = CardColumns.of(figures)
    lines = columns.json_lines()
    assert lines == [json.dumps(plain(c), ensure_ascii=False) for c in figures]
    assert [json.loads(line) for line in lines] == [plain(c) for c in figures]
    assert list(columns) == figures  # the columns read back as the same cards


@settings(max_examples=150, deadline=None)
@given(st.lists(floats, max_size=40))
def test_csv_numbers_are_rounded_as_python_rounds(values):
    assert _numbers(values) == ["" if v is None else repr(round(v, 6)) for v in values]
    assert json_numbers(values) == ["null" if v is None else repr(v) for v in values]
