"""The trust tests use the store tests' PostgreSQL schema per test (DRILL_TEST_PG_URL) and the TUI tests' real
content."""

from __future__ import annotations

from tests.notified import _notifications_kept  # noqa: F401 - fixture: every notification kept
from tests.store.conftest import pg_url  # noqa: F401 - fixture
from tests.tui.conftest import library  # noqa: F401 - fixture
