"""Every file drill writes for ``-o FILE`` / ``--anki FILE``: whole or not at all.

The content goes to a temporary file in the same directory (so the final step is a rename on one filesystem),
is flushed and fsynced, and then renamed over the target in one step; the directory is fsynced so the rename
itself survives a crash. A kill, a full disk or any write error before the rename leaves the target exactly as
it was (the old report, or no file) and removes the temporary file; nothing ever holds half a report.
The new file gets the old one's permission bits, or the usual ``0666`` less the umask for a new one.

The path decides how (`target`): only a regular file, or a new one, is replaced atomically. ``-`` is drill's
standard output; a character or block device or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe) is written
through, never renamed over — the node is still there afterwards; a symbolic link is followed, and its
target replaced atomically (or written through, by the same rule); a path reached through ``/proc`` or
``/dev/fd`` (an open file of this process) is written through; a directory or a socket is refused.

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


ATOMIC, THROUGH = "atomic", "through"


def target(path: Path, what: str = "-o") -> tuple[str, Path]:
    """How to write ``path``: ``(ATOMIC, the regular file to replace)`` or ``(THROUGH, the node to open)``."""
    if str(path) == "-":
        return THROUGH, path
    hop, seen = path, 0
    while True:
        if str(hop).startswith(("/proc/", "/dev/fd/")):
            return THROUGH, path  # an open file of this process: only writing through reaches it
        try:
            info = os.lstat(hop)
        except FileNotFoundError:
            return ATOMIC, hop  # a new file (a dangling link's target is created where it points)
        except OSError as err:
            raise _error(path, err, what) from None
        if not stat.S_ISLNK(info.st_mode):
            break
        seen += 1
        if seen > 40:
            raise InputError(
                _("{what} {path!r}: too many levels of symbolic links").format(what=what, path=_shown(path))
            )
        link = Path(os.readlink(hop))
        hop = link if link.is_absolute() else hop.parent / link
    if stat.S_ISDIR(info.st_mode):
        raise InputError(
            _("{what} {path!r} is a directory: give a file name").format(what=what, path=_shown(path))
        )
    if stat.S_ISREG(info.st_mode):
        return ATOMIC, Path(os.path.realpath(hop))
    if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) or stat.S_ISFIFO(info.st_mode):
        return THROUGH, hop
    raise InputError(
        _("{what} {path!r} is a socket or another special file drill cannot write: give a file name").format(
            what=what, path=_shown(path)
        )
    )


def _shown(path: Path) -> str:
    from drill.report.sanitise import text  # control and bidi characters in a path are shown, not obeyed

    return text(str(path))


def _write_through(path: Path, fill: Callable[[int, Path], None], what: str) -> None:
    """Write into the node ``path`` names (standard output for ``-``), without replacing it. A writer that
    needs a file name writes a temporary file first, then its bytes go through."""

    fd, name = tempfile.mkstemp(prefix="drill-out-", suffix=PARTIAL_SUFFIX)
    tmp = Path(name)
    try:
        try:
            fill(fd, tmp)
        finally:
            os.close(fd)
        out = 1 if str(path) == "-" else os.open(path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            with open(tmp, "rb") as source:
                while chunk := source.read(CHUNK):
                    _write_all(out, chunk)
        finally:
            if out != 1:
                os.close(out)
    except OSError as err:
        raise _error(path, err, what) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _replace(path: Path, fill: Callable[[int, Path], None], what: str) -> None:
    how, path = target(path, what)
    if how == THROUGH:
        _write_through(path, fill, what)
        return
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
            what=what, path=_shown(path), error=err.strerror or err
        )
    )


__all__ = ["process_started", "prune_partials", "target", "write_text", "write_with"]
