"""Issue 11, data safety: atomic restore, the single-writer lock, migrations as one unit, backup leftovers.

Fault tests run real processes and kill them with SIGKILL at random moments (bounded loops; a hung child
fails the test through ``Lines``' deadline). The random delay is the fault injection, never an assertion.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from drill import claims
from drill.errors import StoreError
from drill.store import backup as backups
from drill.store import migrate, open_store
from tests.store.store_support import open_test_store
from tests.store.test_store_faults import DEADLINE_S, Lines

CHILD = str(Path(__file__).with_name("trust_child.py"))
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _grade(url: str, n: int, start: int = 0) -> None:
    store = open_test_store(url, enable_fuzzing=False)
    try:
        for i in range(start, start + n):
            store.grade(f"c{i % 30:02d}", 3, T0 + timedelta(minutes=i))
    finally:
        store.close()


def _reviews(path: Path) -> int:
    # Read-write, as drill opens it: a kill mid-checkpoint leaves the old database with a -wal to recover.
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        return conn.execute("SELECT count(*) FROM review_logs").fetchone()[0]
    finally:
        conn.close()


def _spawn(*args: str) -> tuple[subprocess.Popen, Lines]:
    proc = subprocess.Popen(
        [sys.executable, CHILD, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    return proc, Lines(proc)


def _fresh_copy(template: Path, path: Path) -> None:
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        path.with_name(name).unlink(missing_ok=True)
    shutil.copyfile(template, path)


def _old_and_backup(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A database with 40 reviews (kept as a template) whose backup holds 20."""
    path = tmp_path / "drill.sqlite3"
    url = f"sqlite:///{path}"
    _grade(url, 20)
    backup = backups.make_backup(path)
    _grade(url, 20, start=20)
    template = tmp_path / "template.sqlite3"
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    shutil.copyfile(path, template)
    assert _reviews(template) == 40 and _reviews(backup) == 20
    return path, backup, template


# ------------------------------------------------------------------------------------------------ restore


@pytest.mark.slow
def test_kill_9_during_restore_leaves_the_old_or_the_restored_database(tmp_path):
    path, backup, template = _old_and_backup(tmp_path)
    # One undisturbed run tells how long a restore takes here: the kills are spread over that span.
    _fresh_copy(template, path)
    proc, lines = _spawn("restore", str(path), str(backup))
    assert lines.next() == "READY"
    started = time.monotonic()
    proc.stdin.write(b"go\n")
    proc.stdin.flush()
    assert lines.next() == "DONE", proc.stderr.read().decode()
    span = time.monotonic() - started
    proc.wait(timeout=DEADLINE_S)
    assert _reviews(path) == 20

    rng = random.Random(20261130)
    seen = {"old": 0, "restored": 0, "finished before the kill": 0}
    for _ in range(50):
        _fresh_copy(template, path)
        proc, lines = _spawn("restore", str(path), str(backup))
        assert lines.next() == "READY"
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        time.sleep(rng.uniform(0, span * 1.2))
        proc.kill()
        proc.wait(timeout=DEADLINE_S)
        if proc.returncode == 0:
            seen["finished before the kill"] += 1
        assert path.exists(), "a kill during restore left no database at the path"
        count = _reviews(path)  # passes quick_check
        assert count in (40, 20)
        seen["old" if count == 40 else "restored"] += 1
    assert seen["old"] + seen["restored"] == 50
    # An interrupted restore's leftovers do not stand in the way of the next one.
    _fresh_copy(template, path)
    backups.restore(path, backup)
    assert _reviews(path) == 20
    print(f"restore kills: {seen}")


def test_restore_keeps_the_old_database_aside_and_its_unflushed_wal(tmp_path):
    path = tmp_path / "drill.sqlite3"
    url = f"sqlite:///{path}"
    _grade(url, 5)
    backup = backups.make_backup(path)
    _grade(url, 7, start=5)
    used, aside = backups.restore(path, backup)
    assert used == backup
    assert _reviews(path) == 5
    assert aside is not None and _reviews(aside) == 12
    assert not path.with_name(path.name + ".restoring").exists()


def test_study_does_not_silently_start_an_empty_database_where_one_was(tmp_path):
    path = tmp_path / "drill.sqlite3"
    url = f"sqlite:///{path}"
    _grade(url, 3)
    backups.make_backup(path)
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        path.with_name(name).unlink(missing_ok=True)
    with pytest.raises(StoreError, match="drill restore"):
        open_store(url, "alice")
    assert not path.exists()


