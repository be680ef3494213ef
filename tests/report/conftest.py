"""Fixtures for the report tests: the generated history (tests/report/report_history.py) in a SQLite file."""

from __future__ import annotations

import pytest

from tests.report.report_history import History, make_library, simulate, write_history


@pytest.fixture(scope="session")
def history(tmp_path_factory) -> History:
    path = tmp_path_factory.mktemp("report-db") / "history.sqlite3"
    hist = simulate(["alice", "bob"])
    hist.url = f"sqlite:///{path}"
    write_history(hist, hist.url)
    return hist


@pytest.fixture(scope="session")
def library():
    return make_library()


@pytest.fixture
def engine(history):
    from sqlalchemy import create_engine

    eng = create_engine(history.url)
    yield eng
    eng.dispose()
