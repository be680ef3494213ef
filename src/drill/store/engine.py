"""Engines for the progress database: URL resolution, SQLite settings, and errors a user can act on.

SQLite: WAL (set once, it persists in the file), synchronous=FULL, a busy timeout, foreign keys on, and
``BEGIN IMMEDIATE`` for write transactions. pysqlite's own transaction handling is switched off
(``isolation_level = None``) so that SQLAlchemy's "begin" event emits the BEGIN itself — a deferred
transaction that later writes fails at once with "database is locked" under contention, an IMMEDIATE one
waits for the busy timeout instead. Reads use a plain (deferred) BEGIN.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

from sqlalchemy import Connection, Engine, create_engine, event, exc
from sqlalchemy.engine import URL, make_url

from drill.errors import StoreError

BUSY_TIMEOUT_MS = 30_000
WRITE = {"drill_write": True}  # execution option: this connection's transaction will write


def resolve_url(url: str | None) -> str:
    """The URL to use: the argument, else $DRILL_DB_URL, else the default SQLite file (its folder made)."""
    url = url or os.environ.get("DRILL_DB_URL") or None
    if url:
        return url
    from drill.paths import default_db_path

    path = default_db_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # e.g. DRILL_DATA_DIR names a file
        raise StoreError(
            f"cannot create the data folder {path.parent} for the progress database: {err.strerror or err}"
        ) from None
    # URL.create quotes the path: "sqlite:///" + a path with '?' or '%' in a folder name would be misread.
    return URL.create("sqlite", database=str(path)).render_as_string(hide_password=False)


def masked(url: str) -> str:
    """``url`` with its password (``scheme://user:PASSWORD@host``) shown as ``***``, for a URL sqlalchemy
    cannot parse too: no message ever prints a password."""
    import re

    return re.sub(r"(://[^/@:?#]*:)[^/?#]*@", r"\1***@", url)


def parse_url(url: str):
    """``sqlalchemy.engine.make_url``, with a StoreError naming the text (password masked) for something that
    is no URL."""
    try:
        return make_url(url)
    except exc.ArgumentError:
        url = masked(url)
        raise StoreError(
            f"--db {url!r} is not a database URL (e.g. sqlite:///path/to/drill.sqlite3 or "
            f"postgresql+psycopg://user@host/db)"
        ) from None
    except ValueError:  # e.g. a port that is not a number (sqlalchemy's int() of it)
        url = masked(url)
        raise StoreError(
            f"--db {url!r} is not a database URL: its port must be a number (e.g. "
            f"postgresql+psycopg://user@host:5432/db)"
        ) from None


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL (also for ``file:...?uri=true`` forms); None otherwise."""
    parsed = parse_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        database = unquote(database[len("file:") :].split("?", 1)[0])  # SQLite URIs are percent-encoded
        if not database or database == ":memory:" or "mode=memory" in url:
            return None
    return Path(database)


def is_readonly_url(url: str) -> bool:
    parsed = parse_url(url)
    return parsed.get_backend_name() == "sqlite" and "mode=ro" in (parsed.database or "") + str(parsed.query)


def display_url(url: str) -> str:
    return parse_url(url).render_as_string(hide_password=True)


def make_engine(url: str, *, poolclass=None) -> Engine:
    """An engine configured for drill (SQLite pragmas and BEGIN IMMEDIATE, or a plain server engine)."""
    parsed = parse_url(url)
    kwargs: dict = {}
    if poolclass is not None:
        kwargs["poolclass"] = poolclass
    if parsed.get_backend_name() == "sqlite":
        connect_args = {"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
        if (parsed.database or "").startswith("file:"):
            connect_args["uri"] = True
        try:
            engine = create_engine(url, connect_args=connect_args, **kwargs)
        except exc.ArgumentError as err:
            raise StoreError(f"--db {url!r}: {err}") from None
        _configure_sqlite(engine)
        return engine
    try:
        return create_engine(url, pool_pre_ping=True, **kwargs)
    except exc.NoSuchModuleError:
        raise StoreError(
            f"--db {display_url(url)}: unknown kind of database {parsed.drivername!r} "
            f"(drill uses sqlite:///PATH or postgresql+psycopg://…)"
        ) from None
    except (exc.ArgumentError, ImportError) as err:
        raise StoreError(f"--db {display_url(url)}: cannot use this database: {err}") from None


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        # Take transaction control away from pysqlite; SQLAlchemy's "begin" event emits BEGIN below.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute("PRAGMA synchronous = FULL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get("drill_write"):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


# ------------------------------------------------------------------------------------------------ errors

_CORRUPT = ("file is not a database", "malformed", "database disk image", "not a database")
_FULL = ("database or disk is full", "disk is full", "file too large")
_READONLY = ("readonly database", "read-only", "attempt to write a readonly", "read only")
_LOCKED = ("database is locked", "database table is locked")


def corrupt_message(where: str) -> str:
    return (
        f"the progress database {where} is corrupt; run `drill restore` to restore the latest backup "
        f"(or `drill restore FILE`; the damaged file is kept aside)"
    )


def describe(err: BaseException, where: str) -> StoreError | None:
    """A StoreError for a database failure the user can act on, or None for a programming error."""
    text = str(getattr(err, "orig", None) or err).lower()
    if any(key in text for key in _CORRUPT):
        return StoreError(corrupt_message(where))
    if (
        any(key in text for key in _FULL)
        or _errno(err) in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
        or ("disk i/o error" in text or "unable to get the page" in text)
        and _disk_full(where)
    ):
        return StoreError(full_message(where))
    if any(key in text for key in _READONLY):
        return StoreError(f"the progress database {where} is read-only: progress cannot be saved")
    if any(key in text for key in _LOCKED):
        return StoreError(
            f"the progress database {where} stayed locked by another program for "
            f"{BUSY_TIMEOUT_MS // 1000} s; nothing was saved by this action, try again"
        )
    if "disk i/o error" in text:
        lost_wal = lost_wal_message(where)
        if lost_wal:
            return StoreError(lost_wal)
        return StoreError(
            f"disk I/O error on {where} (is the disk full or failing?); nothing was saved by this action"
        )
    if "unable to open database" in text:
        return StoreError(f"cannot open the progress database {where} (check the path and permissions)")
    if isinstance(err, exc.OperationalError) and not isinstance(err, exc.ProgrammingError):
        first = str(getattr(err, "orig", err)).strip().splitlines()[0] if str(err).strip() else "unknown"
        return StoreError(f"the progress database {where} cannot be used: {first}")
    return None


def full_message(where: str) -> str:
    return (
        f"the disk holding {where} is full: nothing was saved by this action; free some space and try again"
    )


def _disk_full(where: str) -> bool:
    """Whether the filesystem holding the database file ``where`` has (almost) no room left: SQLite then
    reports "disk I/O error" when it cannot grow the -wal or -shm, which is no lost write-ahead log."""
    try:
        folder = Path(where).parent
        info = os.statvfs(folder if str(folder) else ".")
    except (OSError, ValueError):
        return False
    return info.f_bavail * info.f_frsize < 1024 * 1024


def lost_wal_message(where: str) -> str | None:
    """The message for a -wal deleted under a -shm that still describes it (SQLite then says only "disk I/O
    error", or quick_check "unable to get the page"), or None when that is not what happened. Only asked
    after such a failure."""
    if _disk_full(where):  # SQLite could not grow the -wal: it is not lost, the disk is full
        return full_message(where)
    db = Path(where)
    wal, shm = db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")
    try:
        # SQLite recreates an empty -wal when it opens the database: empty counts as missing.
        if not db.is_file() or not shm.exists() or (wal.exists() and wal.stat().st_size > 0):
            return None
    except (OSError, ValueError):
        return None
    return (
        f"the progress database's write-ahead log {wal} is missing but its index {shm} is still there (was the "
        f"-wal deleted while a drill had the database open?); the grades it held are gone. Close every drill "
        f"using {db}, then move {shm} away and start again, or run `drill restore` for the latest backup"
    )


def _errno(err: BaseException) -> int | None:
    orig = getattr(err, "orig", err)
    return orig.errno if isinstance(orig, OSError) else None


@contextlib.contextmanager
def translate_errors(where: str) -> Iterator[None]:
    """Turn database failures the user can act on into StoreError; let programming errors through."""
    try:
        yield
    except StoreError:
        raise
    except (
        exc.DBAPIError,
        sqlite3.Error,
        OSError,
    ) as err:  # sqlite3's own: the raw checks of opening._prepare
        described = describe(err, where)
        if described is None:
            raise
        raise described from err
