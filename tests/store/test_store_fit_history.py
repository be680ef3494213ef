"""Store.fit_history (``drill optimize``'s read) against the store's own review log.

The read runs its SQLAlchemy query on the driver's cursor; the oracle is ``review_logs()`` (SQLAlchemy's rows,
the log's own columns) with each grade's study day recomputed from its time, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import exc, text

from drill.errors import StoreError
from drill.store.review_days import day_number
from tests.store.store_support import CARDS, open_test_store

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_fit_history_is_every_grade_of_the_user_in_review_order(db_url):
    store, other = open_test_store(db_url), open_test_store(db_url, user="bob")
    rng = random.Random(5)
    now = T0
    for _ in range(150):
        first, second = rng.sample([content for _pack, content, _section in CARDS], 2)
        store.grade(first, rng.randint(1, 4), now)
        if rng.random() < 0.25:  # another card at the same moment: the row id orders them
            store.grade(second, rng.randint(1, 4), now)
        if rng.random() < 0.3:  # another learner's grade: not read
            other.grade(first, 3, now)
        now += timedelta(hours=rng.choice([0.2, 1, 5, 20, 49, 100]))
    got = list(store.fit_history())
    logs = store.review_logs()
    assert len(got) == len(logs) > 150
    day = store.config.day_starts_at
    assert [(rating, study, state) for _card, rating, study, state in got] == [
        (e.rating, day_number(e.reviewed_at, day, store.tz), e.state_before.value) for e in logs
    ]
    names: dict[int, str] = {}  # the store's card id -> content id: one each way
    assert all(
        names.setdefault(card, e.card_id) == e.card_id for (card, *_), e in zip(got, logs, strict=True)
    )
    assert len(set(names.values())) == len(names)
    store.close()
    other.close()


def test_a_driver_error_in_the_read_is_sqlalchemy_s(db_url):
    """The driver's own error surfaces as SQLAlchemy's DBAPIError (or the store's message), as from
    conn.execute."""
    store = open_test_store(db_url)
    store.grade(CARDS[0][1], 3, T0)
    with store.transaction(write=True) as conn:
        conn.execute(text("ALTER TABLE review_logs RENAME TO review_logs_gone"))
    with pytest.raises((exc.DBAPIError, StoreError)):
        list(store.fit_history())
    store.close()
