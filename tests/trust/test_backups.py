"""Issue 29 #3, backups know whose they are: matched by the database's stored id (migration 0010), not by the
file's name. Two `drill.sqlite3` in two folders share one backup folder: each keeps its own backups and its own
data through backups, prunes and restores; a killed backup leaves nothing that is not pruned."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from drill.errors import StoreError
from drill.store import backup as backups
from drill.store import open_store
from tests.store.store_support import open_test_store
from tests.store.test_store_faults import DEADLINE_S, Lines

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CHILD = str(Path(__file__).with_name("backup_child.py"))


def _grade(path: Path, n: int, start: int = 0) -> None:
    with open_test_store(f"sqlite:///{path}") as store:
        for i in range(start, start + n):
            store.grade(f"c{i % 30:02d}", 3, T0 + timedelta(minutes=i))


def _reviews(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        return conn.execute("SELECT count(*) FROM review_logs").fetchone()[0]
    finally:
        conn.close()


def _drill(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "drill", *args], capture_output=True, text=True, env=env, timeout=DEADLINE_S
    )


def test_every_database_gets_its_own_id(tmp_path):
    ids = set()
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        _grade(tmp_path / name / "drill.sqlite3", 1)
        owner = backups.database_owner(tmp_path / name / "drill.sqlite3")
        assert owner.database_id is not None and len(owner.database_id) == 32
        ids.add(owner.database_id)
    assert len(ids) == 2


def test_two_databases_with_one_name_keep_their_own_backups_and_data(tmp_path):
    folder = tmp_path / "backups"
    alice, bob = tmp_path / "alice" / "drill.sqlite3", tmp_path / "bob" / "drill.sqlite3"
    alice.parent.mkdir()
    bob.parent.mkdir()
    _grade(alice, 7)
    _grade(bob, 3)
    bobs_only = backups.make_backup(bob, folder=folder)
    for _ in range(12):  # ten backups of alice's must not delete bob's only one
        backups.make_backup(alice, folder=folder)
    assert backups.list_backups(bob, folder) == [bobs_only]
    alices = backups.list_backups(alice, folder)
    assert len(alices) == backups.KEEP and bobs_only not in alices
    assert {_reviews(p) for p in alices} == {7} and _reviews(bobs_only) == 3

    _grade(alice, 2, start=7)
    _grade(bob, 1, start=3)
    backups.restore(bob, folder=folder)  # the latest backup: bob's, although alice's are newer
    assert _reviews(bob) == 3 and _reviews(alice) == 9
    backups.restore(alice, folder=folder)
    assert _reviews(alice) == 7 and _reviews(bob) == 3

    with pytest.raises(StoreError, match=r"not a backup of .*another database's data"):
        backups.restore(bob, alices[-1], folder=folder)
    assert _reviews(bob) == 3

    # bob's file is lost: only bob's backup is his leftover, and `drill restore` brings his back
    for side in ("", "-wal", "-shm"):
        bob.with_name(bob.name + side).unlink(missing_ok=True)
    for aside in bob.parent.glob("drill.sqlite3.replaced-*"):
        aside.unlink()
    assert backups.list_backups(bob, folder) == [bobs_only]
    backups.restore(bob, folder=folder)
    assert _reviews(bob) == 3 and _reviews(alice) == 7


def test_the_commands_refuse_another_databases_backup_and_a_new_database_elsewhere_opens(
    tmp_path, monkeypatch
):
    """Through `drill backup` / `drill restore` with the default backup folder (DRILL_DATA_DIR)."""
    env = {**os.environ, "DRILL_DATA_DIR": str(tmp_path / "data"), "DRILL_CONFIG_DIR": str(tmp_path / "cfg")}
    env.pop("DRILL_DB_URL", None)
    alice, bob, carol = (tmp_path / who / "drill.sqlite3" for who in ("alice", "bob", "carol"))
    for path, n in ((alice, 7), (bob, 3)):
        path.parent.mkdir()
        _grade(path, n)
        done = _drill("backup", "--db", f"sqlite:///{path}", env=env)
        assert done.returncode == 0, done.stderr
    listed = _drill("restore", "--list", "--db", f"sqlite:///{bob}", env=env)
    assert listed.returncode == 0 and len(listed.stdout.split()) == 1
    (bobs,) = listed.stdout.split()
    refused = _drill("restore", bobs, "--db", f"sqlite:///{alice}", env=env)
    assert refused.returncode != 0 and "not a backup of" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and "Traceback" not in refused.stderr
    assert _reviews(alice) == 7

    carol.parent.mkdir()
    monkeypatch.setenv("DRILL_DATA_DIR", env["DRILL_DATA_DIR"])  # the same backup folder, in this process
    with open_store(f"sqlite:///{carol}", "carol") as store:  # backups of two other drill.sqlite3 exist
        assert store.grade_count() == 0
    for path in (bob, bob.with_name(bob.name + "-wal"), bob.with_name(bob.name + "-shm")):
        path.unlink(missing_ok=True)
    with pytest.raises(StoreError, match="there was one") as refused_open:
        open_store(f"sqlite:///{bob}", "bob")
    assert Path(bobs).name in str(refused_open.value) and "alice" not in str(refused_open.value)
    back = _drill("restore", "--db", f"sqlite:///{bob}", env=env)
    assert back.returncode == 0, back.stderr
    assert _reviews(bob) == 3


def test_restore_onto_a_symlink_writes_through_it(tmp_path):
    folder = tmp_path / "backups"
    real = tmp_path / "real" / "drill.sqlite3"
    real.parent.mkdir()
    _grade(real, 4)
    made = backups.make_backup(real, folder=folder)
    _grade(real, 2, start=4)
    link = tmp_path / "drill.sqlite3"
    link.symlink_to(real)
    assert backups.list_backups(link, folder) == [made]
    backups.restore(link, folder=folder)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert _reviews(real) == 4


def _backup_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir()) if folder.is_dir() else []


@pytest.mark.slow
def test_kill_9_during_backups_leaves_no_half_backup_and_nothing_unpruned(tmp_path):
    """60 SIGKILLs at random moments of a loop of backups (of two databases named drill.sqlite3): every
    finished backup is whole and its database's; after a prune, no `.partial` or side file is left."""
    folder = tmp_path / "backups"
    alice, bob = tmp_path / "alice" / "drill.sqlite3", tmp_path / "bob" / "drill.sqlite3"
    for path, n in ((alice, 60), (bob, 25)):
        path.parent.mkdir()
        _grade(path, n)
    ids = {backups.database_owner(p).database_id: n for p, n in ((alice, 60), (bob, 25))}
    rng = random.Random(6029)
    proc = subprocess.Popen(
        [sys.executable, CHILD, str(folder), str(alice), str(bob)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    reader = Lines(proc)
    leftover_sides = 0
    try:
        for round_no in range(60):
            proc.stdin.write(f"fork {round_no}\n".encode())
            proc.stdin.flush()
            first = reader.next()
            assert first and first.startswith("PID "), first
            pid = int(first.split()[1])
            made = 0
            wanted = rng.choice([0, 0, 1, 2, 3])
            while made < wanted:
                line = reader.next()
                assert line and line.startswith("MADE "), line
                made += 1
            # a random moment inside the next backup: the copy, its check, the journal switch, the rename
            os.kill(pid, signal.SIGKILL)
            while True:
                line = reader.next()
                assert line is not None
                if line.startswith("DEAD "):
                    status = int(line.split()[2])
                    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, line
                    break
            leftover_sides += sum(
                p.name.endswith(("-journal", "-wal", "-shm")) for p in _backup_files(folder)
            )
            for path in _backup_files(folder):
                if path.name.endswith(".sqlite3"):
                    owner = backups.owner_of(path)
                    assert owner is not None and owner.database_id in ids, path
                    assert _reviews(path) == ids[owner.database_id], path  # whole, and its database's
            backups.prune(alice, folder=folder, keep=3)
            backups.prune(bob, folder=folder, keep=3)
            left = [p.name for p in _backup_files(folder) if not p.name.endswith(".sqlite3")]
            assert left == [], f"round {round_no}: {left}"
    finally:
        proc.stdin.close()
        proc.wait(timeout=DEADLINE_S)
    assert len(backups.list_backups(alice, folder)) == 3 and len(backups.list_backups(bob, folder)) == 3
    assert leftover_sides > 0  # the kills really landed inside backups (side files were there to prune)
