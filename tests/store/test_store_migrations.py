"""Alembic migrations: the scripts build exactly the models, and an old database with data upgrades intact."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import bindparam, create_engine, text

from drill.store import migrate
from drill.store.models import HEAD_REVISION, UTCDateTime, metadata

T0 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
REVIEWS = 60


def test_head_revision_constant_matches_the_scripts():
    assert migrate.script_head() == HEAD_REVISION
    assert migrate.known_revisions() == [
        "0001",
        "0002",
        "0003",
        "0004",
        "0005",
        "0006",
        "0007",
        "0008",
        "0009",
        "0010",
        "0011",
        "0012",
        "0013",
        "0014",
    ]


def test_migrated_schema_equals_the_models(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    migrate.upgrade(db_url)
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
    finally:
        engine.dispose()
    assert diff == []


def _ts(name: str):
    return bindparam(name, type_=UTCDateTime())


def _fill_revision_1(url: str) -> list[tuple]:
    """Data written by the first schema: two users, cards, states, reviews, a quiz; returns the reviews."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            for uid, name in ((1, "alice"), (2, "bob")):
                conn.execute(
                    text("INSERT INTO users (id, name, created_at) VALUES (:id, :name, :t)").bindparams(
                        _ts("t")
                    ),
                    {"id": uid, "name": name, "t": T0},
                )
            for cid in range(1, 6):
                conn.execute(
                    text(
                        "INSERT INTO cards (id, pack, content_id, section, retired, created_at) "
                        "VALUES (:id, 'pack-a', :cid, '7.1', :retired, :t)"
                    ).bindparams(_ts("t")),
                    {"id": cid, "cid": f"c{cid - 1:02d}", "retired": cid == 5, "t": T0},
                )
            for uid in (1, 2):
                for cid in range(1, 6):
                    conn.execute(
                        text(
                            "INSERT INTO card_states (user_id, card_id, state, step, stability, difficulty, due, "
                            "last_review, reps, lapses, suspended, buried_until, leech) VALUES (:u, :c, 'review', "
                            "NULL, 3.5, 5.0, :due, :last, 6, 1, :f, NULL, :f)"
                        ).bindparams(_ts("due"), _ts("last")),
                        {"u": uid, "c": cid, "due": T0 + timedelta(days=3), "last": T0, "f": False},
                    )
            for n in range(REVIEWS):
                conn.execute(
                    text(
                        "INSERT INTO review_logs (id, user_id, card_id, rating, reviewed_at, duration_ms, "
                        "state_before, reps_before, lapses_before, suspended_before, leech_before, state_after, "
                        "stability_after, difficulty_after, due_after, scheduled_days, elapsed_days, leech_after) "
                        "VALUES (:id, :u, :c, :r, :at, :ms, 'review', :n, 0, :f, :f, 'review', 3.5, 5.0, :due, "
                        "2.0, 1.0, :f)"
                    ).bindparams(_ts("at"), _ts("due")),
                    {
                        "id": n + 1,
                        "u": n % 2 + 1,
                        "c": n % 5 + 1,
                        "r": n % 4 + 1,
                        "at": T0 + timedelta(hours=n),
                        "ms": 1000 + n,
                        "n": n,
                        "f": False,
                        "due": T0 + timedelta(days=2, hours=n),
                    },
                )
            conn.execute(
                text(
                    "INSERT INTO quiz_attempts (id, user_id, started_at, finished_at, settings, score, total) "
                    "VALUES (1, 1, :t, :t, '{}', 1, 1)"
                ).bindparams(_ts("t")),
                {"t": T0},
            )
            conn.execute(
                text(
                    "INSERT INTO quiz_answers (attempt_id, item_id, kind, chosen, correct, timed_out, "
                    "duration_ms, answered_at) VALUES (1, 'quiz-1', 'chapter', 'B', :y, :n, 900, :t)"
                ).bindparams(_ts("t")),
                {"t": T0, "y": True, "n": False},
            )
            if conn.dialect.name == "postgresql":  # explicit ids above: move the sequences past them
                for table in ("users", "cards", "review_logs", "quiz_attempts"):
                    conn.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
                        )
                    )
        return _reviews(engine)
    finally:
        engine.dispose()


def _reviews(engine) -> list[tuple]:
    with engine.connect() as conn:
        return [
            tuple(row)
            for row in conn.execute(
                text(
                    "SELECT id, user_id, card_id, rating, reviewed_at, duration_ms, stability_after, due_after "
                    "FROM review_logs ORDER BY id"
                )
            )
        ]


