"""Signals to the code editor during a run (issue 29): closing the terminal (SIGHUP) or SIGTERM while `drill code`'s
editor runs the hidden tests. The installed program on a pseudo-terminal (benchmarks/ptyrun.py reads its
screen): a first run passes (its verdict on the screen: an acknowledged attempt), a second one sleeps in a
process it names; then the signal. drill gives its terminal back (the
alternate screen left) and dies by the signal, without a traceback; the learner's process is gone, no run folder is left, and the acknowledged attempt is
on disk."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import stat
import time
from pathlib import Path

import pytest

from drill.engine.codetasks import get_task
from tests.trust.processes import live_processes_named
from tests.tui.conftest import ptyrun

RUNNING = "running the hidden tests"
PASSED = re.compile(r"\b(\d+)/\1 passed")


def _editor(tmp_path: Path, *solutions: str) -> str:
    """An $EDITOR that writes the next of ``solutions`` into the file it is given (one per use)."""
    for i, text in enumerate(solutions):
        (tmp_path / f"sol{i}.py").write_text(text, encoding="utf-8")
    script = tmp_path / "editor.sh"
    script.write_text(
        "#!/bin/sh\n"
        f'n=$(cat "{tmp_path}/uses" 2>/dev/null || echo 0)\n'
        f'cp "{tmp_path}/sol$n.py" "$1"\n'
        f'echo $((n + 1)) > "{tmp_path}/uses"\n',
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def _attempts(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT task, all_passed FROM code_attempts").fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_a_signal_during_a_run_in_the_editor(sig, tmp_path):
    name = f"ed{os.getpid() % 10000}{sig}"[:15]
    slow = (
        "import time\n"
        "def softmax(x):\n"
        f"    __import__('ctypes').CDLL(None).prctl(15, {name.encode()!r}, 0, 0, 0)\n"
        "    time.sleep(60)\n"
    )
    runs, data = tmp_path / "runs", tmp_path / "data"
    runs.mkdir()
    data.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DRILL_")}
    env.update(
        DRILL_DATA_DIR=str(data),
        DRILL_CONFIG_DIR=str(tmp_path),
        TMPDIR=str(runs),
        EDITOR=_editor(tmp_path, get_task("softmax").solution(), slow),
    )
    env.pop("VISUAL", None)
    reader = ptyrun()
    with reader.Terminal([reader.drill_command(), "code", "softmax"], env) as term:
        term.wait_for("ctrl+r")
        term.press("\x0f", pause=0)  # ctrl+o: the editor writes the correct solution
        term.wait_for("np.exp", timeout=30)
        ran = term.press("\x12", pause=0)  # ctrl+r
        term.wait_for(PASSED, after=ran, timeout=120)  # the verdict is on the screen: acknowledged
        term.press("\x0f", pause=0)  # the slow one
        term.wait_for("time.sleep(60)", timeout=30)
        ran = term.press("\x12", pause=0)
        term.wait_for(RUNNING, after=ran, timeout=30)
        deadline = time.monotonic() + 60
        while not live_processes_named(name, settle_s=0) and time.monotonic() < deadline:
            term.update()
            time.sleep(0.05)
        assert live_processes_named(name, settle_s=0), "the slow submission never started"
        term.signal(sig)
        term.wait_for_exit(timeout=30)
    screen = term.text()
    after = b"".join(data for _at, data in term._chunks)
    assert "Traceback" not in screen and b"Traceback" not in after, screen
    assert after.rfind(b"\x1b[?1049l") > after.rfind(b"\x1b[?1049h"), "the terminal was not given back"
    assert term.result.code == -sig, term.result.code  # drill died by the signal, as before
    assert live_processes_named(name, settle_s=15) == []  # (returns as soon as none is left)
    deadline = time.monotonic() + 30  # the supervisor removes the run folder once drill has died
    while list(runs.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(runs.iterdir()) == []
    assert _attempts(data / "drill.sqlite3") == [("softmax", 1)]
