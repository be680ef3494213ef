"""The quiz tests use the TUI tests' fixtures: the real content, a real store on a temp SQLite file."""

from __future__ import annotations

from tests.tui.conftest import db_url, library, store  # noqa: F401 - fixtures
