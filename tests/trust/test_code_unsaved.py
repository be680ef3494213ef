"""Issue 29 #2 and #4: `drill code --check` when its attempt cannot be saved — a read-only data folder, a locked
database, PostgreSQL down — shows the verdict, says why in one line and exits non-zero; and run folders left by
a killed `drill code` are removed by the next run."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from drill.engine.codetasks import get_task
from drill.runner import stale
from drill.store import open_store
from tests.trust.processes import children_running

TIMEOUT_S = 120
SOLUTION = get_task("softmax").solution()


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DRILL_")}
    env.update(DRILL_DATA_DIR=str(tmp_path / "data"), DRILL_CONFIG_DIR=str(tmp_path / "config"), **extra)
    return env


def _check(
    tmp_path: Path, env: dict[str, str], wrapper: list[str] | None = None
) -> subprocess.CompletedProcess:
    solution = tmp_path / "softmax.py"
    solution.write_text(SOLUTION, encoding="utf-8")
    return subprocess.run(
        [*(wrapper or []), sys.executable, "-m", "drill", "code", "softmax", "--check", str(solution)],
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT_S,
    )


def _assert_verdict_and_one_line(out: subprocess.CompletedProcess, *needles: str) -> str:
    assert "9/9 passed" in out.stdout, out.stdout + out.stderr  # the verdict is shown all the same
    assert out.returncode != 0
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert "not saved" in lines[0], lines[0]
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def _attempts(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM code_attempts").fetchone()[0]
    finally:
        conn.close()


def _made_database(tmp_path: Path) -> Path:
    path = tmp_path / "data" / "drill.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    open_store(f"sqlite:///{path}", "tester").close()
    return path


def test_a_read_only_data_folder(tmp_path):
    path = _made_database(tmp_path)
    data = path.parent
    if (
        os.geteuid() == 0
    ):  # root ignores file modes: the folder is a read-only bind mount in a private namespace
        unshare = shutil.which("unshare")
        if unshare is None:
            pytest.skip("root without unshare(1): no way to make a read-only folder here")
        wrapper = [
            unshare,
            "-m",
            "sh",
            "-c",
            f'mount --bind "{data}" "{data}" && mount -o remount,ro,bind "{data}" && exec "$0" "$@"',
        ]
    else:
        data.chmod(0o555)
        wrapper = []
    try:
        out = _check(tmp_path, _env(tmp_path), wrapper)
    finally:
        data.chmod(0o755)
    _assert_verdict_and_one_line(out, str(path))
    assert _attempts(path) == 0


@pytest.mark.slow  # waits out the store's 30 s busy timeout
def test_a_database_locked_by_another_program(tmp_path):
    path = _made_database(tmp_path)
    holder = sqlite3.connect(path, timeout=0)
    holder.execute("BEGIN EXCLUSIVE")  # another program writes and never lets go
    try:
        out = _check(tmp_path, _env(tmp_path))  # drill waits out its busy timeout, then says so
    finally:
        holder.rollback()
        holder.close()
    _assert_verdict_and_one_line(out, "locked")
    assert _attempts(path) == 0


def test_postgresql_down(tmp_path):
    with socket.socket() as free:  # a port nothing listens on: the server is down
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    url = f"postgresql+psycopg://drill:s3cret-pw@127.0.0.1:{port}/drill"
    out = _check(tmp_path, _env(tmp_path, DRILL_DB_URL=url))
    _assert_verdict_and_one_line(out)
    assert "s3cret-pw" not in out.stdout + out.stderr


def test_a_run_folder_left_by_a_killed_drill_code_is_removed_by_the_next_run(tmp_path):
    """SIGKILL to drill and to the runner's supervisor leaves nobody to clean up (as when the kernel kills them
    all): the run folder stays until the next run prunes it. A folder a living run holds, and one just made, are
    left alone.

    drill is stopped before anything is killed. Killing drill alone is another case: the supervisor (its own
    session) then dies with drill by PR_SET_PDEATHSIG and removes the folder itself, or part of it, once its
    handler is in place; that raced this test's look (an intermittent "folder already gone" / no lock file)."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = _env(tmp_path, TMPDIR=str(temp))
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ndef softmax(x):\n    time.sleep(60)\n    return x\n", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "drill", "code", "softmax", "--check", str(slow), "--no-save"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + TIMEOUT_S
    while not (supervisors := children_running(proc.pid, "harness.py")):
        assert time.monotonic() < deadline and proc.poll() is None, "the run never started"
        time.sleep(0.05)
    proc.send_signal(signal.SIGSTOP)  # drill can no longer clean up when its supervisor dies
    for pid in supervisors:
        os.killpg(pid, signal.SIGKILL)  # its session's group: the supervisor and the learner's process
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=TIMEOUT_S)
    (killed,) = temp.glob("drill-run-*")
    assert (killed / stale.LOCK).exists()

    held = temp / "drill-run-living"
    held.mkdir()
    claim = stale.claim(held)
    fresh = temp / "drill-run-justmade"
    fresh.mkdir()
    old = time.time() - 10 * stale.STALE_AFTER_S
    for path in (killed, held):
        os.utime(path, (old, old))
    try:
        out = _check(tmp_path, env)
        assert "9/9 passed" in out.stdout, out.stderr
        assert not killed.exists()
        assert held.exists() and fresh.exists()
        assert sorted(p.name for p in temp.iterdir()) == ["drill-run-justmade", "drill-run-living"]
    finally:
        stale.release(claim)
