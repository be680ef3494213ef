"""The interview tests use the TUI tests' fixtures (the real content, a real store on a temp SQLite file) and the
store tests' PostgreSQL schema per test (DRILL_TEST_PG_URL)."""

from __future__ import annotations

import pytest

from tests.store.conftest import pg_url  # noqa: F401 - fixture
from tests.tui.conftest import db_url, library, store  # noqa: F401 - fixtures


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_url(request, tmp_path):
    """A database URL on each backend: a SQLite file, and a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'drill.sqlite3'}"
    return request.getfixturevalue("pg_url")


from tests.i18n.conftest import pseudo, pseudo_locale_dir  # noqa: E402, F401 - the pseudo-locale fixtures