def test_upgrade_from_revision_1_keeps_every_review(db_url, db_backend):
    from drill.store import open_store

    migrate.upgrade(db_url, "0001")
    before = _fill_revision_1(db_url)
    assert len(before) == REVIEWS

    store = open_store(db_url, "alice")  # migrates (after a backup, on SQLite)
    try:
        engine = create_engine(db_url)
        try:
            assert _reviews(engine) == before
            with engine.connect() as conn:
                assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD_REVISION
                assert conn.execute(text("SELECT count(*) FROM card_states")).scalar() == 10
                copied = (  # 0006: each state row's copy of its card's pack and position (the new-card order)
                    "SELECT count(*) FROM card_states JOIN cards ON cards.id = card_states.card_id "
                    "WHERE card_states.card_pack = cards.pack AND card_states.card_position = cards.position"
                )
                assert conn.execute(text(copied)).scalar() == 10
                # 0011: the day's grades of new and of review cards, counted from the log per study day
                by_day = conn.execute(
                    text("SELECT sum(reviews), sum(new_grades), sum(review_grades) FROM study_day_totals")
                ).one()
                from_log = conn.execute(
                    text(
                        "SELECT count(*), sum(CASE WHEN state_before = 'new' THEN 1 ELSE 0 END), "
                        "sum(CASE WHEN state_before = 'review' THEN 1 ELSE 0 END) FROM review_logs"
                    )
                ).one()
                # (this history has review grades only)
                assert tuple(by_day) == tuple(from_log) and from_log[2] > 0
                assert conn.execute(text("SELECT count(*) FROM quiz_answers")).scalar() == 1
                assert conn.execute(text("SELECT count(*) FROM cards WHERE retired")).scalar() == 1
                if db_backend == "sqlite":
                    assert conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall() == []
                    assert conn.exec_driver_sql("PRAGMA integrity_check").fetchall() == [("ok",)]
        finally:
            engine.dispose()
        # The upgraded store works with the old history.
        store.sync_content([("pack-a", f"c{i:02d}", "7.1") for i in range(4)])
        info = store.card_info("c00", T0)
        assert info.reps == 6 and len(info.history) == REVIEWS // 5 // 2
        assert all(entry.reviewed_at.tzinfo is UTC for entry in info.history)
        store.grade("c00", 3, T0 + timedelta(days=4))
    finally:
        store.close()

    if db_backend == "sqlite":
        from drill.store.backup import list_backups

        path = Path(db_url.removeprefix("sqlite:///"))
        backups = list_backups(path)
        assert len(backups) == 1 and f"before-{HEAD_REVISION}" in backups[0].name
        conn = sqlite3.connect(backups[0])
        try:
            assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("0001",)
            assert conn.execute("SELECT count(*) FROM review_logs").fetchone() == (REVIEWS,)
        finally:
            conn.close()


def test_no_backup_and_no_migration_for_a_current_database(sqlite_url):
    from drill.store import open_store
    from drill.store.backup import list_backups

    open_store(sqlite_url, "alice").close()
    open_store(sqlite_url, "alice").close()
    assert list_backups(Path(sqlite_url.removeprefix("sqlite:///"))) == []


def test_foreign_keys_on_would_have_lost_the_reviews(sqlite_url):
    """Why migrations run with foreign keys off: the same upgrade with them on cascades away the history."""
    from alembic import command

    from drill.store.engine import make_engine

    migrate.upgrade(sqlite_url, "0001")
    _fill_revision_1(sqlite_url)
    engine = make_engine(sqlite_url)  # foreign_keys = ON, as every drill connection has
    try:
        with engine.connect() as conn:
            config = migrate.alembic_config()
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
        assert _reviews(engine) == []  # the cards rebuild deleted every review: the hazard is real
    finally:
        engine.dispose()


def test_a_newer_schema_is_refused(sqlite_url):
    from drill.errors import StoreError
    from drill.store import open_store

    open_store(sqlite_url, "alice").close()
    conn = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer drill"):
        open_store(sqlite_url, "alice")


