"""Run a Textual program on a pseudo-terminal and read the milestones it records (benchmarks and tests share it).

drill's app (and the benchmarks' bare Textual apps) append ``<milestone> <time.monotonic()> <heavy modules>``
to the file named by $DRILL_BENCH_MARKS once the milestone is painted (a ``call_after_refresh`` callback).
CLOCK_MONOTONIC is system-wide, so a mark's time minus the moment this process spawned the program (or wrote
a key to its terminal) is "until it was on the screen".

    run = run_in_pty([drill, "study"], env, marks)            # until the program exits by itself
    run.marks["question"]  -> (seconds since spawn, "sqlalchemy,numpy" or "-")

    with PtySession([drill, "study"], env, marks) as session:  # interactive: keys in, milestones out
        session.wait_for("question")
        session.press(" ")
        ...
    session.result.maxrss_mb                                   # the program's peak memory
"""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SIZE = (120, 40)


@dataclass
class Mark:
    name: str
    at: float  # time.monotonic() in the program
    heavy: str


@dataclass
class PtyRun:
    code: int
    start: float  # time.monotonic() here, just before the spawn
    all_marks: list[Mark] = field(default_factory=list)
    maxrss_mb: float = 0.0

    @property
    def marks(self) -> dict[str, tuple[float, str]]:
        """{milestone: (seconds since spawn, heavy modules)} for each milestone's first mark."""
        out: dict[str, tuple[float, str]] = {}
        for mark in self.all_marks:
            out.setdefault(mark.name, (mark.at - self.start, mark.heavy))
        return out


def read_marks(path: Path) -> list[Mark]:
    marks = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3:  # a line being written is skipped until it is whole
            marks.append(Mark(parts[0], float(parts[1]), parts[2]))
    return marks


class PtySession:
    """One program on a pseudo-terminal of ``size`` (columns, rows), its marks in ``marks``."""

    def __init__(
        self, argv: list[str], env: dict[str, str], marks: Path, size: tuple[int, int] = SIZE
    ) -> None:
        self.argv = argv
        self.marks_path = marks
        self.env = dict(
            env, DRILL_BENCH_MARKS=str(marks), TERM="xterm-256color", COLUMNS=str(size[0]), LINES=str(size[1])
        )
        self.size = size
        self.result: PtyRun | None = None
        self._seen: list[Mark] = []
        self._usage = None

    def ended(self) -> bool:
        """Whether the program has exited (reaped here with wait4, which also gives its resource usage)."""
        if self.proc.returncode is not None:
            return True
        pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
        if pid == 0:
            return False
        self.proc.returncode = os.waitstatus_to_exitcode(status)  # so Popen never waits for it again
        self._usage = usage
        return True

    def __enter__(self) -> PtySession:
        self.marks_path.write_text("")
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.size[1], self.size[0], 0, 0))
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        self.start = time.monotonic()
        self.proc = subprocess.Popen(
            self.argv, stdin=slave, stdout=slave, stderr=slave, env=self.env, start_new_session=True
        )
        os.close(slave)
        return self

    def _drain(self) -> None:  # the terminal must be read or the program blocks writing to it
        try:
            while os.read(self.master, 65536):
                pass
        except OSError:
            pass

    def press(self, keys: str) -> float:
        """Type ``keys``; returns time.monotonic() just before they were written."""
        at = time.monotonic()
        os.write(self.master, keys.encode())
        return at

    def wait_for(self, name: str, count: int = 1, timeout: float = 60.0) -> Mark:
        """The ``count``-th mark called ``name`` (polls the marks file; fails if the program ends first)."""
        deadline = time.monotonic() + timeout
        while True:
            self._seen = read_marks(self.marks_path)
            found = [mark for mark in self._seen if mark.name == name]
            if len(found) >= count:
                return found[count - 1]
            if self.ended():
                raise RuntimeError(
                    f"{self.argv} ended (exit {self.proc.returncode}) before mark {name!r} #{count}"
                )
            if time.monotonic() > deadline:
                raise TimeoutError(f"no mark {name!r} #{count} after {timeout} s (marks: {self._seen})")
            time.sleep(0.0005)

    def count(self, name: str) -> int:
        self._seen = read_marks(self.marks_path)
        return sum(1 for mark in self._seen if mark.name == name)

    def __exit__(self, *exc: object) -> None:
        self.finish(timeout=120 if exc[0] is None else 0)

    def finish(self, timeout: float = 120) -> PtyRun:
        """Wait for the program to end (killing it after ``timeout``); its exit code, marks and peak memory."""
        if self.result is not None:
            return self.result
        deadline = time.monotonic() + timeout
        while not self.ended() and time.monotonic() < deadline:
            time.sleep(0.005)
        if not self.ended():
            os.killpg(self.proc.pid, signal.SIGKILL)
            while not self.ended():
                time.sleep(0.005)
        self._reader.join(timeout=5)
        os.close(self.master)
        # ru_maxrss: the program's own peak resident memory, in KiB on Linux.
        maxrss_mb = self._usage.ru_maxrss / 1024 if self._usage is not None else 0.0
        self.result = PtyRun(self.proc.returncode, self.start, read_marks(self.marks_path), maxrss_mb)
        return self.result


def run_in_pty(
    argv: list[str], env: dict[str, str], marks: Path, size: tuple[int, int] = SIZE, *, check: bool = True
) -> PtyRun:
    """Run ``argv`` on a pseudo-terminal until it exits by itself ($DRILL_EXIT_AFTER in ``env`` for drill)."""
    session = PtySession(argv, env, marks, size)
    with session:
        pass
    run = session.finish()
    if check and run.code != 0:
        raise SystemExit(f"{argv} exited {run.code}")
    return run


def drill_command() -> str:
    """The installed `drill` beside this interpreter (what a user runs)."""
    script = Path(sys.executable).with_name("drill")
    if not script.is_file():
        raise SystemExit(f"no installed drill next to {sys.executable}: pip install -e . first")
    return str(script)


def study_env(drill: str, base: dict[str, str], root: Path) -> dict[str, str]:
    """An environment whose data, config and cache live under ``root`` (a fresh learner), set up so a session
    can study many new cards quickly (100 new a day, 1-second learning steps)."""
    env = dict(
        base,
        DRILL_DATA_DIR=str(root / "data"),
        DRILL_CONFIG_DIR=str(root / "config"),
        DRILL_CACHE_DIR=str(root / "cache"),
    )
    for key, value in (("new_per_day", "100"), ("learning_steps", "1s,1s")):
        subprocess.run([drill, "config", "set", key, value], env=env, check=True, capture_output=True)
    return env
