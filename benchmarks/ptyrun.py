"""Run a program on a pseudo-terminal and read its screen, as a person at the terminal does (benchmarks and tests
share it). Nothing inside the program is asked: no milestones, no hooks in drill.

A reader thread timestamps every chunk of bytes the program writes (``time.monotonic()`` as it is read) and keeps
it; `Terminal.wait_for` feeds the chunks, in order, to a terminal emulator (pyte: cursor moves, colours, wide
characters, the alternate screen's redraws) and returns the time of the first chunk after which the awaited text
is on the screen. A time is then "spawn -> on the screen" or "key written -> on the screen".

    with Terminal([drill, "study"], env) as term:
        shown = term.wait_for("show answer") - term.start      # the first question
        sent = term.press(" ")                                 # after a reader's pause (0.3 s), one key
        revealed = term.wait_for("Again", after=sent) - sent   # bytes read after the key only
        sent = term.press("q")
        term.finish()                                          # exit code, peak memory
        gone = term.exited_at - sent                           # the program has ended: the prompt is back

Keys are sent one at a time; `press` sleeps `PAUSE` first unless told otherwise, as a reader presses after reading.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyte
from wcwidth import wcwidth

SIZE = (120, 40)  # columns, rows
PAUSE = 0.3  # seconds a reader waits before the next key

Awaited = str | re.Pattern[str] | Callable[[str], bool]


@dataclass
class PtyRun:
    code: int
    maxrss_mb: float


class Terminal:
    """One program on a pseudo-terminal of ``size`` (columns, rows); its screen decoded from its bytes."""

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int] = SIZE) -> None:
        self.argv = argv
        self.env = dict(env, TERM="xterm-256color", COLUMNS=str(size[0]), LINES=str(size[1]))
        self.size = size
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.result: PtyRun | None = None
        self.exited_at: float | None = None  # time.monotonic() when the program ended
        self._chunks: list[tuple[float, bytes]] = []  # (read at, bytes), in order
        self._fed = 0  # chunks fed to the emulator so far
        self._fed_at = 0.0  # the last fed chunk's time
        self._arrived = threading.Condition()
        self._usage = None
        self._status: int | None = None

    # --- the program ------------------------------------------------------------------------------------------

    def __enter__(self) -> Terminal:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.size[1], self.size[0], 0, 0))
        self.start = time.monotonic()
        self.proc = subprocess.Popen(
            self.argv, stdin=slave, stdout=slave, stderr=slave, env=self.env, start_new_session=True
        )
        os.close(slave)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._waiter = threading.Thread(target=self._wait, daemon=True)
        self._waiter.start()
        return self

    def _read(self) -> None:  # the terminal must be read or the program blocks writing to it
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: every copy of the terminal's other end is closed
                data = b""
            at = time.monotonic()
            with self._arrived:
                if data:
                    self._chunks.append((at, data))
                self._arrived.notify_all()
            if not data:
                return

    def _wait(self) -> None:
        """Reap the program the moment it ends (wait4 also gives its resource usage)."""
        _pid, status, usage = os.wait4(self.proc.pid, 0)
        at = time.monotonic()
        with self._arrived:
            self._status, self._usage, self.exited_at = status, usage, at
            self.proc.returncode = os.waitstatus_to_exitcode(status)  # so Popen never waits for it again
            self._arrived.notify_all()

    def ended(self) -> bool:
        return self.exited_at is not None

    def __exit__(self, *exc: object) -> None:
        self.finish(timeout=120 if exc[0] is None else 0)

    def finish(self, timeout: float = 120) -> PtyRun:
        """Wait for the program to end (killing it after ``timeout``); its exit code and peak memory."""
        if self.result is not None:
            return self.result
        self._waiter.join(timeout)
        if not self.ended():
            os.killpg(self.proc.pid, signal.SIGKILL)
            self._waiter.join()
        self._reader.join(timeout=5)
        os.close(self.master)
        # ru_maxrss: the program's own peak resident memory, in KiB on Linux.
        maxrss_mb = self._usage.ru_maxrss / 1024 if self._usage is not None else 0.0
        assert self.proc.returncode is not None
        self.result = PtyRun(self.proc.returncode, maxrss_mb)
        return self.result

    def signal(self, signum: int) -> None:
        os.kill(self.proc.pid, signum)

    # --- keys and the screen ------------------------------------------------------------------------------------

    def press(self, key: str, pause: float = PAUSE) -> float:
        """Type one key (its characters, e.g. " ", "3", "\\r", "\\x1b") after ``pause`` seconds; returns
        time.monotonic() just before it was written."""
        if pause:
            time.sleep(pause)
        at = time.monotonic()
        os.write(self.master, key.encode())
        return at

    def update(self) -> str:
        """Feed every chunk read so far to the emulator; the screen's text."""
        with self._arrived:
            pending = self._chunks[self._fed :]
        for at, data in pending:
            self.stream.feed(data)
            self._fed += 1
            self._fed_at = at
        return self.text()

    def settled(self, quiet: float = 0.4, timeout: float = 30.0) -> str:
        """The screen once the program has written nothing for ``quiet`` seconds (or after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._arrived:
                count = len(self._chunks)
                last = self._chunks[-1][0] if self._chunks else self.start
            if time.monotonic() - last >= quiet:
                with self._arrived:
                    if len(self._chunks) == count:
                        break
            time.sleep(0.05)
        return self.update()

    def text(self) -> str:
        """The screen as decoded so far (rows without their trailing blanks, joined by newlines).

        Not pyte's ``Screen.display``: it raises IndexError on the empty stub a wide character leaves in the next
        cell once a narrow character overwrites the wide one (seen in a CI run of the code editor's signal test).
        Here such a stub reads as a blank."""
        screen = self.screen
        rows = []
        for y in range(screen.lines):
            line, cells, stub = screen.buffer[y], [], False
            for x in range(screen.columns):
                data = line[x].data
                if stub:  # the second cell of a wide character
                    stub = False
                    continue
                cells.append(data or " ")
                stub = bool(data) and wcwidth(data[0]) == 2
            rows.append("".join(cells).rstrip())
        return "\n".join(rows)

    def wait_for(self, awaited: Awaited, *, after: float | None = None, timeout: float = 60.0) -> float:
        """The time (monotonic) of the first chunk after which ``awaited`` is on the screen: a text, a regular
        expression, or a test of the screen's text. With ``after``, only a chunk read after that moment counts
        (a key's answer, not what was there before it). Fails if the program ends first, or after ``timeout``."""
        test = _test(awaited)
        deadline = time.monotonic() + timeout
        while True:
            with self._arrived:
                while self._fed == len(self._chunks) and not self.ended() and time.monotonic() < deadline:
                    self._arrived.wait(timeout=0.05)
                pending = self._chunks[self._fed :]
            for at, data in pending:
                self.stream.feed(data)
                self._fed += 1
                self._fed_at = at
                if (after is None or at > after) and test(self.text()):
                    return at
            if not pending and (after is None or self._fed_at > after) and test(self.text()):
                return self._fed_at
            if not pending and self.ended() and not self._reader.is_alive():
                raise RuntimeError(
                    f"{self.argv} ended (exit {self.proc.returncode}) before {awaited!r} was on the screen:\n"
                    + self.text()
                )
            if time.monotonic() > deadline:
                raise TimeoutError(f"{awaited!r} not on the screen after {timeout} s:\n{self.text()}")

    def wait_for_exit(self, timeout: float = 60.0) -> float:
        """The moment the program ended (its terminal is the shell's again)."""
        self._waiter.join(timeout)
        if self.exited_at is None:
            raise TimeoutError(f"{self.argv} still running after {timeout} s:\n{self.text()}")
        return self.exited_at


def changed_from(before: str) -> Callable[[str], bool]:
    """A test for `Terminal.wait_for`: the screen is no longer ``before``."""
    return lambda screen: screen != before


def median_ms(values: list[float]) -> float:
    import statistics

    return statistics.median(values) * 1000


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} / {five:.1f} / {fifteen:.1f} on {os.cpu_count()} cores"


def _test(awaited: Awaited) -> Callable[[str], bool]:
    if isinstance(awaited, str):
        return lambda screen: awaited in screen
    if isinstance(awaited, re.Pattern):
        return lambda screen: awaited.search(screen) is not None
    return awaited


# --- drill, as a user installs and runs it ------------------------------------------------------------------------


def drill_command() -> str:
    """The installed `drill` beside this interpreter (what a user runs)."""
    script = Path(sys.executable).with_name("drill")
    if not script.is_file():
        raise SystemExit(f"no installed drill next to {sys.executable}: pip install -e . first")
    return str(script)


def home_env(base: dict[str, str], root: Path) -> dict[str, str]:
    """An environment whose data, config and cache live under ``root`` (a fresh learner)."""
    clean = {k: v for k, v in base.items() if not k.startswith("DRILL_")}
    return dict(
        clean,
        DRILL_DATA_DIR=str(root / "data"),
        DRILL_CONFIG_DIR=str(root / "config"),
        DRILL_CACHE_DIR=str(root / "cache"),
    )


def study_env(drill: str, base: dict[str, str], root: Path) -> dict[str, str]:
    """`home_env`, set up so a session can study many new cards quickly (100 new a day, 1-second learning
    steps)."""
    env = home_env(base, root)
    for key, value in (("new_per_day", "100"), ("learning_steps", "1s,1s")):
        subprocess.run([drill, "config", "set", key, value], env=env, check=True, capture_output=True)
    return env


# --- which heavy modules are loaded: the program under a held import ------------------------------------------------

HELD_IMPORTS = r"""
import importlib.abc, os, signal, sys, threading
HEAVY = tuple(os.environ["HELD_IMPORTS"].split(","))
released = threading.Event()

class Hold(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HEAVY:
            released.wait()
        return None

def report(signum, frame):
    loaded = ",".join(m for m in HEAVY if m in sys.modules) or "-"
    with open(os.environ["HELD_REPORT"], "a", encoding="utf-8") as out:
        out.write(loaded + "\n")

signal.signal(signal.SIGUSR1, report)
signal.signal(signal.SIGUSR2, lambda signum, frame: released.set())
sys.meta_path.insert(0, Hold())
sys.argv = ["drill", *sys.argv[1:]]
from drill.cli import main
sys.exit(main())
"""


class HeldTerminal(Terminal):
    """drill (its console entry point, in a new interpreter) on a terminal, every import of ``heavy`` modules
    held until `release()`: whatever its screen shows before then was drawn without them. `loaded()` asks the
    program (SIGUSR1) which of them it has imported."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str],
        report: Path,
        size: tuple[int, int] = SIZE,
        heavy: tuple[str, ...] = ("sqlalchemy", "numpy"),
    ) -> None:
        self.report = report
        report.write_text("")
        env = dict(env, HELD_IMPORTS=",".join(heavy), HELD_REPORT=str(report))
        super().__init__([sys.executable, "-c", HELD_IMPORTS, *args], env, size)

    def release(self) -> None:
        self.signal(signal.SIGUSR2)

    def loaded(self, timeout: float = 30.0) -> set[str]:
        """The held modules the program has imported by now (an empty set: none)."""
        before = len(self.report.read_text().splitlines())
        self.signal(signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.report.read_text().splitlines()
            if len(lines) > before and self.report.read_text().endswith("\n"):
                return set(lines[before].split(",")) - {"-"}
            time.sleep(0.005)
        raise TimeoutError(f"{self.argv[3:]} did not say which modules it has loaded")