def test_upgrade_to_0003_records_each_reviews_study_day(db_url, monkeypatch):
    """The backfill gives every old review the study day and first-of-day flag Store.grade would have."""
    from zoneinfo import ZoneInfo

    from drill.srs.days import local_timezone
    from drill.store.review_days import review_day_fields

    monkeypatch.setenv("TZ", "Europe/Berlin")
    local_timezone.cache_clear()
    try:
        migrate.upgrade(db_url, "0001")
        _fill_revision_1(db_url)
        engine = create_engine(db_url)
        try:
            with engine.begin() as conn:  # each card's previous review (the store writes it): hourly reviews
                conn.execute(
                    text(
                        "UPDATE review_logs SET last_review_before = (SELECT max(p.reviewed_at) FROM review_logs p "
                        "WHERE p.user_id = review_logs.user_id AND p.card_id = review_logs.card_id "
                        "AND p.id < review_logs.id)"
                    )
                )
            migrate.upgrade(db_url)
            with engine.connect() as conn:
                rows = conn.execute(
                    text(
                        "SELECT reviewed_at, last_review_before, study_day, first_of_day FROM review_logs "
                        "ORDER BY id"
                    ).columns(reviewed_at=UTCDateTime(), last_review_before=UTCDateTime())
                ).all()
        finally:
            engine.dispose()
        assert len(rows) == REVIEWS
        tz = ZoneInfo("Europe/Berlin")
        got = [(day, bool(first)) for _, _, day, first in rows]
        assert got == [review_day_fields(at, prev, 4, tz) for at, prev, _, _ in rows]
        # Reviews every ten hours per card: some share a study day (not first), most don't.
        assert {first for _, first in got} == {True, False}
        assert len({day for day, _ in got}) > 1
        engine = create_engine(db_url)
        try:
            days, cards = _summaries(engine)
        finally:
            engine.dispose()
        assert sum(d[2] for d in days) == REVIEWS
        assert sum(d[3] for d in days) == sum(1000 + n for n in range(REVIEWS))
        assert sum(d[5] for d in days) == REVIEWS  # (every review of this history was of a review card)
        firsts = sum(first for _, first in got)
        assert sum(f for _, _, f, _ in cards) == firsts
    finally:
        local_timezone.cache_clear()


def test_grade_and_undo_keep_the_study_day_columns(sqlite_url):
    from zoneinfo import ZoneInfo

    from drill.store import open_store

    tz = ZoneInfo("America/New_York")
    with open_store(sqlite_url, "alice") as store:
        store.tz = tz
        store.sync_content([("pack-a", "c00", "7.1")])
        # 03:30 local is the previous study day (day_starts_at 4); 05:00 the next one; 05:20 the same one.
        times = [
            datetime(2026, 3, 7, 8, 30, tzinfo=UTC),
            datetime(2026, 3, 7, 10, 0, tzinfo=UTC),
            datetime(2026, 3, 7, 10, 20, tzinfo=UTC),
        ]
        for moment in times:
            store.grade("c00", 1, moment)
        store.undo_last()
        store.grade("c00", 3, times[2])
        engine = create_engine(sqlite_url)
        try:
            with engine.connect() as conn:
                rows = conn.execute(text("SELECT study_day, first_of_day FROM review_logs ORDER BY id")).all()
        finally:
            engine.dispose()
    day = (datetime(2026, 3, 6) - datetime(1970, 1, 1)).days
    assert [(d, bool(f)) for d, f in rows] == [(day, True), (day + 1, True), (day + 1, False)]


def _summaries(engine) -> tuple[list, list]:
    with engine.connect() as conn:
        days = conn.execute(
            text(
                "SELECT user_id, study_day, reviews, duration_ms, new_grades, review_grades FROM study_day_totals "
                "WHERE reviews > 0 "
                "ORDER BY user_id, study_day"
            )
        ).all()
        cards = conn.execute(
            text(
                "SELECT user_id, card_id, first_reviews, first_passes FROM card_states ORDER BY user_id, card_id"
            )
        ).all()
    return [tuple(r) for r in days], [tuple(r) for r in cards]


def test_grade_and_undo_keep_the_summaries_equal_to_the_log(db_url):
    """study_day_totals and card_states' retention counters, kept grade by grade (and undo by undo), equal
    what rebuild_summaries recomputes from review_logs."""
    from zoneinfo import ZoneInfo

    from drill.srs import Phase
    from drill.store import open_store
    from drill.store.review_days import rebuild_summaries

    with open_store(db_url, "alice") as store:
        store.tz = ZoneInfo("Europe/Berlin")
        store.sync_content([("pack-a", f"c{i:02d}", "7.1") for i in range(4)])
        moment = datetime(2026, 3, 27, 20, 0, tzinfo=UTC)  # across Berlin's spring-forward night
        for n in range(40):
            store.grade(f"c{n % 4:02d}", (1, 3, 3, 2, 4)[n % 5], moment, 1000 + n)
            if n % 7 == 6:
                store.undo_last()
            moment += timedelta(hours=5)
        engine = create_engine(db_url)
        try:
            kept = _summaries(engine)
            with engine.begin() as conn:
                rebuild_summaries(conn)
            assert _summaries(engine) == kept
            days, cards = kept
            assert sum(n for _, _, n, *_ in days) == len(store.review_logs())
            logs = store.review_logs()
            # The daily limits' counts: grades of new cards and of cards in review, per study day.
            assert sum(d[4] for d in days) == sum(e.state_before is Phase.NEW for e in logs) > 0
            assert sum(d[5] for d in days) == sum(e.state_before is Phase.REVIEW for e in logs) > 0
            assert any(first != passed for _, _, first, passed in cards)
        finally:
            engine.dispose()
