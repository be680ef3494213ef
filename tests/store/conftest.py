"""Store fixtures: every storage test runs on SQLite and on PostgreSQL (DRILL_TEST_PG_URL).

Each PostgreSQL test gets its own fresh schema (search_path set in the URL), dropped afterwards.
"""

from __future__ import annotations

import os
import uuid

import pytest

from tests.store.store_support import open_test_store

PG_ENV = "DRILL_TEST_PG_URL"


def pg_base_url() -> str | None:
    return os.environ.get(PG_ENV) or None


def _pg_schema_url(base: str, schema: str) -> str:
    from sqlalchemy.engine import make_url

    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


@pytest.fixture
def pg_url():
    """A PostgreSQL URL whose search_path is a fresh schema (skips when no server is given)."""
    base = pg_base_url()
    if not base:
        pytest.skip(f"{PG_ENV} is not set: no PostgreSQL server to test against")
    from sqlalchemy import create_engine, text

    schema = f"drill_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield _pg_schema_url(base, schema)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'drill.sqlite3'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'drill.sqlite3'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def db_backend(db_url) -> str:
    return "sqlite" if db_url.startswith("sqlite") else "postgresql"


@pytest.fixture
def store(db_url):
    store = open_test_store(db_url, enable_fuzzing=False)
    yield store
    store.close()
