"""The store and the scheduler together: stored state equals py-fsrs, limits, study days, undo, leeches."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import fsrs
import pytest
from sqlalchemy import text

from drill.errors import StoreError
from drill.srs import Phase
from drill.store import open_store
from tests.store.store_support import CARDS, open_test_store

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday morning, after the 04:00 day start


def _fsrs_card_matches(stored, card: fsrs.Card) -> None:
    assert stored.stability == pytest.approx(card.stability, rel=1e-12)
    assert stored.difficulty == pytest.approx(card.difficulty, rel=1e-12)
    assert stored.due == card.due
    assert stored.last_review == card.last_review
    assert stored.step == card.step
    assert stored.kind.value == {1: "learning", 2: "review", 3: "relearning"}[int(card.state)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_stored_state_equals_py_fsrs(store, seed):
    """Grade a card many times at irregular moments; after each grade the stored state is fsrs's."""
    rng = random.Random(seed)
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    card = fsrs.Card(card_id=1, due=T0)
    now = T0
    for _ in range(12):
        rating = rng.choice([1, 2, 3, 3, 3, 4])
        result = store.grade("c00", rating, now, duration_ms=rng.randint(500, 9000))
        card, _log = scheduler.review_card(card, fsrs.Rating(rating), now)
        info = store.card_info("c00", now)
        _fsrs_card_matches(info, card)
        assert result.outcome.after.due == card.due
        assert info.due.tzinfo is not None and info.due.utcoffset() == timedelta(0)
        # Sometimes early, sometimes late: the scheduler must see the real elapsed time.
        now = card.due + timedelta(hours=rng.choice([-2, 0, 3, 30]))
        now = max(now, result.outcome.reviewed_at + timedelta(minutes=1))
    history = store.card_info("c00", now).history
    assert len(history) == 12
    assert all(entry.reviewed_at.tzinfo is UTC for entry in history)


def test_preview_equals_the_grade_with_fuzz(db_url):
    """With fuzz on, what the buttons promise is what a grade gives (fuzz is seeded, not random)."""
    store = open_test_store(db_url, enable_fuzzing=True, learning_steps=())
    try:
        now = T0
        store.grade("c01", 3, now)
        for day in range(4):
            now = store.card_info("c01", now).due + timedelta(hours=day)
            promised = store.preview("c01", now)
            for rating in (1, 2, 3, 4):
                result = store.grade("c01", rating, now)
                assert result.due == promised[rating]
                store.undo_last()
            store.grade("c01", 3, now)
    finally:
        store.close()


def test_daily_new_limit_and_next_day(db_url):
    store = open_test_store(db_url, new_per_day=3, enable_fuzzing=False)
    try:
        shown = []
        now = T0
        while (card := store.next_card(now)) is not None and card.kind is Phase.NEW:
            shown.append(card.card_id)
            store.grade(card.card_id, 4, now)  # Easy: out of today's queue
            now += timedelta(minutes=1)
            assert len(shown) <= 3
        assert shown == ["c00", "c01", "c02"]  # content order
        counts = store.counts(now)
        assert counts.new == 0 and counts.new_today == 3 and counts.done_today == 3
        tomorrow = T0 + timedelta(days=1)
        assert store.counts(tomorrow).new == 3
        assert store.next_card(tomorrow).card_id == "c03"
    finally:
        store.close()


def test_daily_review_limit(db_url):
    store = open_test_store(
        db_url, reviews_per_day=2, new_per_day=100, learning_steps=(), enable_fuzzing=False
    )
    try:
        for cid in ("c00", "c01", "c02", "c03"):
            store.grade(cid, 3, T0)  # no learning steps: straight to review
        later = T0 + timedelta(days=30)  # all four are due
        counts = store.counts(later)
        assert counts.due == 2  # capped by the limit
        reviewed = []
        while (card := store.next_card(later)) is not None and card.kind is Phase.REVIEW:
            reviewed.append(card.card_id)
            store.grade(card.card_id, 3, later)
            assert len(reviewed) <= 2
        assert len(reviewed) == 2
        assert store.counts(later).due == 0 and store.counts(later).reviews_today == 2
    finally:
        store.close()


