"""Fixtures for the code tests: a real store on a temp SQLite file."""

from __future__ import annotations

import pytest

from drill.store import open_store


@pytest.fixture
def store(tmp_path):
    opened = open_store(f"sqlite:///{tmp_path / 'progress.sqlite3'}", "tester")
    yield opened
    opened.close()
