"""A terminal that goes away without a SIGHUP ends drill as one that sends it does (drill.tui.hangup).

drill runs on a pseudo-terminal that is not its controlling terminal (a new session; the terminal is handed over
as its standard streams, as benchmarks and editors' terminals do): closing the other end sends it no signal.
Before the watch, Textual's input thread read end-of-file in a loop for ever, a core at 100 %. Now drill dies
by SIGHUP within seconds, and the answer it acknowledged is on disk.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte

COLUMNS, ROWS = 100, 30
DEADLINE_S = 60


def screen_until(master: int, stream: pyte.ByteStream, screen: pyte.Screen, text: str) -> str:
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        shown = "\n".join(screen.display)
        if text in shown:
            return shown
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            stream.feed(os.read(master, 65536))
    raise AssertionError(f"{text!r} not on the screen after {DEADLINE_S} s:\n" + "\n".join(screen.display))


def feedback(master: int, stream: pyte.ByteStream, screen: pyte.Screen) -> None:
    """Until the answer's verdict (✓ or ✗) is on the screen: the answer is acknowledged, so on disk."""
    deadline = time.monotonic() + DEADLINE_S
    while not any("✓" in row or "✗" in row for row in screen.display):
        assert time.monotonic() < deadline, "\n".join(screen.display)
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            stream.feed(os.read(master, 65536))


def test_a_terminal_closed_without_a_sighup_ends_drill_and_keeps_the_answer(tmp_path):
    import fcntl

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(COLUMNS), LINES=str(ROWS))
    drill = [sys.executable, "-m", "drill", "quiz", "--seed", "1", "--generated", "0"]
    proc = subprocess.Popen(drill, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    try:
        screen = pyte.Screen(COLUMNS, ROWS)
        stream = pyte.ByteStream(screen)
        screen_until(master, stream, screen, "chapter quiz")
        os.write(master, b"a")  # at once: the store may still be opening (the verdict then waits for it)
        feedback(master, stream, screen)
        os.close(master)  # the terminal goes away; no signal is sent
        master = -1
        code = proc.wait(timeout=DEADLINE_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        if master >= 0:
            os.close(master)
    assert code == -signal.SIGHUP
    with sqlite3.connect(Path(os.environ["DRILL_DATA_DIR"]) / "drill.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM quiz_answers").fetchone() == (1,)
