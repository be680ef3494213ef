"""The interview rubric's proposed grade: recomputed from its documented thresholds over all coverages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drill.content import load_content
from drill.errors import InputError
from drill.tui.models.interview import AGAIN, EASY, GOOD, HARD, Rubric, Thresholds, propose_grade


def reference(covered: int, total: int, traps: int, t: Thresholds) -> int:
    ratio = covered / total
    base = 4 if ratio >= t.easy else 3 if ratio >= t.good else 2 if ratio >= t.hard else 1
    return max(1, base - traps)


@given(
    total=st.integers(1, 8),
    data=st.data(),
    traps=st.integers(0, 4),
    cuts=st.lists(st.floats(0, 1), min_size=3, max_size=3).map(sorted),
)
def test_proposed_grade_follows_the_documented_thresholds(total, data, traps, cuts):
    covered = data.draw(st.integers(0, total))
    t = Thresholds(hard=cuts[0], good=cuts[1], easy=cuts[2])
    assert propose_grade(covered / total, traps, t) == reference(covered, total, traps, t)


def test_a_shipped_bank_card_rubric_from_its_points_and_pitfalls():
    card = next(c for c in load_content(cache=False).cards.values() if c.bank == 7)
    rubric = Rubric(card.id, card.points, card.pitfalls)
    assert rubric.proposed_grade() == AGAIN
    for i in range(len(card.points)):
        rubric.toggle_point(i)
    assert rubric.coverage == 1 and rubric.missed() == [] and rubric.proposed_grade() == EASY
    rubric.toggle_trap(0)
    assert rubric.proposed_grade() == GOOD
    rubric.toggle_point(0)
    rubric.toggle_point(1)
    assert rubric.proposed_grade() in (AGAIN, HARD)
    assert rubric.missed() == list(card.points[:2])


@pytest.mark.parametrize("bad", [dict(hard=0.8, good=0.5), dict(easy=1.2), dict(hard=-0.1)])
def test_thresholds_out_of_order_are_refused(bad):
    with pytest.raises(InputError, match="thresholds"):
        Thresholds(**bad)


def test_a_card_without_points_has_no_rubric_and_ticks_are_bounded():
    with pytest.raises(InputError, match="no points"):
        Rubric("q99", ())
    with pytest.raises(InputError, match="no point 3"):
        Rubric("q01", ("a", "b")).toggle_point(2)
    assert HARD == 2