def test_learning_cards_are_not_limited(db_url):
    store = open_test_store(db_url, reviews_per_day=0, new_per_day=1, enable_fuzzing=False)
    try:
        store.grade("c00", 1, T0)  # Again: learning, due in a minute
        later = T0 + timedelta(minutes=5)
        card = store.next_card(later)
        assert card is not None and card.card_id == "c00" and card.kind is Phase.LEARNING
    finally:
        store.close()


def test_day_boundary_is_the_configured_hour(db_url):
    store = open_test_store(db_url, new_per_day=1, day_starts_at=4, enable_fuzzing=False)
    try:
        late_night = datetime(2026, 3, 2, 3, 30, tzinfo=UTC)  # still Sunday's study day
        store.grade("c00", 4, late_night)
        assert store.next_card(datetime(2026, 3, 2, 3, 59, tzinfo=UTC)) is None
        assert store.counts(datetime(2026, 3, 2, 3, 59, tzinfo=UTC)).new_today == 1
        fresh = store.next_card(datetime(2026, 3, 2, 4, 0, tzinfo=UTC))
        assert fresh is not None and fresh.card_id == "c01"
        assert store.counts(datetime(2026, 3, 2, 4, 0, tzinfo=UTC)).new_today == 0
    finally:
        store.close()


def test_bury_hides_until_the_next_study_day_and_suspend_until_unsuspended(store):
    store.grade("c00", 1, T0)
    soon = T0 + timedelta(minutes=30)
    assert store.next_card(soon).card_id == "c00"
    store.bury("c00", soon)
    assert store.next_card(soon).card_id != "c00"
    assert [r.card_id for r in store.browse(state="buried", now=soon)] == ["c00"]
    next_morning = datetime(2026, 3, 3, 4, 0, tzinfo=UTC)
    assert store.next_card(next_morning).card_id == "c00"

    store.suspend("c00")
    assert store.next_card(next_morning).card_id != "c00"
    assert [r.card_id for r in store.browse(state="suspended")] == ["c00"]
    store.unsuspend("c00")
    assert store.next_card(next_morning).card_id == "c00"


def test_suspending_a_new_card_keeps_it_out_of_the_new_queue(store):
    store.suspend("c00")
    assert store.next_card(T0).card_id == "c01"
    assert store.counts(T0).new == 20
    store.unsuspend("c00")
    assert store.next_card(T0).card_id == "c00"


def _state_row(url, user_id, card):
    from sqlalchemy import create_engine

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            row = (
                conn.execute(
                    text(
                        "SELECT s.* FROM card_states s JOIN cards c ON c.id = s.card_id "
                        "WHERE s.user_id = :u AND c.content_id = :c"
                    ),
                    {"u": user_id, "c": card},
                )
                .mappings()
                .first()
            )
            return dict(row) if row else None
    finally:
        engine.dispose()


def test_undo_restores_the_exact_state_and_deletes_the_log(store, db_url):
    store.grade("c00", 3, T0)
    store.grade("c00", 3, T0 + timedelta(minutes=10))
    store.bury("c00", T0 + timedelta(minutes=11))
    before = _state_row(db_url, store.user_id, "c00")
    logs_before = len(store.review_logs())
    store.grade("c00", 1, T0 + timedelta(days=2))
    assert _state_row(db_url, store.user_id, "c00") != before
    undone = store.undo_last()
    assert undone.card_id == "c00" and undone.rating == 1
    assert _state_row(db_url, store.user_id, "c00") == before
    assert len(store.review_logs()) == logs_before

    # Then the bury (every action is undone, in order), then the grades. Undoing a card's first grade makes
    # it new again (and gives back the day's new-card slot).
    assert store.undo_last().action == "bury"
    assert store.card_info("c00", T0).buried_until is None
    store.undo_last()
    store.undo_last()
    info = store.card_info("c00", T0)
    assert info.kind is Phase.NEW and info.reps == 0 and info.stability is None
    assert store.counts(T0).new_today == 0
    assert store.undo_last() is None


