"""When a writing open reads the whole file (drill.store.checking): not after drill's own clean close, but after
a change drill did not make, when a crash left a -wal behind, and once the last full check is a week old.

The oracle is a damaged page the bounded check never reads (the review log's root page) with the file's
mtime put back, as damage underneath the file system would leave it: only a whole-file check finds it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from drill.errors import StoreError
from drill.store import open_store
from drill.store.checking import CHECK_EVERY, record_path
from drill.store.locking import DatabaseLock
from tests.store.store_support import CARDS

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def make_db(path: Path) -> str:
    url = f"sqlite:///{path}"
    store = open_store(url, "alice")
    store.sync_content(CARDS)
    for i in range(5):
        store.grade(CARDS[i][1], 3, NOW)
    store.close()
    return url


def damage_unseen(path: Path) -> None:
    """Scribble over the review log's root page, keeping the file's mtime."""
    conn = sqlite3.connect(path)
    root = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'review_logs'").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    stat = path.stat()
    with open(path, "r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\xff" * 64)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def opens(url: str) -> bool:
    try:
        open_store(url, "alice").close()
    except StoreError as err:
        assert "corrupt" in str(err) and "drill restore" in str(err) and "\n" not in str(err)
        return False
    return True


def test_after_a_clean_close_the_open_checks_a_few_pages_and_a_week_later_the_whole_file(tmp_path):
    path = tmp_path / "drill.sqlite3"
    url = make_db(path)
    assert record_path(path).exists()
    damage_unseen(path)
    assert opens(url)  # the bounded check: the damaged page is not read (a whole-file check fails, below)
    record = json.loads(record_path(path).read_text())
    record["checked_at"] = (datetime.now(UTC) - CHECK_EVERY - timedelta(hours=1)).isoformat()
    record_path(path).write_text(json.dumps(record))
    assert not opens(url)
    assert not opens(url)  # a failed check records nothing: still checked in full


def test_a_file_changed_by_something_else_is_checked_in_full(tmp_path):
    path = tmp_path / "drill.sqlite3"
    url = make_db(path)
    damage_unseen(path)
    os.utime(path)  # the same damage, the mtime not put back (another program, a copy, a restore by hand)
    assert not opens(url)


def test_without_a_record_of_drills_close_the_file_is_checked_in_full(tmp_path):
    path = tmp_path / "drill.sqlite3"
    url = make_db(path)
    damage_unseen(path)
    record_path(path).unlink()
    assert not opens(url)


WRITE_AND_DIE = "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('UPDATE users SET name = name'); c.commit(); os._exit(9)"


@pytest.mark.parametrize("live", [False, True])
def test_a_wal_a_crash_left_behind_is_checked_in_full_a_live_sessions_is_not(tmp_path, live):
    path = tmp_path / "drill.sqlite3"
    url = make_db(path)
    holder = None
    if live:  # another drill has the database open and has written: its -wal is not a crash's
        holder = DatabaseLock(path)
        holder.shared()
        writer = sqlite3.connect(path)
        writer.execute("UPDATE users SET name = name")
        writer.commit()
    else:  # a writer killed before it closed: its commit is in a -wal nobody checkpointed
        subprocess.run([sys.executable, "-c", WRITE_AND_DIE, str(path)], check=False)
    try:
        assert path.with_name(path.name + "-wal").stat().st_size > 0
        damage_unseen(path)
        assert opens(url) is live
    finally:
        if holder is not None:
            writer.close()
            holder.release()


LEAVE_OPEN = (
    "import sys; from drill.store import open_store; s = open_store(sys.argv[1], 'alice'); "
    "s.sync_content([('p', 'c01', '7.1')]); sys.exit(0)"
)


def test_a_store_its_owner_leaves_open_is_closed_at_exit_and_its_close_recorded(tmp_path):
    # `drill study` ends with its store open (the app's): the next study must not read the whole file
    path = tmp_path / "drill.sqlite3"
    url = make_db(path)
    damage_unseen(path)
    record_path(path).unlink()
    assert not opens(url)  # without a record: the whole file, the damage found
    path.unlink()
    url = make_db(path)
    done = subprocess.run([sys.executable, "-c", LEAVE_OPEN, url], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert record_path(path).exists()
    damage_unseen(path)
    assert opens(url)  # the record of the exit's close: a few pages checked
