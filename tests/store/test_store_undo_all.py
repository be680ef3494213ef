"""Issue 11 items 6-7: undo takes back every kind of action, newest first; hidden cards can come back."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from drill.errors import StoreError

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _rows(store) -> list[tuple]:
    """Every state row and the log length, read with plain SQL (the oracle the undo must return to)."""
    with store.engine.connect() as conn:
        states = [tuple(r) for r in conn.execute(text("SELECT * FROM card_states ORDER BY user_id, card_id"))]
        logs = conn.execute(text("SELECT count(*) FROM review_logs")).scalar()
    return [*states, ("logs", logs)]


def test_undo_takes_back_each_kind_of_action_in_reverse_order(store):
    snapshots = []
    actions = [
        lambda: store.grade("c01", 3, T0),
        lambda: store.grade("c02", 1, T0 + timedelta(minutes=1)),
        lambda: store.suspend("c01"),
        lambda: store.bury("c02", T0 + timedelta(minutes=2)),
        lambda: store.make_due_now(["c01", "c02"], T0 + timedelta(minutes=3)),
        lambda: store.grade("c03", 4, T0 + timedelta(minutes=4)),
        lambda: store.unsuspend("c01"),
        lambda: store.unbury("c02"),
        lambda: store.reset("c02"),
        lambda: store.suspend("c05"),  # a card never studied: undo removes the row it made
    ]
    for action in actions:
        snapshots.append(_rows(store))
        action()
    kinds = []
    for expected in reversed(snapshots):
        result = store.undo_last()
        assert result is not None
        kinds.append(result.action)
        assert _rows(store) == expected
    assert kinds == [
        "suspend",
        "reset",
        "unbury",
        "unsuspend",
        "grade",
        "make-due",
        "bury",
        "suspend",
        "grade",
        "grade",
    ]
    assert store.undo_last() is None


def test_a_suspend_after_a_grade_is_undone_first(store):
    store.grade("c04", 3, T0)
    store.suspend("c04")
    first = store.undo_last()
    assert (first.action, first.card_id) == ("suspend", "c04")
    assert not store.card_info("c04", T0).suspended
    assert store.card_info("c04", T0).reps == 1  # the grade is still there
    second = store.undo_last()
    assert (second.action, second.rating) == ("grade", 3)


def test_unsuspend_brings_a_leech_back_to_study(store):
    store.config = replace(store.config, leech_threshold=2, leech_action="suspend")
    store.grade("c06", 3, T0)
    now = T0
    for _ in range(60):  # Good until it is in review, then Again (a lapse), until the leech rule suspends it
        info = store.card_info("c06", now)
        if info.suspended:
            break
        now = max(now, info.due or now) + timedelta(minutes=1)
        store.grade("c06", 1 if info.kind.value == "review" else 3, now)
    assert store.card_info("c06", now).suspended and store.card_info("c06", now).leech
    assert "c06" in [r.card_id for r in store.browse(state="leech")]
    store.unsuspend("c06")
    info = store.card_info("c06", now)
    assert not info.suspended
    assert "c06" not in [r.card_id for r in store.browse(state="suspended")]


def test_unbury_returns_the_card_today(store):
    store.grade("c07", 1, T0)
    store.bury("c07", T0)
    assert "c07" in [r.card_id for r in store.browse(state="buried", now=T0)]
    store.unbury("c07")
    assert "c07" not in [r.card_id for r in store.browse(state="buried", now=T0)]
    assert store.card_info("c07", T0).buried_until is None


def test_undo_of_a_grade_overtaken_by_another_drill_is_refused(store, db_url):
    from tests.store.store_support import open_test_store

    store.grade("c08", 3, T0)
    other = open_test_store(db_url, enable_fuzzing=False)
    try:
        other.grade("c08", 4, T0 + timedelta(days=3))
    finally:
        other.close()
    with pytest.raises(StoreError, match="graded again"):
        store.undo_last()
