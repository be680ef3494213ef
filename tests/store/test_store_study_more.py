"""Study more today (issue 23 #5): Store.study_more adds new cards and reviews to one study day's limits;
next_card and counts both follow it, the next study day starts from the settings again, undo of a grade on an
extra card brings that card back, bad values are refused, and migration 0013 goes up, down and up again."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import create_engine, inspect, text

from drill.errors import InputError, StoreError
from drill.srs import Phase
from tests.store.store_support import CARDS, open_test_store

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _introduce(store, now, count: int) -> list[str]:
    """Grade the next ``count`` cards Easy (new cards graduate: not due again today); their ids."""
    ids = []
    for _ in range(count):
        card = store.next_card(now)
        assert card is not None and card.kind is Phase.NEW
        store.grade(card.card_id, 4, now)
        ids.append(card.card_id)
    return ids


def test_more_new_cards_today_raise_the_days_limit_only(db_url):
    store = open_test_store(db_url, enable_fuzzing=False)
    try:
        store.config = replace(store.config, new_per_day=2)
        _introduce(store, T0, 2)
        assert store.next_card(T0) is None
        counts = store.counts(T0)
        assert (counts.new, counts.new_held, counts.extra_new) == (0, True, 0)

        assert store.study_more(T0, new=3) == (3, 0)
        assert store.counts(T0).new == 3 and store.counts(T0).extra_new == 3
        extra = _introduce(store, T0 + timedelta(minutes=1), 3)
        assert len(set(extra)) == 3
        later = T0 + timedelta(minutes=2)
        assert store.next_card(later) is None and store.counts(later).new == 0
        assert store.study_more(later, new=1) == (4, 0)  # a second press adds to the first
        assert store.counts(later).new == 1 and store.next_card(later).kind is Phase.NEW

        # The next study day: the setting's 2 again (what was added belonged to yesterday).
        tomorrow = T0 + timedelta(days=1)
        counts = store.counts(tomorrow)
        assert counts.extra_new == 0 and counts.new == 2
    finally:
        store.close()


def test_more_reviews_today(db_url):
    store = open_test_store(db_url, enable_fuzzing=False)
    try:
        _introduce(store, T0, 6)  # six review cards, due in days
        store.config = replace(store.config, new_per_day=0, reviews_per_day=1)
        later = T0 + timedelta(days=60)  # all six due
        card = store.next_card(later)
        assert card.kind is Phase.REVIEW
        store.grade(card.card_id, 3, later)
        assert store.next_card(later) is None
        counts = store.counts(later)
        assert (counts.review, counts.reviews_held) == (0, True)
        assert store.study_more(later, reviews=2) == (0, 2)
        counts = store.counts(later)
        assert (counts.review, counts.due, counts.reviews_held) == (2, 2, True)
        for _ in range(2):
            card = store.next_card(later)
            assert card.kind is Phase.REVIEW
            store.grade(card.card_id, 3, later)
        assert store.next_card(later) is None
        assert store.study_more(later, reviews=9) == (0, 11)
        assert store.counts(later).review == 3 and not store.counts(later).reviews_held  # 3 left in all
    finally:
        store.close()


def test_undo_of_a_grade_on_an_extra_card_brings_it_back(db_url):
    store = open_test_store(db_url, enable_fuzzing=False)
    try:
        store.config = replace(store.config, new_per_day=1)
        _introduce(store, T0, 1)
        store.study_more(T0, new=1)
        card = store.next_card(T0)
        assert card is not None and card.kind is Phase.NEW
        store.grade(card.card_id, 4, T0)
        assert store.next_card(T0) is None and store.counts(T0).new == 0
        undone = store.undo_last()
        assert undone is not None and undone.card_id == card.card_id
        again = store.next_card(T0)
        assert again is not None and again.card_id == card.card_id and again.kind is Phase.NEW
        assert store.counts(T0).new == 1 and store.counts(T0).new_today == 1
    finally:
        store.close()


@pytest.mark.parametrize(
    "new,reviews,what",
    [(-1, 0, "new cards -1"), (0, 10000, "reviews 10000"), (0, 0, "nothing to add"), (True, 0, "True")],
)
def test_bad_values_are_refused_and_nothing_is_written(db_url, new, reviews, what):
    store = open_test_store(db_url, enable_fuzzing=False)
    try:
        with pytest.raises(InputError, match=what) as err:
            store.study_more(T0, new=new, reviews=reviews)
        assert "\n" not in str(err.value)
        assert store.counts(T0).extra_new == 0 and store.counts(T0).extra_reviews == 0
    finally:
        store.close()


def test_a_read_only_store_refuses_it(sqlite_url):
    from drill.store import open_store

    open_test_store(sqlite_url).close()
    store = open_store(sqlite_url, "alice", readonly=True)
    try:
        with pytest.raises(StoreError, match="read-only"):
            store.study_more(T0, new=1)
    finally:
        store.close()


def test_migration_0013_up_down_up(db_url):
    from drill.store import migrate

    migrate.upgrade(db_url)
    store = open_test_store(db_url, enable_fuzzing=False)
    try:
        store.study_more(T0, new=2, reviews=1)
        store.grade(CARDS[0][1], 3, T0)
    finally:
        store.close()
    engine = create_engine(db_url)
    try:
        assert "study_day_extras" in inspect(engine).get_table_names()
        _downgrade(engine, "0012")
        assert "study_day_extras" not in inspect(engine).get_table_names()
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0012"
            assert conn.execute(text("SELECT count(*) FROM review_logs")).scalar() == 1  # kept
        migrate.upgrade(db_url)
        assert "study_day_extras" in inspect(engine).get_table_names()
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM study_day_extras")).scalar() == 0
    finally:
        engine.dispose()
    store = open_test_store(db_url, enable_fuzzing=False)  # the re-upgraded schema works
    try:
        assert store.study_more(T0, new=1) == (1, 0)
    finally:
        store.close()


def _downgrade(engine, target: str) -> None:
    from alembic import command

    from drill.store import migrate

    with engine.connect() as conn:
        config = migrate.alembic_config()
        config.attributes["connection"] = conn
        with conn.begin():
            command.downgrade(config, target)
