"""Issue 29, kill -9 loop over `drill code --check`: an attempt is written before drill prints anything, so a
kill at any moment leaves either no attempt or a whole one, never a verdict without its attempt, and never a
learner's process behind (`ps` after each kill: processes found by the name the submission gives itself).

The random delay is the fault injection, never an assertion; a hung drill fails the test through its timeout.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from drill.engine.codetasks import get_task
from drill.store import open_store
from tests.trust.processes import live_processes_named

TIMEOUT_S = 120


def _submission(name: str) -> str:
    """The reference softmax, renamed (PR_SET_NAME) so `ps` can find it, and a little slow per case so that the
    kills land while the learner's process runs too."""
    solution = get_task("softmax").solution()
    return (
        f"import ctypes as _ctypes, time as _time\n_ctypes.CDLL(None).prctl(15, {name.encode()!r}, 0, 0, 0)\n"
        + solution.replace("def softmax(", "def _softmax(", 1)
        + "\n\ndef softmax(*args, **kwargs):\n    _time.sleep(0.05)\n    return _softmax(*args, **kwargs)\n"
    )


def _attempts(path: Path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        return conn.execute("SELECT id, task, passed, total FROM code_attempts ORDER BY id").fetchall()
    finally:
        conn.close()


def _wait(proc: subprocess.Popen, condition, then_s: float) -> bool:
    """Wait until ``condition()`` holds (then ``then_s`` more) or drill has ended; whether the condition held."""
    deadline = time.monotonic() + TIMEOUT_S
    while not condition():
        if proc.poll() is not None:
            return False
        assert time.monotonic() < deadline, "drill code neither got there nor ended"
        time.sleep(0.005)
    time.sleep(then_s)
    return True


@pytest.mark.slow
def test_kill_9_during_code_checks_never_shows_a_verdict_whose_attempt_is_lost(tmp_path):
    """30 `drill code softmax --check` runs, each SIGKILLed at a random moment (in start-up, while the learner's
    code runs, or after the k-th line of the verdict), or left to finish if it gets there first:
    every run that printed anything has its whole attempt on disk (9 of 9 cases), no run wrote two, and no
    learner's process outlives drill."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DRILL_")}
    env.update(
        DRILL_DATA_DIR=str(tmp_path / "data"), DRILL_CONFIG_DIR=str(tmp_path / "config"), PYTHONUNBUFFERED="1"
    )
    db = tmp_path / "data" / "drill.sqlite3"
    db.parent.mkdir()
    open_store(f"sqlite:///{db}", "tester").close()
    name = f"ck{os.getpid() % 10000}"
    solution = tmp_path / "softmax.py"
    solution.write_text(_submission(name), encoding="utf-8")
    command = [sys.executable, "-m", "drill", "code", "softmax", "--check", str(solution)]

    def start() -> tuple[subprocess.Popen, Path]:
        out = tmp_path / f"out-{time.monotonic_ns()}.txt"
        with out.open("wb") as sink:
            proc = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=env)
        return proc, out

    started = time.monotonic()
    proc, out = start()
    assert proc.wait(timeout=TIMEOUT_S) == 0, out.read_text()
    span = time.monotonic() - started
    assert "9/9 passed" in out.read_text()
    assert len(_attempts(db)) == 1

    rng = random.Random(2029)
    hit = {"start-up": 0, "learner's code": 0, "printing": 0}
    printed = killed = 0
    for round_no in range(30):
        before = len(_attempts(db))
        proc, out = start()
        # The moment of the kill: at random in drill's start-up, while the learner's code runs, or after the k-th
        # line of the verdict (drill's stdout is unbuffered here, as on a terminal).
        moment = rng.choice(list(hit))
        if moment == "start-up":
            reached = _wait(proc, lambda: True, rng.uniform(0, span / 2))
        elif moment == "learner's code":
            reached = _wait(proc, lambda: bool(live_processes_named(name, settle_s=0)), rng.uniform(0, 0.3))
        else:
            k = rng.randint(1, 10)
            reached = _wait(proc, lambda k=k, out=out: len(out.read_bytes().splitlines()) >= k, 0)
        hit[moment] += reached
        proc.send_signal(signal.SIGKILL)
        status = proc.wait(timeout=TIMEOUT_S)
        killed += status == -signal.SIGKILL
        shown = out.read_text(errors="replace")
        rows = _attempts(db)
        new = rows[before:]
        assert len(new) <= 1, f"round {round_no}: one run wrote {len(new)} attempts"
        if shown.strip():
            printed += 1
            assert new, f"round {round_no}: drill printed {shown[:200]!r} but its attempt is not on disk"
        if new:
            assert new[0][1:] == ("softmax", 9, 9), f"round {round_no}: half an attempt {new[0]}"
        assert live_processes_named(name, settle_s=3) == [], (
            f"round {round_no}: the learner's code outlived drill"
        )
    saved = len(_attempts(db)) - 1
    print(f"code-check kills: {killed} of 30 killed, at {hit}; {printed} had printed, {saved} attempts saved")
    assert killed >= 20 and all(n >= 2 for n in hit.values()), hit  # the kills landed at each kind of moment