def test_a_restore_leftover_alone_also_stops_a_silent_new_database(tmp_path):
    path = tmp_path / "drill.sqlite3"
    path.with_name(path.name + ".restoring").write_bytes(b"")
    with pytest.raises(StoreError, match=r"\.restoring"):
        open_store(f"sqlite:///{path}", "alice")


# ------------------------------------------------------------------------------------------------ the lock


def test_restore_under_a_running_writer_is_refused_and_no_grade_is_diverted(tmp_path):
    path = tmp_path / "drill.sqlite3"
    url = f"sqlite:///{path}"
    _grade(url, 4)
    backup = backups.make_backup(path)
    inode = path.stat().st_ino
    proc, lines = _spawn("hold", url)
    try:
        assert lines.next() == "OPEN"
        out = subprocess.run(
            [sys.executable, "-m", "drill", "restore", "--db", url, str(backup)],
            capture_output=True,
            text=True,
            timeout=DEADLINE_S,
        )
        assert out.returncode == 2, out
        assert out.stderr.startswith("drill: error: another drill is using") and "Traceback" not in out.stderr
        assert path.stat().st_ino == inode  # the file under the running session was not replaced
        assert not list(tmp_path.glob("*.replaced-*"))
    finally:
        proc.stdin.write(b"close\n")
        proc.stdin.flush()
        assert lines.next() == "CLOSED"
        proc.wait(timeout=DEADLINE_S)
    backups.restore(path, backup)  # once the session has ended, restore works


def test_a_lock_left_by_a_killed_drill_blocks_nobody(tmp_path):
    path = tmp_path / "drill.sqlite3"
    url = f"sqlite:///{path}"
    _grade(url, 2)
    backup = backups.make_backup(path)
    for _ in range(3):
        proc, lines = _spawn("hold", url)
        assert lines.next() == "OPEN"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=DEADLINE_S)
    assert path.with_name(path.name + ".lock").exists()
    backups.restore(path, backup)
    assert _reviews(path) == 2


def test_two_writing_sessions_on_one_file_both_work(tmp_path):
    url = f"sqlite:///{tmp_path / 'drill.sqlite3'}"
    first = open_test_store(url)
    second = open_test_store(url, user="bob")
    try:
        first.grade("c01", 3, T0)
        second.grade("c01", 4, T0)
    finally:
        first.close()
        second.close()
    conn = sqlite3.connect(tmp_path / "drill.sqlite3")
    try:  # both grades are on disk, each under its own user
        rows = conn.execute(
            "SELECT u.name, l.rating FROM review_logs l JOIN users u ON u.id = l.user_id ORDER BY u.name"
        ).fetchall()
    finally:
        conn.close()
    assert sorted(rows) == [("alice", 3), ("bob", 4)]


def test_a_migration_waits_for_no_writer_and_then_refuses_clearly(tmp_path, monkeypatch):
    from drill.store import locking

    path = tmp_path / "drill.sqlite3"
    url = f"sqlite:///{path}"
    migrate.upgrade(url, "0004")
    proc, lines = _spawn("hold", url)  # a drill of this version: it migrates at open, then holds the lock
    try:
        assert lines.next() == "OPEN"
    finally:
        proc.stdin.write(b"close\n")
        proc.stdin.flush()
        lines.next()
        proc.wait(timeout=DEADLINE_S)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE code_solution_views")
    conn.execute("DROP TABLE code_attempts")
    conn.execute("UPDATE alembic_version SET version_num = '0004'")
    conn.commit()
    conn.close()
    holder = locking.DatabaseLock(path)
    holder.shared()  # another drill (in this process, another open file description) is writing
    try:
        monkeypatch.setattr(locking, "POLL_S", 0.01)
        with pytest.raises(StoreError, match="another drill is using"):
            original = locking.DatabaseLock.exclusive
            monkeypatch.setattr(
                locking.DatabaseLock,
                "exclusive",
                lambda self, wait_s=0.0, done=None: original(self, 0.05, done=done),
            )
            open_store(url, "alice")
    finally:
        holder.release()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0004"
    conn.close()


# ------------------------------------------------------------------------------------------------ migrations


def _revision_1_template(tmp_path: Path) -> Path:
    from tests.store.test_store_migrations import _fill_revision_1

    template = tmp_path / "rev1.sqlite3"
    url = f"sqlite:///{template}"
    migrate.upgrade(url, "0001")
    _fill_revision_1(url)
    conn = sqlite3.connect(template)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    return template


