"""study_day_totals under concurrency: two sessions of one user making the first grade of a study day at the
same moment both count (PostgreSQL: the second INSERT waits for the first and then adds, not fails)."""

from __future__ import annotations

import threading

import pytest

from tests.store.store_support import open_test_store


@pytest.mark.postgres
def test_two_sessions_creating_the_same_day_both_count(pg_url):
    from sqlalchemy import create_engine, select

    from drill.store.review_days import count_grade
    from drill.store.tables import days_t, states_t

    store = open_test_store(pg_url)
    user_id = store.user_id
    with store.engine.connect() as conn:
        card_id = conn.execute(select(states_t.c.card_id).limit(1)).scalar_one()
    store.close()

    first, second = create_engine(pg_url), create_engine(pg_url)
    errors: list[BaseException] = []
    try:
        with first.begin() as conn_a:
            # A inserts the day's row and holds it uncommitted; B's insert of the same key must wait for A.
            count_grade(conn_a, user_id, card_id, 20_000, False, 3, 1000, "review")

            def grade_b() -> None:
                try:
                    with second.begin() as conn_b:
                        count_grade(conn_b, user_id, card_id, 20_000, False, 3, 500, "review")
                except BaseException as err:  # reported to the main thread
                    errors.append(err)

            worker = threading.Thread(target=grade_b)
            worker.start()
            worker.join(timeout=0.5)  # B is blocked behind A's uncommitted row, not finished
            assert worker.is_alive()
        worker.join(timeout=30)
        assert not worker.is_alive()
        assert errors == []
        with first.connect() as conn:
            row = conn.execute(
                select(days_t.c.reviews, days_t.c.duration_ms, days_t.c.review_grades).where(
                    days_t.c.user_id == user_id, days_t.c.study_day == 20_000
                )
            ).one()
        assert tuple(row) == (2, 1500, 2)
    finally:
        first.dispose()
        second.dispose()
