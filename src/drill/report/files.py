"""Every file drill writes for ``-o FILE`` / ``--anki FILE``: whole or not at all.

The content goes to a temporary file in the same directory (so the final step is a rename on one filesystem),
is flushed and fsynced, and then renamed over the target in one step; the directory is fsynced so the rename
itself survives a crash. A kill, a full disk or any write error before the rename leaves the target exactly as
it was (the old report, or no file) and removes the temporary file; nothing ever holds half a report.
The new file gets the old one's permission bits, or the usual ``0666`` less the umask for a new one.

A writer killed with ``kill -9`` cannot remove its temporary file, ``.<name>.<8 random characters>.partial``
beside the target. The next write of the same target removes such leftovers (pruning, not a temporary folder:
the rename must stay on the target's filesystem, and a leftover beside the target is where a user looks): only
regular files of drill's own partial pattern for that target name, last written before the current process
started, and not locked — a writer holds an exclusive ``flock`` on its partial until the rename, and the kernel
drops the lock of a killed process, so another drill writing the same file right now is never disturbed.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from drill.errors import InputError
from drill.i18n import _

CHUNK = 1 << 20
PARTIAL_SUFFIX = ".partial"
# tempfile.mkstemp's names: the prefix, 8 characters of its alphabet, the suffix
_RANDOM_PART = "[a-z0-9_]{8}"

try:
    import fcntl
except ImportError:  # Windows: no flock; the age rule alone guards a live writer's partial
    fcntl = None  # type: ignore[assignment]


def write_text(path: str | Path, chunks: str | Iterable[str], *, what: str = "-o") -> None:
    """Write ``chunks`` (a string, or strings in order) as UTF-8 to ``path``, atomically."""
    parts = [chunks] if isinstance(chunks, str) else chunks

    def fill(fd: int, _tmp: Path) -> None:
        for part in parts:
            _write_all(fd, part.encode("utf-8"))

    _replace(Path(path), fill, what)


def write_with(path: str | Path, writer: Callable[[Path], None], *, what: str) -> None:
    """``writer(temporary_path)`` writes the whole file by name (for a library that only takes a file name,
    such as genanki); the result then replaces ``path`` atomically, as ``write_text`` does."""
    _replace(Path(path), lambda _fd, tmp: writer(tmp), what)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view[:CHUNK])
        view = view[written:]


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _replace(path: Path, fill: Callable[[int, Path], None], what: str) -> None:
    if path.is_dir():
        raise InputError(
            _("{what} {path!r} is a directory: give a file name").format(what=what, path=str(path))
        )
    folder = path.parent
    prune_partials(path)
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=_partial_prefix(path), suffix=PARTIAL_SUFFIX)
    except OSError as err:
        raise _error(path, err, what) from None
    tmp = Path(name)
    try:
        try:
            _lock(fd)
            os.fchmod(fd, _mode_for(path))
            fill(fd, tmp)
            _fsync(tmp, os.O_RDONLY)  # the file by name: a library may have replaced the one made here
            os.replace(tmp, path)
        finally:
            os.close(fd)  # (the lock goes with it, after the rename)
    except BaseException as err:
        with contextlib.suppress(OSError):  # a read-only or full disk must not raise again while cleaning up
            tmp.unlink()
        if isinstance(err, OSError):
            raise _error(path, err, what) from None
        raise
    with contextlib.suppress(OSError):  # the rename on disk too (best effort: some filesystems refuse it)
        _fsync(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))


def _partial_prefix(path: Path) -> str:
    return f".{path.name}."


def prune_partials(path: Path) -> list[Path]:
    """Remove the partial files a killed writer of ``path`` left beside it (see the module's docstring);
    the ones removed. Best effort: a file that cannot be examined or removed is left alone."""
    pattern = re.compile(re.escape(_partial_prefix(path)) + _RANDOM_PART + re.escape(PARTIAL_SUFFIX))
    started = process_started()
    removed = []
    try:
        entries = [e for e in os.scandir(path.parent) if pattern.fullmatch(e.name)]
    except OSError:
        return removed
    for entry in entries:
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode) or info.st_mtime >= started:
                continue
            fd = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            try:
                if _lock(fd, wait=False):  # nobody writes it: its writer is gone
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
            finally:
                os.close(fd)
    return removed


def _lock(fd: int, *, wait: bool = True) -> bool:
    """An exclusive flock on ``fd``; without ``wait``, False when another process holds one."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def process_started() -> float:
    """When this process started (seconds since the epoch, to the kernel's clock tick); where that cannot
    be read, the first time this was asked."""
    global _STARTED
    if _STARTED is None:
        _STARTED = _linux_start() or time.time()
    return _STARTED


_STARTED: float | None = None


def _linux_start() -> float | None:
    try:
        with open("/proc/self/stat", encoding="ascii") as handle:
            fields = handle.read().rpartition(")")[2].split()
        ticks = int(fields[19])  # field 22, starttime: clock ticks after boot
        since_boot = time.clock_gettime(time.CLOCK_BOOTTIME)
        return time.time() - (since_boot - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def _fsync(path: Path, flags: int) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _error(path: Path, err: OSError, what: str) -> InputError:
    return InputError(
        _("{what} {path!r}: cannot write the file: {error}").format(
            what=what, path=str(path), error=err.strerror or err
        )
    )


__all__ = ["process_started", "prune_partials", "write_text", "write_with"]
