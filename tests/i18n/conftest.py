"""Fixtures for the i18n tests: the pseudo-locale (built once from the source), and a clean language after
every test."""

from __future__ import annotations

from pathlib import Path

import pytest

import drill.i18n
from tests.i18n.pseudo import build_pseudo_locale


@pytest.fixture(scope="session")
def pseudo_locale_dir(tmp_path_factory) -> Path:
    return build_pseudo_locale(tmp_path_factory.mktemp("pseudo-locale"))


@pytest.fixture
def pseudo(pseudo_locale_dir, monkeypatch):
    """The pseudo-locale in place of the zh_CN catalog: `--lang zh` / set_language("zh") shows ⟦marked⟧ text."""
    monkeypatch.setattr(drill.i18n, "LOCALE_DIR", str(pseudo_locale_dir))
    drill.i18n.set_language("zh")
    yield pseudo_locale_dir
    drill.i18n.set_language("en")


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    drill.i18n.set_language("en")


# The TUI tests' fixtures (the real content, a store on a temporary SQLite file), for the Chinese snapshots.
from tests.notified import _notifications_kept  # noqa: E402, F401 - fixture: every notification kept
from tests.tui.conftest import db_url, library, store  # noqa: E402, F401
