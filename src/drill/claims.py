"""A file's claim: an exclusive flock held by the process working on it, dropped by the kernel when that
process dies (SIGKILL included). A file nobody holds is a dead process's leftover, safe to prune: a sandboxed
run's folder (drill.runner.stale) or a backup copy left half-written (drill.store.backup). Without fcntl
(Windows) nothing is claimed and everything counts as held: never prune what might be live."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def claim(path: Path, mode: int = 0o600) -> int | None:
    """Hold ``path`` (created empty with ``mode`` if missing) until ``release`` or the process's end; None
    without fcntl."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return None
    fd = os.open(path, os.O_RDWR | os.O_CREAT, mode)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def release(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def held(path: Path, *, missing: bool) -> bool:
    """Whether a living process may hold ``path``'s claim: True when one does, when it cannot be told (an
    unreadable file, no fcntl); ``missing`` when there is no such file."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return True
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return missing
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)
