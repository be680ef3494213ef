"""Fixtures for the code tests: a real store on a temp SQLite file."""

from __future__ import annotations

import pytest

from drill.store import open_store
from tests.notified import _notifications_kept  # noqa: F401 - fixture: every notification kept


@pytest.fixture
def store(tmp_path):
    opened = open_store(f"sqlite:///{tmp_path / 'progress.sqlite3'}", "tester")
    yield opened
    opened.close()


@pytest.fixture
def library():
    from drill.content import load_content

    return load_content()


@pytest.fixture
def study_app(library, store):
    """The study app on the real content and store, a frozen clock (as tests/tui's fixture)."""
    from drill.tui.app import make_app
    from tests.tui.conftest import frozen_clock, frozen_timer

    def build(**overrides):
        options = dict(library=library, store=store, clock=frozen_clock, timer=frozen_timer)
        options.update(overrides)
        return make_app("study", **options)

    return build
