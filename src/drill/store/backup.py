"""Backups of a SQLite progress database, made with SQLite's online backup API.

A file copy of a live WAL database is not a backup (the last commits may sit in the -wal file, and a copy
taken mid-write is torn); the backup API reads a consistent snapshot through SQLite. Backups go to
``drill.paths.backup_dir()`` as ``<db-stem>-<UTC time>.sqlite3``; the newest ``KEEP`` are kept.

PostgreSQL databases are backed up with the server's tools (pg_dump); drill says so.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from drill.errors import StoreError

KEEP = 10
_STAMP = "%Y%m%dT%H%M%S%fZ"


def backup_folder() -> Path:
    from drill.paths import backup_dir

    return backup_dir()


def _pattern(db_path: Path) -> re.Pattern:
    return re.compile(re.escape(db_path.stem) + r"-(\d{8}T\d{12}Z)(?:-[a-z0-9-]+)?\.sqlite3$")


def list_backups(db_path: Path, folder: Path | None = None) -> list[Path]:
    """Backups of this database, oldest first."""
    folder = folder or backup_folder()
    if not folder.is_dir():
        return []
    pattern = _pattern(db_path)
    found = [(m.group(1), p) for p in folder.iterdir() if (m := pattern.fullmatch(p.name))]
    return [p for _, p in sorted(found)]


def _readonly_uri(path: Path) -> str:
    """A read-only SQLite URI for ``path``. Percent-encoded: a '#', '?' or '%' in a folder name would otherwise
    end the path early, and SQLite would quietly create (and back up) an empty database elsewhere."""
    return Path(path).absolute().as_uri() + "?mode=ro"


def _where(path: Path) -> str:
    return str(path)


def make_backup(
    db_path: Path, *, reason: str | None = None, folder: Path | None = None, keep: int = KEEP
) -> Path:
    """Copy the database at ``db_path`` with the backup API to a new timestamped file; prune old ones."""
    if not db_path.exists():
        raise StoreError(f"there is no progress database at {db_path} to back up")
    folder = folder or backup_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StoreError(f"cannot create the backup folder {folder}: {err.strerror or err}") from None
    stamp = datetime.now(UTC).strftime(_STAMP)
    suffix = f"-{reason}" if reason else ""
    target = folder / f"{db_path.stem}-{stamp}{suffix}.sqlite3"
    partial = target.with_name(target.name + ".partial")
    try:
        source = sqlite3.connect(_readonly_uri(db_path), uri=True, timeout=30)
        try:
            dest = sqlite3.connect(partial)
            try:
                source.backup(dest)
                check = dest.execute("PRAGMA quick_check").fetchone()[0]
                if check != "ok":
                    raise StoreError(
                        f"the backup of {db_path} failed its check ({check}); the database may be damaged"
                    )
                # The copy is a plain rollback-journal file: one file, safe to move around.
                dest.execute("PRAGMA journal_mode = DELETE")
            finally:
                dest.close()
        finally:
            source.close()
        _fsync(partial)
        os.replace(partial, target)
    except sqlite3.DatabaseError as err:
        partial.unlink(missing_ok=True)
        text = str(err).lower()
        if "not a database" in text or "malformed" in text:
            from drill.store.engine import corrupt_message

            raise StoreError(corrupt_message(_where(db_path))) from None
        if "full" in text:
            raise StoreError(f"no space left to write a backup in {folder}") from None
        raise StoreError(f"cannot back up {db_path}: {err}") from None
    except OSError as err:
        partial.unlink(missing_ok=True)
        raise StoreError(f"cannot write a backup in {folder}: {err.strerror or err}") from None
    prune(db_path, folder=folder, keep=keep)
    return target


def prune(db_path: Path, *, folder: Path | None = None, keep: int = KEEP) -> list[Path]:
    backups = list_backups(db_path, folder)
    removed = backups[: max(0, len(backups) - keep)]
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def _fsync(path: Path) -> None:
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def check_file(path: Path) -> None:
    """StoreError unless ``path`` is a readable, intact SQLite database made by drill."""
    if not path.is_file():
        raise StoreError(f"no backup file at {path}")
    try:
        conn = sqlite3.connect(_readonly_uri(path), uri=True)
        try:
            result = conn.execute("PRAGMA quick_check").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as err:
        raise StoreError(f"{path} is not a usable SQLite database ({err})") from None
    if result != "ok":
        raise StoreError(f"{path} is damaged ({result}); choose another backup")
    if "alembic_version" not in tables or "review_logs" not in tables:
        raise StoreError(f"{path} is not a drill progress database")


def restore(
    db_path: Path, backup: Path | None = None, *, folder: Path | None = None
) -> tuple[Path, Path | None]:
    """Replace the database at ``db_path`` with ``backup`` (default: the latest backup).

    The current file (with its -wal and -shm) is moved aside as ``<name>.replaced-<time>``, never deleted;
    the backup is copied in with the backup API. Returns (backup used, where the old file went).
    Close every drill using the database first.
    """
    if backup is None:
        backups = list_backups(db_path, folder)
        if not backups:
            raise StoreError(f"there is no backup of {db_path} in {folder or backup_folder()}")
        backup = backups[-1]
    backup = Path(backup)
    if backup.absolute().resolve() == Path(db_path).absolute().resolve():
        raise StoreError(
            f"{backup} is the progress database itself; name one of its backups (drill restore --list)"
        )
    check_file(backup)
    stamp = datetime.now(UTC).strftime(_STAMP)
    aside = None
    moves: list[tuple[Path, Path]] = []  # (from, to), undone if the copy fails
    if db_path.exists():
        aside = db_path.with_name(f"{db_path.name}.replaced-{stamp}")
        os.replace(db_path, aside)
        moves.append((db_path, aside))
    for extra in ("-wal", "-shm"):
        side = db_path.with_name(db_path.name + extra)
        if side.exists():
            # A stale -wal next to the restored file would be replayed into it: move it with its database.
            moved = (
                aside.with_name(aside.name + extra)
                if aside
                else side.with_name(f"{side.name}.orphan-{stamp}")
            )
            os.replace(side, moved)
            moves.append((side, moved))
    db_path.parent.mkdir(parents=True, exist_ok=True)
    partial = db_path.with_name(db_path.name + ".restoring")
    try:
        source = sqlite3.connect(_readonly_uri(backup), uri=True)
        try:
            dest = sqlite3.connect(partial)
            try:
                source.backup(dest)
                dest.execute("PRAGMA journal_mode = WAL")
            finally:
                dest.close()
        finally:
            source.close()
        _fsync(partial)
        os.replace(partial, db_path)
    except (sqlite3.DatabaseError, OSError) as err:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        for original, moved in reversed(moves):  # put the current database back where it was
            os.replace(moved, original)
        raise StoreError(
            f"cannot restore {backup} to {db_path}: {err}; the current database is unchanged"
        ) from None
    return backup, aside
