"""One drill per SQLite database for the things that replace it: an advisory lock file beside the database.

``<db>.lock`` is locked with ``flock(2)``: every writing session (``open_store`` without ``readonly``) holds a
*shared* lock for its whole life, so two study sessions on one file still both work; ``drill restore`` and
schema migrations need the *exclusive* lock, so they refuse (restore) or wait briefly and then refuse
(migration) while another drill writes. The kernel drops a process's locks when it dies, kill -9 included: a
stale lock can never block anyone. The file itself is never deleted (deleting a lock file races with its
next user) and holds nothing but the pid of the last holder, for messages.

Where ``fcntl`` is missing (Windows) the lock is a no-op.
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

from drill.errors import StoreError

try:  # pragma: no branch
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

POLL_S = 0.05


def lock_path(db_path: Path) -> Path:
    return Path(db_path).with_name(Path(db_path).name + ".lock")


class DatabaseLock:
    """The advisory lock on one database file; ``shared()``/``exclusive()`` take it, ``release()`` drops it."""

    def __init__(self, db_path: Path) -> None:
        self.path = lock_path(db_path)
        self.mode: str | None = None
        self._fd: int | None = None

    def _open(self) -> int | None:
        if fcntl is None:
            return None
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError:
                return None  # a read-only folder: nothing can replace the database from here either
        return self._fd

    def _try(self, flag: int) -> bool:
        fd = self._open()
        if fd is None:
            return True
        try:
            fcntl.flock(fd, flag | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def shared(self, wait_s: float = 10.0) -> None:
        """Hold the shared lock (a writing session); waits up to ``wait_s`` for a restore or upgrade to end."""
        deadline = time.monotonic() + wait_s
        while not self._try(fcntl.LOCK_SH if fcntl else 0):
            if time.monotonic() >= deadline:
                raise StoreError(
                    f"another drill is restoring or upgrading the progress database {self.path.with_suffix('')} "
                    f"(lock {self.path}); try again when it has finished"
                )
            time.sleep(POLL_S)
        self.mode = "shared"

    def exclusive(self, wait_s: float = 0.0, *, done: Callable[[], bool] | None = None) -> bool:
        """Take the exclusive lock, waiting up to ``wait_s``. Returns False early when ``done()`` says the
        work is no longer needed (another drill did it), holding the shared lock again.

        A shared lock held here is let go while waiting: two drills that both hold it and both want it
        exclusive (two first starts on one old database) would otherwise keep each other out."""
        deadline = time.monotonic() + wait_s
        held = self.mode
        if held == "shared" and self._fd is not None and fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            self.mode = None
        while True:
            if self._try(fcntl.LOCK_EX if fcntl else 0):
                self.mode = "exclusive"
                self._note_pid()
                return True
            if done is not None and done():
                if held == "shared":
                    self.shared()
                return False
            if time.monotonic() >= deadline:
                if held == "shared":
                    self._try(fcntl.LOCK_SH)
                    self.mode = "shared"
                raise StoreError(self.busy_message())
            time.sleep(POLL_S * random.uniform(0.5, 1.5))

    def busy_message(self) -> str:
        db = self.path.with_name(self.path.name.removesuffix(".lock"))
        return (
            f"another drill is using the progress database {db} (a study, quiz or code session); "
            f"close it first"
        )

    def _note_pid(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
        self.mode = None

    def __enter__(self) -> DatabaseLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
