"""Opening the store costs SQLAlchemy Core only: the schema is Core tables (drill.store.models), and nothing a
command runs through the store imports sqlalchemy.orm (~0.15 s of CPU at every start that opens it)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _imported(args: list[str], env: dict[str, str]) -> set[str]:
    """The modules a new process imported (python -X importtime's report, on stderr)."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return {
        line.rsplit("|", 1)[1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")
    }


@pytest.fixture
def env(tmp_path):
    import os

    return {
        **os.environ,
        "DRILL_DATA_DIR": str(tmp_path / "data"),
        "DRILL_CONFIG_DIR": str(tmp_path / "config"),
    }


def test_opening_grading_and_undoing_import_no_orm(env, tmp_path):
    url = f"sqlite:///{tmp_path / 'progress.sqlite3'}"
    code = (
        "from datetime import datetime, UTC; from drill.store import open_store; "
        f"s = open_store({url!r}, 'alice'); "
        "s.sync_content([('pack', 'c1', '7.1'), ('pack', 'c2', '7.2')]); "
        "now = datetime.now(UTC); card = s.next_card(now); n = s.grade_count(); "
        "s.grade(card.card_id, 3, now); s.undo_last(); s.grade(card.card_id, 3, now); "
        "assert s.grade_count() == n + 1; s.close()"
    )
    for _start in ("first", "returning"):  # the first creates the database (alembic), the second opens it
        found = _imported(["-c", code], env)
        assert "sqlalchemy" in found
        assert "sqlalchemy.orm" not in found


def test_reports_import_no_orm(env, tmp_path):
    url = f"sqlite:///{tmp_path / 'progress.sqlite3'}"
    subprocess.run(
        [sys.executable, "-c", f"from drill.store import open_store; open_store({url!r}, 'bob').close()"],
        check=True,
        env=env,
    )
    found = _imported(["-m", "drill", "report", "--format", "json", "--db", url, "--user", "bob"], env)
    assert "sqlalchemy" in found  # the store was opened
    assert "sqlalchemy.orm" not in found
