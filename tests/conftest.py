"""Shared fixtures: every test runs with its own data, config and cache directories."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("drill-home")
    monkeypatch.setenv("DRILL_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("DRILL_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("DRILL_CACHE_DIR", str(home / "cache"))
    monkeypatch.delenv("DRILL_DB_URL", raising=False)
    monkeypatch.delenv("DRILL_CONTENT", raising=False)
