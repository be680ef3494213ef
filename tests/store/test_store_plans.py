"""Interview plans in the store: dues pulled in before the day, FSRS's own kept and put back, undo exact."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from drill.errors import InputError
from drill.srs import schedule
from drill.srs.days import day_start
from drill.srs.deadline import Deadline, recall

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
INTERVIEW = date(2026, 11, 20)


def deadline_for(store, target=0.9):
    return Deadline(at=day_start(INTERVIEW, store.config.day_starts_at, UTC), target=target)


def states(store):
    from sqlalchemy import select

    from drill.store.tables import cards_t, states_t

    with store.transaction() as conn:
        rows = conn.execute(
            select(
                cards_t.c.content_id,
                states_t.c.due,
                states_t.c.fsrs_due,
                states_t.c.stability,
                states_t.c.last_review,
                states_t.c.state,
            )
            .join(cards_t, cards_t.c.id == states_t.c.card_id)
            .where(states_t.c.user_id == store.user_id)
        ).all()
    return {row.content_id: row for row in rows}


def learn(store, ids, when=T0):
    """Introduce cards and grade them Easy twice, so their next review lands weeks out."""
    for cid in ids:
        store.grade(cid, 4, when)
    for cid in ids:
        store.grade(cid, 4, when + 2 * DAY)


def test_setting_a_plan_pulls_in_dues_past_the_day_and_clearing_puts_them_back(store):
    ids = [f"c{i:02d}" for i in range(6)]
    learn(store, ids)
    before = states(store)
    deadline = deadline_for(store, target=0.97)
    moved = store.set_interview_plan(INTERVIEW, 0.97, T0 + 3 * DAY)
    after = states(store)
    expected_moved = 0
    for cid in ids:
        own = before[cid]
        ready = recall(_state(own), deadline.at, store.config)
        if own.due.replace(tzinfo=UTC) > deadline.at and ready < 0.97:
            expected_moved += 1
            assert after[cid].due.replace(tzinfo=UTC) <= deadline.at
            assert after[cid].fsrs_due == own.due
        else:
            assert after[cid].due == own.due and after[cid].fsrs_due is None
    assert moved == expected_moved > 0
    assert store.interview_plan(T0 + 3 * DAY).interview_day == INTERVIEW
    assert store.clear_interview_plan() == expected_moved
    restored = states(store)
    assert {cid: (r.due, r.fsrs_due) for cid, r in restored.items()} == {
        cid: (r.due, None) for cid, r in before.items()
    }
    assert store.interview_plan(T0 + 3 * DAY) is None


def _state(row):
    from drill.srs import CardState, Phase

    return CardState(
        state=Phase(row.state), stability=row.stability, due=row.due, last_review=row.last_review
    )


def test_grading_under_a_plan_keeps_the_due_before_the_day_and_fsrs_own_beside_it(store):
    store.set_interview_plan(INTERVIEW, 0.97, T0)
    deadline = deadline_for(store, target=0.97)
    store.grade("c01", 4, T0)
    from drill.store.reviewing import load_state

    with store.transaction() as conn:
        before, _ = load_state(store, conn, store.card_row(conn, "c01")[0])
    now = T0 + 2 * DAY
    preview = store.preview("c01", now)
    result = store.grade("c01", 4, now)
    own = schedule(before, 4, now, store.config, fuzz_seed=_row(store, "c01"))
    row = states(store)["c01"]
    assert result.outcome.after.due == preview[4]
    if own.after.due > deadline.at and recall(own.after, deadline.at, store.config) < 0.97:
        assert result.outcome.after.due <= deadline.at
        assert row.fsrs_due.replace(tzinfo=UTC) == own.after.due
    else:
        pytest.fail("the test's grade should have been pulled in (Easy twice, target 0.97, 18 days out)")
    # undo puts back exactly the state before, fsrs_due included
    store.undo_last()
    row = states(store)["c01"]
    assert row.fsrs_due is None and row.due.replace(tzinfo=UTC) == before.due
    # without the plan the same grade is FSRS's own
    store.clear_interview_plan()
    assert store.grade("c01", 4, now).outcome.after.due == own.after.due
    assert states(store)["c01"].fsrs_due is None


def _row(store, cid):
    with store.transaction() as conn:
        return store.card_row(conn, cid)[0]


def test_a_plan_whose_day_has_begun_is_cleared_and_dues_restored(store):
    learn(store, ["c02", "c03"])
    before = states(store)
    store.set_interview_plan(INTERVIEW, 0.99, T0 + 3 * DAY)
    assert any(r.fsrs_due is not None for r in states(store).values())
    assert store.interview_plan(datetime(2026, 11, 21, 12, tzinfo=UTC)) is None
    assert {c: (r.due, r.fsrs_due) for c, r in states(store).items()} == {
        c: (r.due, None) for c, r in before.items()
    }


def test_a_past_day_or_a_bad_target_is_refused(store):
    with pytest.raises(InputError, match="already begun"):
        store.set_interview_plan(date(2026, 11, 1), 0.9, T0)
    with pytest.raises(InputError, match="target"):
        store.set_interview_plan(INTERVIEW, 1.5, T0)
    assert store.interview_plan(T0) is None
