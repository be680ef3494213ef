"""Misses become practice in the schedule: a confirmed interview answer that missed a point or stated a
misconception gets its card back within ``drill.srs.misses.MISS_CAP`` (one day), sooner than its grade alone
would; the memory state stays FSRS's own. Fixed clock; the uncapped due is recomputed by plain FSRS."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from drill.srs import Grade, new_card_state, schedule
from drill.srs.misses import MISS_CAP, cap_interval, miss_cap
from drill.tui.widgets.checklist import Checklist
from tests.interview.pilot import ManualTimer, interview_app, phase
from tests.tui.conftest import NOW, wait_until

DAY = timedelta(days=1)


def test_the_cap_is_one_day_and_only_after_a_miss():
    assert MISS_CAP == DAY
    assert miss_cap(0, 0) is None
    assert miss_cap(1, 0) == miss_cap(0, 1) == miss_cap(3, 2) == DAY


@given(st.sampled_from(list(Grade)), st.integers(min_value=0, max_value=10_000))
def test_capping_only_ever_shortens_and_keeps_the_memory_state(rating, seed):
    own = schedule(new_card_state(NOW), rating, NOW, fuzz_seed=seed)
    capped = cap_interval(own, MISS_CAP)
    assert capped.after.due == min(own.after.due, NOW + DAY)
    assert capped.interval == capped.after.due - NOW
    assert (capped.stability, capped.difficulty, capped.after.state) == (
        own.stability,
        own.difficulty,
        own.after.state,
    )
    assert cap_interval(own, None) is own


def test_a_store_grade_with_a_miss_is_due_sooner_than_the_grade_alone(library, store):
    store.sync_content(library)
    card = "q07"
    first = store.grade(card, int(Grade.EASY), NOW)  # a review card: Easy on a new card is days away
    later = first.due + timedelta(days=2)
    plain_due = store.grade(card, int(Grade.GOOD), later).due
    undone = store.undo_last()
    assert undone is not None
    capped = store.grade(card, int(Grade.GOOD), later, due_cap=miss_cap(1, 0))
    # independent recomputation: plain FSRS on the same state before, the same fuzz seed
    own = schedule(capped.outcome.before, Grade.GOOD, later, store.config, fuzz_seed=store_row(store, card))
    assert own.after.due == plain_due > later + DAY
    assert capped.due == later + DAY < plain_due
    info = store.card_info(card, later)
    assert info.due == later + DAY and info.stability == own.stability


def store_row(store, card_id):
    with store.transaction() as conn:
        return store.card_row(conn, card_id)[0]


async def test_a_confirmed_answer_with_a_missed_point_is_due_within_a_day(library, store):
    """Two questions confirmed Easy on new cards: the one with a point missed comes back the next day, the one
    with every point covered gets Easy's interval (days away)."""
    app = interview_app(library, store, ManualTimer())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.mode_screen
        dues = []
        for missing in (1, 0):
            await phase(pilot, "asking")
            card = screen.asked.card
            await pilot.press("ctrl+d")
            await phase(pilot, "rubric")
            points = screen.query_one("#iv-points", Checklist)
            want = len(card.points) - missing
            for i in range(want):
                points.select(i)
            await wait_until(pilot, lambda w=want: len(screen.rubric.covered) == w)
            await pilot.press("4")
            await wait_until(pilot, lambda: screen.chosen == 4)
            count = len(screen.answers)
            await pilot.press("enter")
            await wait_until(pilot, lambda c=count: len(screen.answers) == c + 1)
            dues.append(store.card_info(card.id, NOW).due)
    missed, covered = dues
    assert missed == NOW + DAY
    assert covered > NOW + DAY
