"""Migration 0007 (interview scorecards): upgrade from 0006 keeps every row and adds the two tables; downgrade
drops exactly them; upgrading again works — on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import create_engine, inspect, text

from drill.store import migrate
from drill.store.models import HEAD_REVISION

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NEW = {"interview_sessions", "interview_answers"}


def _downgrade(url: str, target: str) -> None:
    from alembic import command

    from drill.store.engine import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            config = migrate.alembic_config()
            config.attributes["connection"] = conn
            with conn.begin():
                command.downgrade(config, target)
    finally:
        engine.dispose()


def _state(url: str) -> tuple[str, set[str], list[tuple]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            users = [tuple(r) for r in conn.execute(text("SELECT id, name FROM users ORDER BY id"))]
            return revision, set(inspect(conn).get_table_names()), users
    finally:
        engine.dispose()


def test_0007_upgrades_downgrades_and_upgrades_again(any_url):
    from drill.store import open_store

    assert "0007" in migrate.known_revisions()
    migrate.upgrade(any_url, "0006")
    engine = create_engine(any_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO users (name, created_at) VALUES ('alice', '2026-03-01 00:00:00')"))
    finally:
        engine.dispose()
    revision, tables, users = _state(any_url)
    assert revision == "0006" and not NEW & tables

    migrate.upgrade(any_url, "0007")
    revision, tables, after = _state(any_url)
    assert revision == "0007" and NEW <= tables and after == users
    with open_store(any_url, "alice") as store:
        session = store.start_interview(T0, {"questions": 1})
        assert store.interview_history()[0].id == session

    _downgrade(any_url, "0006")
    revision, tables, after = _state(any_url)
    assert revision == "0006" and not NEW & tables and after == users

    with open_store(any_url, "alice") as store:  # opening migrates to the head again
        assert store.interview_history() == []
    assert _state(any_url)[0] == HEAD_REVISION
