"""Every file drill writes for ``-o FILE`` / ``--anki FILE``: whole or not at all.

The content goes to a temporary file in the same directory (so the final step is a rename on one filesystem),
is flushed and fsynced, and then renamed over the target in one step; the directory is fsynced so the rename
itself survives a crash. A kill, a full disk or any write error before the rename leaves the target exactly as
it was (the old report, or no file) and removes the temporary file; nothing ever holds half a report.
The new file gets the old one's permission bits, or the usual ``0666`` less the umask for a new one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from drill.errors import InputError
from drill.i18n import _

CHUNK = 1 << 20


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
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".partial")
    except OSError as err:
        raise _error(path, err, what) from None
    tmp = Path(name)
    try:
        try:
            os.fchmod(fd, _mode_for(path))
            fill(fd, tmp)
        finally:
            os.close(fd)
        _fsync(tmp, os.O_RDONLY)  # the file by name: a library may have replaced the one made here
        os.replace(tmp, path)
    except BaseException as err:
        with contextlib.suppress(OSError):  # a read-only or full disk must not raise again while cleaning up
            tmp.unlink()
        if isinstance(err, OSError):
            raise _error(path, err, what) from None
        raise
    with contextlib.suppress(OSError):  # the rename on disk too (best effort: some filesystems refuse it)
        _fsync(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))


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


__all__ = ["write_text", "write_with"]
