"""The due-review count reads one index (issue 27 #2): card_states.card_retired copies the card's retired flag
(migration 0014 fills it; sync and the code-pack carry keep it), and the count of due reviews is a range of the
partial index ix_card_states_pack_review alone — no state row, no card row — with a large other pack in the
table. The counts equal a plain recomputation from the cards and state tables as cards retire and come back,
and migration 0014 goes up, down and up again on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from sqlalchemy import create_engine, inspect, text

from drill.store import migrate
from tests.store.store_support import CARDS, open_test_store
from tests.store.test_store_pack_bounds import captured, fill_other_pack, plans

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
LATER = T0 + timedelta(days=60)  # every card graded Easy at T0 is due by then


def _reviewed(store, cards) -> None:
    store.sync_content(cards)
    for _pack, content_id, _section in cards:
        store.grade(content_id, 4, T0)  # a new card graded Easy is a review card


def _due_reviews_by_hand(url: str, user: str, now: datetime) -> int:
    """The due reviews recomputed from the cards table (not the copy): unretired, unsuspended, unburied."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT cards.retired, card_states.due, card_states.buried_until, card_states.suspended "
                    "FROM card_states JOIN cards ON cards.id = card_states.card_id "
                    "JOIN users ON users.id = card_states.user_id "
                    "WHERE users.name = :user AND card_states.state = 'review'"
                ),
                {"user": user},
            ).all()
    finally:
        engine.dispose()

    def aware(value):
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value if value.tzinfo else value.replace(tzinfo=UTC)

    return sum(
        1
        for retired, due, buried, suspended in rows
        if not retired and not suspended and aware(due) <= now and (buried is None or aware(buried) <= now)
    )


def _copies(url: str) -> dict[str, bool]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {
                content_id: bool(copy)
                for content_id, copy in conn.execute(
                    text(
                        "SELECT cards.content_id, card_states.card_retired FROM card_states "
                        "JOIN cards ON cards.id = card_states.card_id"
                    )
                )
            }
    finally:
        engine.dispose()


def test_the_copy_follows_retire_and_restore(db_url):
    store = open_test_store(db_url, enable_fuzzing=False)
    try:
        _reviewed(store, CARDS)
        assert store.counts(LATER).review == _due_reviews_by_hand(db_url, "alice", LATER) == len(CARDS)
        store.sync_content(CARDS[5:])  # c00-c04 retired
        assert _copies(db_url) == {cid: cid in {"c00", "c01", "c02", "c03", "c04"} for _, cid, _ in CARDS}
        assert store.counts(LATER).review == _due_reviews_by_hand(db_url, "alice", LATER) == len(CARDS) - 5
        store.sync_content(CARDS)  # restored
        assert not any(_copies(db_url).values())
        assert store.counts(LATER).review == _due_reviews_by_hand(db_url, "alice", LATER) == len(CARDS)
    finally:
        store.close()
    other = open_test_store(db_url, "bob", enable_fuzzing=False)  # another user's rows of a retired card
    try:
        other.sync_content(CARDS[:3])  # bob's sync retires c03.. for everyone, his rows of c00-c02 exist
        assert _copies(db_url)["c10"] is True
        assert other.counts(LATER).review == 0
    finally:
        other.close()


def test_the_due_review_count_reads_its_index_alone(tmp_path):
    path = tmp_path / "p.sqlite3"
    url = f"sqlite:///{path}"
    store = open_test_store(url, enable_fuzzing=False)
    try:
        _reviewed(store, CARDS)
        user_id = store.user_id
    finally:
        store.close()
    fill_other_pack(path, user_id)
    store = open_test_store(url, enable_fuzzing=False)
    try:
        store.sync_content(CARDS)
        seen = captured(store)
        counts = store.counts(LATER)
    finally:
        store.close()
    assert counts.review == _due_reviews_by_hand(url, "alice", LATER) - _other_due(path) == len(CARDS)
    review_plans = [plan for plan in plans(path, seen) if "ix_card_states_pack_review" in plan]
    assert review_plans, plans(path, seen)
    for plan in review_plans:
        assert "USING COVERING INDEX ix_card_states_pack_review (user_id=? AND card_pack=?" in plan, plan
        assert "cards" not in plan.replace("card_states", ""), plan  # no card row read


def _other_due(path) -> int:
    """Due review rows of the other pack ("big", not studied here) at LATER, for the by-hand count."""
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT count(*) FROM card_states WHERE card_pack = 'big' AND state = 'review' AND due <= ?",
            (LATER.strftime("%Y-%m-%d %H:%M:%S.%f"),),
        ).fetchone()[0]


def test_migration_0014_up_down_up(db_url):
    from tests.store.test_store_study_more import _downgrade

    store = open_test_store(db_url, enable_fuzzing=False)
    try:
        _reviewed(store, CARDS)
        store.sync_content(CARDS[2:])  # c00, c01 retired
    finally:
        store.close()
    engine = create_engine(db_url)
    try:
        _downgrade(engine, "0013")
        columns = {c["name"] for c in inspect(engine).get_columns("card_states")}
        assert "card_retired" not in columns
        indexes = {i["name"] for i in inspect(engine).get_indexes("card_states")}
        assert "ix_card_states_pack_review" not in indexes and "ix_card_states_pack_not_review" in indexes
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM review_logs")).scalar() == len(CARDS)  # kept
        migrate.upgrade(db_url)  # fills the copy from cards.retired
    finally:
        engine.dispose()
    assert _copies(db_url) == {cid: cid in {"c00", "c01"} for _, cid, _ in CARDS}
    from tests.store.test_store_migrations import test_migrated_schema_equals_the_models

    test_migrated_schema_equals_the_models(db_url)  # the partial indexes survived the round trip
    store = open_test_store(db_url, enable_fuzzing=False)
    try:
        store.sync_content(CARDS[2:])
        assert store.counts(LATER).review == len(CARDS) - 2 == _due_reviews_by_hand(db_url, "alice", LATER)
    finally:
        store.close()
