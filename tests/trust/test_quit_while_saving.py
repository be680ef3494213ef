"""Issue 11, item 5's last part: quitting `drill study` while a grade waits on a database lock does not hang.

The installed program on a pseudo-terminal (benchmarks/ptyrun.py reads its screen): another program holds SQLite's write lock, the
learner grades a card and presses q at once. drill must end while the lock is still held (before, it waited
out SQLite's 30 s busy timeout on the way out), and the grade is either on disk or was never acknowledged:
nothing is on disk, and drill's closing line ("every grade is saved") is not printed for it.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from drill.content import load_content
from drill.store import open_store
from drill.store.engine import BUSY_TIMEOUT_MS
from tests.tui.conftest import STUDY_HINT, STUDY_READY, ptyrun

SHIPPED = Path(__file__).resolve().parents[2] / "data"


def test_quitting_while_a_grade_waits_on_a_lock_ends_drill_with_the_lock_still_held(tmp_path):
    db = tmp_path / "progress.sqlite3"
    url = f"sqlite:///{db}"
    with open_store(url, "tester") as store:
        store.sync_content(load_content(SHIPPED))
    env = {**os.environ, "DRILL_DB_URL": url, "DRILL_USER": "tester"}
    reader = ptyrun()
    with reader.Terminal([reader.drill_command(), "study"], env) as term:
        term.wait_for(STUDY_READY)  # the store is open: grades are taken
        term.press(" ", pause=0)
        term.wait_for(lambda screen: STUDY_HINT not in screen)  # the answer is shown
        holder = sqlite3.connect(db, isolation_level=None)  # another program holds the write lock
        try:
            holder.execute("BEGIN IMMEDIATE")
            term.press("3", pause=0)  # the grade now waits for the lock in the background
            term.press("q", pause=0)  # and the learner quits at once
            # Bounded by half the busy timeout: drill must be gone while the lock is still held.
            try:
                term.wait_for_exit(timeout=BUSY_TIMEOUT_MS / 1000 / 2)
            except TimeoutError:
                raise AssertionError("drill study did not exit while a grade waited on the lock") from None
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert term.result.code == 0
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM review_logs").fetchone()[0] == 0  # never acknowledged
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    finally:
        conn.close()
