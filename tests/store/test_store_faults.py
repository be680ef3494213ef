"""Fault injection in real processes: kill -9 mid-grade, two writers, a full disk, a corrupt file.

No sleeps: the test waits on lines the children print (with a deadline so a hang fails instead of
blocking CI). A child prints "ACK <log id> ..." only after ``Store.grade`` returned, i.e. after COMMIT.
"""

from __future__ import annotations

import os
import random
import selectors
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

CHILD = str(Path(__file__).with_name("store_child.py"))
DEADLINE_S = 120  # a hung child fails the test instead of hanging CI (not a timing assertion)


class Lines:
    """Read a child's stdout line by line, failing (not hanging) if nothing comes for DEADLINE_S."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.buffer = b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(proc.stdout, selectors.EVENT_READ)

    def next(self) -> str | None:
        deadline = time.monotonic() + DEADLINE_S
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                raise AssertionError(f"no output from the child within {DEADLINE_S}s")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()


def _acks(lines: list[str]) -> dict[int, tuple[str, int]]:
    found = {}
    for line in lines:
        if line.startswith("ACK "):
            _, log_id, card, rating = line.split()
            found[int(log_id)] = (card, int(rating))
    return found


def _sqlite_path(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///"))


def _check_sqlite(path: Path, acked: dict[int, tuple[str, int]]) -> None:
    """integrity_check ok, every acknowledged grade present, and each card's state matches its log."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        made = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'review_logs'").fetchone()
        if made is None and not acked:  # killed before its schema was made: nothing was acknowledged yet (the
            return  # next round's open makes it, or that grader dies by itself and the test fails there)
        _check_rows(conn.execute, acked)
    finally:
        conn.close()


def _check_rows(execute, acked: dict[int, tuple[str, int]]) -> None:
    rows = {
        log_id: (card, rating)
        for log_id, card, rating in execute(
            "SELECT l.id, c.content_id, l.rating FROM review_logs l JOIN cards c ON c.id = l.card_id"
        ).fetchall()
    }
    missing = {log_id: v for log_id, v in acked.items() if rows.get(log_id) != v}
    assert not missing, f"acknowledged grades lost: {missing}"
    # The state row and the log row are written in one transaction: reps always equals the log count.
    mismatched = execute(
        "SELECT s.card_id, s.reps, (SELECT count(*) FROM review_logs l "
        "WHERE l.card_id = s.card_id AND l.user_id = s.user_id) FROM card_states s"
    ).fetchall()
    assert [m for m in mismatched if m[1] != m[2]] == []


@pytest.mark.slow
def test_kill_9_during_grading_never_loses_an_acknowledged_grade(sqlite_url):
    """At least 100 SIGKILLs at random moments (during open, content sync and grading)."""
    path = _sqlite_path(sqlite_url)
    rng = random.Random(20261129)
    proc = subprocess.Popen(
        [sys.executable, CHILD, "zygote", sqlite_url, "alice"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    reader = Lines(proc)
    acked: dict[int, tuple[str, int]] = {}
    kills = 0
    try:
        for round_no in range(110):
            proc.stdin.write(f"fork {round_no}\n".encode())
            proc.stdin.flush()
            first = reader.next()
            assert first and first.startswith("PID "), first
            pid = int(first.split()[1])
            # Kill after k acknowledgements: k = 0 hits opening/migration/sync, the rest hit grades.
            wanted = rng.choice([0, 1, 2, 3, 5, 8, 13, 21])
            seen: list[str] = []
            dead = None
            while len(_acks(seen)) < wanted:
                line = reader.next()
                if line.startswith("DEAD "):
                    dead = line
                    break
                seen.append(line)
            assert dead is None, f"the grader died by itself: {dead}"
            os.kill(pid, signal.SIGKILL)
            kills += 1
            while True:
                line = reader.next()
                if line.startswith("DEAD "):
                    status = int(line.split()[2])
                    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, line
                    break
                seen.append(line)
            acked.update(_acks(seen))
            if path.exists():
                _check_sqlite(path, acked)
    finally:
        proc.stdin.close()
        proc.wait(timeout=DEADLINE_S)
    assert kills >= 100
    assert len(acked) > 200  # the kills really interrupted grading, not just start-up
    _check_sqlite(path, acked)


def _run_pair(url: str, count: int) -> list[dict[int, tuple[str, int]]]:
    procs = [
        subprocess.Popen(
            [sys.executable, CHILD, "grade", url, "alice", str(count), str(seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for seed in (1, 2)
    ]
    readers = [Lines(p) for p in procs]
    for reader in readers:
        assert reader.next() == "READY"
    for proc in procs:  # both start grading at once
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
    results = []
    for proc, reader in zip(procs, readers, strict=True):
        lines = []
        while (line := reader.next()) is not None:
            lines.append(line)
        _, err = proc.communicate(timeout=DEADLINE_S)
        assert proc.returncode == 0, err.decode()
        results.append(_acks(lines))
    return results


def test_two_processes_grading_at_once_lose_nothing(db_url):
    count = 60
    first, second = _run_pair(db_url, count)
    assert len(first) == len(second) == count
    acked = {**first, **second}
    assert len(acked) == 2 * count  # no log id handed out twice
    if db_url.startswith("sqlite"):
        _check_sqlite(_sqlite_path(db_url), acked)
        return
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            _check_rows(lambda sql: conn.execute(text(sql)), acked)
            assert conn.execute(text("SELECT count(*) FROM review_logs")).scalar() == 2 * count
    finally:
        engine.dispose()


def test_disk_full_gives_a_clear_message_keeps_the_database_and_the_grade_can_be_retried(sqlite_url):
    out = subprocess.run(
        [sys.executable, CHILD, "diskfull", sqlite_url, "alice"],
        capture_output=True,
        text=True,
        timeout=DEADLINE_S,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "NEVER-FULL" not in lines
    full = [line for line in lines if line.startswith("FULL ")]
    assert len(full) == 1
    message = full[0]
    assert "nothing was saved" in message and ("full" in message or "disk" in message)
    assert "Traceback" not in out.stderr
    assert lines[-1] == "RETRIED"
    acked = _acks(lines)
    path = _sqlite_path(sqlite_url)
    _check_sqlite(path, acked)
    conn = sqlite3.connect(path)
    try:  # the failed attempt left nothing behind: exactly the acknowledged grades are there
        assert conn.execute("SELECT count(*) FROM review_logs").fetchone()[0] == len(acked)
    finally:
        conn.close()
