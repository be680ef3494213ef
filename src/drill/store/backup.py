"""Backups of a SQLite progress database, made with SQLite's online backup API.

A file copy of a live WAL database is not a backup (the last commits may sit in the -wal file, and a copy
taken mid-write is torn); the backup API reads a consistent snapshot through SQLite. Backups go to
``drill.paths.backup_dir()`` as ``<db-stem>-<UTC time>.sqlite3``; the newest ``KEEP`` of each database are kept.

A backup knows whose it is: it is a copy of the database, so it holds the database's id (``database_identity``,
migration 0010), and drill adds the path it was made from (``drill_backup_source``). Backups are matched to a
database by that id (by the path for a database not yet given one, or one that is gone), never by the file's
name: two ``drill.sqlite3`` in two folders share a backup folder without touching each other's backups.

PostgreSQL databases are backed up with the server's tools (pg_dump); drill says so.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from drill import claims
from drill.errors import StoreError

KEEP = 10
_STAMP = "%Y%m%dT%H%M%S%fZ"


def backup_folder() -> Path:
    from drill.paths import backup_dir

    return backup_dir()


_NAME = re.compile(r".+-(\d{8}T\d{12}Z)(?:-[a-z0-9-]+)?\.sqlite3$")
_SIDE = ("-journal", "-wal", "-shm")
SOURCE_TABLE = "drill_backup_source"


@dataclass(frozen=True)
class Owner:
    """Whose database a file is: its stored id (None before migration 0010) and, for a backup, the path of
    the database it was made from (None for a backup made before drill recorded it)."""

    database_id: str | None
    source: str | None = None

    def owns(self, backup: Owner) -> bool:
        """Whether ``backup`` (a backup's Owner) is a backup of the database this Owner describes."""
        if self.database_id is not None and backup.database_id is not None:
            return backup.database_id == self.database_id
        return backup.source is not None and backup.source == self.source


def _canonical(path: Path) -> str:
    return os.path.realpath(os.path.abspath(path))


def owner_of(path: Path) -> Owner | None:
    """The identity stored in the SQLite file at ``path`` (a database or a backup); None when it cannot be
    read as one. The database's own path is its ``source``."""
    try:
        conn = sqlite3.connect(_readonly_uri(path), uri=True)
    except sqlite3.Error:
        return None
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        found = None
        if "database_identity" in tables:
            found = conn.execute("SELECT id FROM database_identity ORDER BY created_at LIMIT 1").fetchone()
        source = None
        if SOURCE_TABLE in tables:
            row = conn.execute(f"SELECT path FROM {SOURCE_TABLE} LIMIT 1").fetchone()
            source = row[0] if row else None
        return Owner(found[0] if found else None, source)
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def database_owner(db_path: Path) -> Owner:
    """Who the database at ``db_path`` is: its stored id (if it exists and has one) and its path."""
    here = _canonical(db_path)
    found = owner_of(db_path) if Path(db_path).is_file() else None
    return Owner(found.database_id if found else None, here)


def list_backups(db_path: Path, folder: Path | None = None) -> list[Path]:
    """Backups of this database, oldest first: matched by the database's stored id (by the path it was made
    from for a database that is gone or has no id yet), whatever the files are called."""
    folder = folder or backup_folder()
    if not folder.is_dir():
        return []
    me = database_owner(db_path)
    found = []
    for path in folder.iterdir():
        match = _NAME.fullmatch(path.name)
        if match is None or not path.is_file():
            continue
        owner = owner_of(path)
        if owner is not None and me.owns(owner):
            found.append((match.group(1), path.name, path))
    return [p for *_, p in sorted(found)]


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
    claim = None
    try:
        claim = claims.claim(
            partial, 0o644
        )  # held while the copy is written: prune() leaves a claimed .partial alone
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
                with dest:  # whose backup this is (the id came with the copy): drill.store.backup.Owner
                    dest.execute(f"DROP TABLE IF EXISTS {SOURCE_TABLE}")
                    dest.execute(f"CREATE TABLE {SOURCE_TABLE} (path TEXT NOT NULL, made_at TEXT NOT NULL)")
                    dest.execute(
                        f"INSERT INTO {SOURCE_TABLE} VALUES (?, ?)",
                        (_canonical(db_path), datetime.now(UTC).isoformat()),
                    )
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
    finally:
        claims.release(claim)
    prune(db_path, folder=folder, keep=keep)
    return target


def prune(db_path: Path, *, folder: Path | None = None, keep: int = KEEP) -> list[Path]:
    """Keep this database's newest ``keep`` backups (another database's are never touched); also remove
    ``.partial`` copies that no living drill is writing (left by a backup that was killed), whoever's they
    were, and the side files SQLite left beside them (``.partial-journal``, ``-wal``, ``-shm``)."""
    backups = list_backups(db_path, folder)
    removed = backups[: max(0, len(backups) - keep)]
    for path in removed:
        path.unlink(missing_ok=True)
    folder = folder or backup_folder()
    names = sorted(folder.iterdir()) if folder.is_dir() else []
    for path in names:
        if path.name.endswith(".partial") and not claims.held(path, missing=True):  # its writer died
            path.unlink(missing_ok=True)
            removed.append(path)
    for path in names:
        base, side = _side_of(path.name)
        if side and base.endswith(".partial") and not (folder / base).exists() and path.exists():
            path.unlink(missing_ok=True)  # its .partial is gone: no writer has it open
            removed.append(path)
    return removed


def _side_of(name: str) -> tuple[str, str]:
    for side in _SIDE:
        if name.endswith(side):
            return name.removesuffix(side), side
    return name, ""


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
    """Replace the database at ``db_path`` with ``backup`` (default: the latest backup), atomically.

    At every instant ``db_path`` holds either the old database or the restored one: the copy is built beside
    it (``<name>.restoring``, backup API, ``quick_check``, fsync) and renamed over it in one step. The old file
    is kept as ``<name>.replaced-<time>`` (a hard link made before the rename, or a copy), never deleted.
    Refused while another drill has the database open for writing (``drill.store.locking``).
    Returns (backup used, where the old file went).
    """
    from drill.store.locking import DatabaseLock

    db_path = Path(db_path)
    if db_path.is_symlink():  # restore into the file the link names; the link stays a link
        db_path = Path(_canonical(db_path))
    if backup is None:
        backups = list_backups(db_path, folder)
        if not backups:
            raise StoreError(f"there is no backup of {db_path} in {folder or backup_folder()}")
        backup = backups[-1]
    backup = Path(backup)
    if backup.absolute().resolve() == db_path.absolute().resolve():
        raise StoreError(
            f"{backup} is the progress database itself; name one of its backups (drill restore --list)"
        )
    check_file(backup)
    _refuse_another_database(db_path, backup)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with DatabaseLock(db_path) as lock:
        try:
            lock.exclusive(wait_s=0.0)
        except StoreError:
            raise StoreError(lock.busy_message() + "; nothing was restored") from None
        partial = db_path.with_name(db_path.name + ".restoring")
        try:
            _copy_into(backup, partial, journal="WAL")
        except (sqlite3.DatabaseError, OSError, StoreError) as err:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
            raise StoreError(
                f"cannot restore {backup} to {db_path}: {err}; the current database is unchanged"
            ) from None
        aside = None
        try:
            if db_path.exists():
                try:
                    _settle(db_path)
                except sqlite3.DatabaseError:
                    pass  # a damaged database: keep it aside as it is, with its -wal and -shm
                aside = db_path.with_name(f"{db_path.name}.replaced-{datetime.now(UTC).strftime(_STAMP)}")
                _keep_aside(db_path, aside)
                for extra in ("-wal", "-shm"):
                    side = db_path.with_name(db_path.name + extra)
                    if side.exists():
                        with contextlib.suppress(OSError):
                            os.link(side, aside.with_name(aside.name + extra))
            for extra in ("-wal", "-shm"):  # none are left after _settle; a stray one must not meet the copy
                side = db_path.with_name(db_path.name + extra)
                if side.exists():
                    os.replace(
                        side, side.with_name(f"{side.name}.orphan-{datetime.now(UTC).strftime(_STAMP)}")
                    )
            os.replace(partial, db_path)  # the one step that switches databases
            _fsync_dir(db_path.parent)
        except (sqlite3.DatabaseError, OSError) as err:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
            raise StoreError(
                f"cannot restore {backup} to {db_path}: {err}; the current database is unchanged"
            ) from None
    return backup, aside


def _refuse_another_database(db_path: Path, backup: Path) -> None:
    """Restoring over an existing database takes one of ITS backups: another database's (or one whose owner
    cannot be told) would put that database's data in this one."""
    if not db_path.is_file():
        return  # nothing here to mix with: the chosen backup becomes the database
    me, theirs = database_owner(db_path), owner_of(backup)
    if (
        theirs is not None
        and (theirs.database_id is not None or theirs.source is not None)
        and me.owns(theirs)
    ):
        return
    made = f" (made from {theirs.source})" if theirs is not None and theirs.source else ""
    raise StoreError(
        f"{backup} is not a backup of {db_path}{made}: restoring it would put another database's data in it; "
        f"nothing was restored (`drill restore --list` shows this database's backups; move {db_path} away "
        f"first to restore that file as a new database)"
    )


def _copy_into(source_path: Path, target: Path, *, journal: str) -> None:
    """A checked, fsynced copy of ``source_path`` at ``target`` (replaced if present), via the backup API."""
    target.unlink(missing_ok=True)
    for extra in ("-wal", "-shm", "-journal"):
        target.with_name(target.name + extra).unlink(missing_ok=True)
    source = sqlite3.connect(_readonly_uri(source_path), uri=True)
    try:
        dest = sqlite3.connect(target)
        try:
            source.backup(dest)
            check = dest.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"the copy failed its check ({check})")
            with dest:  # a database is not a backup: only backups say where they were made from
                dest.execute(f"DROP TABLE IF EXISTS {SOURCE_TABLE}")
            dest.execute(f"PRAGMA journal_mode = {journal}")
        finally:
            dest.close()  # the last connection: checkpoints and removes the copy's -wal
    finally:
        source.close()
    _fsync(target)


def _settle(db_path: Path) -> None:
    """Fold the live database's -wal into the file itself and leave it in rollback-journal mode, so the one
    file is the whole database (no -wal of the old database can be replayed into the restored one). Runs
    under the exclusive lock: no drill has the database open."""
    conn = sqlite3.connect(db_path, timeout=30)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode = DELETE")
    finally:
        conn.close()
    _fsync(db_path)


def _keep_aside(db_path: Path, aside: Path) -> None:
    """A second name for the old database (a hard link), or a copy where links are not supported."""
    try:
        os.link(db_path, aside)
    except OSError:
        import shutil

        shutil.copyfile(db_path, aside)  # no writer (exclusive lock), no -wal after _settle: a plain copy
        _fsync(aside)
    _fsync_dir(aside.parent)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