def _revision(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        return conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    finally:
        conn.close()


def _migration(proc: subprocess.Popen, lines: Lines) -> tuple[int, float]:
    proc.stdin.write(b"fork\n")
    proc.stdin.flush()
    first = lines.next()
    assert first and first.startswith("PID "), first
    return int(first.split()[1]), time.monotonic()


def _dead(lines: Lines) -> tuple[int, bool]:
    """The child's wait status, and whether it printed DONE first."""
    done = False
    while True:
        line = lines.next()
        assert line is not None, "the zygote died"
        if line == "DONE":
            done = True
        elif line.startswith("DEAD "):
            return int(line.split()[2]), done


@pytest.mark.slow
def test_kill_9_during_a_migration_leaves_the_old_revision_or_the_new(tmp_path):
    template = _revision_1_template(tmp_path)
    path = tmp_path / "drill.sqlite3"
    url = f"sqlite:///{path}"
    _fresh_copy(template, path)
    proc, lines = _spawn("migrate", url)  # imports once; each migration is a fork of it
    try:
        _, started = _migration(proc, lines)
        assert lines.next() == "DONE"
        span = time.monotonic() - started
        status, _ = _dead(lines)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
        assert _revision(path) == migrate.HEAD_REVISION

        rng = random.Random(7)
        seen: dict[str, int] = {}
        for _ in range(30):
            _fresh_copy(template, path)
            pid, _ = _migration(proc, lines)
            time.sleep(rng.uniform(0, span * 1.1))
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:  # it finished (and was reaped) before the kill
                pass
            status, done = _dead(lines)
            assert done or (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL), status
            revision = _revision(path)
            seen[revision] = seen.get(revision, 0) + 1
            assert revision in ("0001", migrate.HEAD_REVISION), f"a kill left revision {revision}"
            conn = sqlite3.connect(path)
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
            assert conn.execute("SELECT count(*) FROM review_logs").fetchone()[0] == 60
            conn.close()
    finally:
        proc.stdin.close()
        proc.wait(timeout=DEADLINE_S)
    print(f"migration kills: {seen}")


def test_a_dangling_reference_rolls_the_whole_upgrade_back(tmp_path):
    template = _revision_1_template(tmp_path)
    conn = sqlite3.connect(template)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("DELETE FROM card_states WHERE card_id = 1")
    conn.execute("DELETE FROM cards WHERE id = 1")  # its review logs now point at a missing card
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="dangling references"):
        migrate.upgrade(f"sqlite:///{template}")
    assert _revision(template) == "0001"


# ------------------------------------------------------------------------------------------------ backups


def test_orphaned_partial_backups_are_pruned_but_one_being_written_is_not(tmp_path):
    path = tmp_path / "drill.sqlite3"
    _grade(f"sqlite:///{path}", 2)
    folder = backups.backup_folder()
    folder.mkdir(parents=True, exist_ok=True)
    orphan = folder / "drill-20250101T000000000000Z.sqlite3.partial"
    orphan.write_bytes(b"half a backup")
    busy = folder / "drill-20250101T000001000000Z.sqlite3.partial"
    claim = claims.claim(busy, 0o644)  # a backup in progress in another drill
    try:
        backups.make_backup(path)
        assert not orphan.exists()
        assert busy.exists()
    finally:
        claims.release(claim)
    backups.prune(path)
    assert not busy.exists()


def test_a_deleted_wal_under_a_live_shm_is_named_with_the_way_out(tmp_path):
    path = tmp_path / "drill.sqlite3"
    url = f"sqlite:///{path}"
    _grade(url, 2)
    holder = sqlite3.connect(path, isolation_level=None)  # another drill has it open: the -shm stays live
    try:
        holder.execute("UPDATE users SET name = name")
        wal = path.with_name(path.name + "-wal")
        assert wal.exists()
        wal.unlink()
        with pytest.raises(StoreError) as caught:
            store = open_test_store(url)
            store.grade("c03", 3, T0)
            store.close()
        message = str(caught.value)
        assert "-wal is missing" in message and "-shm" in message and "drill restore" in message
        assert "is the disk full" not in message
    finally:
        holder.close()


@pytest.mark.parametrize("name", ["ali\u202ece", "bob\u200b", "eve\x1b]52;c;aGk=\x07"])
def test_a_user_name_with_a_control_or_format_character_is_refused(tmp_path, name):
    with pytest.raises(StoreError, match="control character U\\+"):
        open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", name)


# ------------------------------------------------------------------------------------------------ item 13


@pytest.mark.parametrize(
    "args",
    [
        ["report", "--db", "postgresql+psycopg://u@host:abc/db"],  # a port that is no number
        ["calc", "--seed", "-1", "--plain"],  # numpy refuses negative seeds
    ],
)
def test_bad_values_are_one_line_and_exit_2_never_a_traceback(args):
    out = subprocess.run([sys.executable, "-m", "drill", *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr
    assert "port must be a number" in out.stderr or "--seed" in out.stderr