def _drive_to_review(store, cid, now):
    store.grade(cid, 3, now)
    now += timedelta(minutes=10)
    store.grade(cid, 3, now)
    info = store.card_info(cid, now)
    assert info.kind is Phase.REVIEW
    return info.due


def test_leech_after_eight_lapses_is_tagged_and_suspended(db_url):
    store = open_test_store(db_url, leech_threshold=8, enable_fuzzing=False)
    try:
        now = _drive_to_review(store, "c05", T0)
        for lapse in range(1, 9):
            result = store.grade("c05", 1, now)  # Again on a review card: a lapse
            assert result.outcome.after.lapses == lapse
            assert result.became_leech == (lapse == 8)
            now = result.due
            if lapse < 8:
                back = store.grade("c05", 3, now)  # relearning -> review
                now = back.due
        info = store.card_info("c05", now)
        assert info.leech and info.suspended and info.lapses == 8
        assert [r.card_id for r in store.browse(state="leech")] == ["c05"]
        far = now + timedelta(days=400)
        for _ in range(40):
            card = store.next_card(far)
            if card is None:
                break
            assert card.card_id != "c05"
            store.grade(card.card_id, 4, far)
        # Undo of the leech grade restores the card untagged and unsuspended.
        while store.review_logs()[-1].card_id != "c05":
            store.undo_last()
        store.undo_last()
        info = store.card_info("c05", now)
        assert not info.leech and not info.suspended and info.lapses == 7
    finally:
        store.close()


def test_content_sync_edit_remove_readd(store):
    store.grade("c00", 3, T0)
    store.grade("c00", 3, T0 + timedelta(minutes=10))
    kept = store.card_info("c00", T0)

    # Edit: same id, new section (and new text, which the store never sees) -> progress kept.
    edited = [(p, cid, "9.9" if cid == "c00" else s) for p, cid, s in CARDS]
    assert store.sync_content(edited)["updated"] == 1
    info = store.card_info("c00", T0)
    assert info.section == "9.9" and info.stability == kept.stability and info.reps == 2

    # Remove: retired, hidden from study and browse, history kept.
    removed = [item for item in edited if item[1] != "c00"]
    assert store.sync_content(removed)["retired"] == 1
    assert "c00" not in [r.card_id for r in store.browse()]
    far = T0 + timedelta(days=365)
    assert store.next_card(far).card_id != "c00"
    assert any(e.card_id == "c00" for e in store.review_logs())

    # Re-add: restored with its progress.
    assert store.sync_content(edited)["restored"] == 1
    info = store.card_info("c00", T0)
    assert not info.retired and info.reps == 2 and info.stability == kept.stability
    assert store.next_card(far).card_id == "c00"

    # New ids become new cards; other packs are left alone.
    assert store.sync_content(edited + [("pack-a", "c99", "7.1")])["added"] == 1
    assert store.sync_content([("pack-b", "x", "1")]) == {
        "added": 1,
        "retired": 0,
        "restored": 0,
        "updated": 0,
    }
    assert [r.card_id for r in store.browse()] == ["x"]  # only the synced pack is studied


def test_users_share_a_database_but_not_progress(db_url):
    alice = open_test_store(db_url, "alice", enable_fuzzing=False)
    bob = open_test_store(db_url, "bob", enable_fuzzing=False)
    try:
        alice.grade("c00", 3, T0)
        assert bob.card_info("c00", T0).kind is Phase.NEW
        assert bob.review_logs() == []
        assert bob.counts(T0).done_today == 0 and alice.counts(T0).done_today == 1
        assert bob.undo_last() is None
        assert alice.undo_last() is not None
        assert alice.user_id != bob.user_id
    finally:
        alice.close()
        bob.close()


def test_make_due_now_quiz_attempts_and_sessions(store):
    store.grade("c00", 4, T0)
    due_before = store.card_info("c00", T0).due
    assert due_before > T0 + timedelta(days=1)
    later = T0 + timedelta(hours=1)
    assert store.make_due_now(["c00", "c01", "nope"], later) == 1  # c01 is new: stays new
    assert store.next_card(later).card_id == "c00"

    from drill.store.types import QuizAnswerRecord

    answers = [
        QuizAnswerRecord("quiz-1", "chapter", "B", True, False, 3000, later),
        QuizAnswerRecord("gen-7", "generated", None, False, True, 20000, later),
    ]
    attempt = store.record_quiz_attempt(T0, later, {"count": 2, "seconds": 20}, answers)
    assert attempt > 0

    session = store.start_session(later)
    store.grade("c00", 3, later, session_id=session)
    store.end_session(session, later + timedelta(minutes=5))
    assert store.review_logs()[-1].session_id == session


def test_naive_times_and_bad_ratings_are_refused(store):
    from drill.errors import InputError

    with pytest.raises(ValueError):
        store.next_card(datetime(2026, 1, 1))
    with pytest.raises(InputError):
        store.grade("c00", 5, T0)
    with pytest.raises(StoreError, match="not in the progress database"):
        store.grade("no-such-card", 3, T0)
    assert store.review_logs() == []


def test_section_filter_and_browse(store):
    in_section = [cid for _, cid, section in CARDS if section == "7.2"]
    shown = []
    now = T0
    while (card := store.next_card(now, section="7.2")) is not None:
        assert card.section == "7.2"
        shown.append(card.card_id)
        store.grade(card.card_id, 4, now)
    assert shown == in_section
    assert store.counts(now, section="7.2").new == 0
    assert store.counts(now).new == 20 - len(in_section)
    # A learning card of the section comes back through the due query (the SQLite fast path).
    store.undo_last()
    store.grade(in_section[-1], 1, now)
    due = store.next_card(now + timedelta(minutes=2), section="7.2")
    assert due.card_id == in_section[-1] and due.kind is Phase.LEARNING and due.due.tzinfo is UTC
    assert store.next_card(now + timedelta(minutes=2), section="7.3").kind is Phase.NEW
    assert {r.card_id for r in store.browse(section="7.2", state="review")} == set(in_section[:-1])
    assert [r.card_id for r in store.browse(text="C0")] == [f"c0{i}" for i in range(10)]
    with pytest.raises(StoreError, match="unknown card state"):
        store.browse(state="bogus")


def test_next_card_hands_back_the_due_time_as_graded(db_url):
    """The due card's time comes back aware UTC, to the microsecond, as the grade scheduled it."""
    store = open_test_store(db_url, learning_steps=(), enable_fuzzing=True)
    try:
        due_after = {}
        for i, (_, cid, _) in enumerate(CARDS[:12]):
            result = store.grade(
                cid, 1 + i % 4, T0 + timedelta(seconds=i, microseconds=123457 * i % 1_000_000)
            )
            due_after[cid] = result.outcome.after.due
        later = T0 + timedelta(days=400)
        card = store.next_card(later)
        assert card is not None and card.due.tzinfo is UTC
        assert card.due == min(due_after.values()) and card.due == due_after[card.card_id]
    finally:
        store.close()


@pytest.mark.parametrize(
    "name,fragment",
    [
        ("   ", "--user must not be empty"),
        ("x" * 201, "--user is 201 characters long; at most 200"),
        ("a\x1b[31mb", "contains the control character U+001B"),
        ("a\nb", "contains the control character U+000A"),
        ("a\x9bb", "contains the control character U+009B"),
    ],
)
def test_user_names_that_cannot_be_stored_or_printed_are_refused(db_url, name, fragment):
    with pytest.raises(StoreError, match=re.escape(fragment)):
        open_store(db_url, name)


def test_odd_but_printable_user_names_work(db_url):
    for name in ("名字", "o'brien; drop table users", "x" * 200, "  padded  "):
        store = open_store(db_url, name)
        try:
            assert store.user == name.strip() and store.user_id > 0
        finally:
            store.close()
