"""Which database a URL names, and where its next-card plan lives (stdlib only: the peek reads these too).

The plan (drill.store.peek) of a SQLite database lives beside its file (``<db>.next-card.json``); a
PostgreSQL server has no file of ours, so its plan lives in the user cache directory, named after the URL
without its password. Only ``postgresql+psycopg`` URLs get one: the peek reads them with psycopg alone.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from urllib.parse import unquote

PLAN_SUFFIX = ".next-card.json"
POSTGRES_SCHEME = "postgresql+psycopg"


def sqlite_path(url: str) -> Path | None:
    """The database file a SQLite URL names, as ``drill.store.engine.sqlite_file`` reads it (without
    SQLAlchemy); None for any other URL, an in-memory database, or a form this reader does not know."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in ("sqlite", "sqlite+pysqlite") or not rest.startswith("/"):
        return None
    database = unquote(rest[1:].partition("?")[0])
    if database.startswith("file:"):  # a SQLite URI (uri=true): percent-encoded once more
        if "mode=memory" in url:
            return None
        database = unquote(database[len("file:") :].split("?", 1)[0])
    if not database or database == ":memory:":
        return None
    return Path(database)


def given_url(db_url: str | None = None) -> str | None:
    """The URL ``open_store(db_url)`` uses when one is given or in $DRILL_DB_URL; None for the default."""
    return db_url or os.environ.get("DRILL_DB_URL") or None


def database_file(db_url: str | None = None) -> Path | None:
    """The SQLite file ``open_store(db_url)`` would use (the URL, else $DRILL_DB_URL, else the default
    database); None when that is not a SQLite file."""
    url = given_url(db_url)
    if url is None:
        from drill.paths import default_db_path

        return default_db_path()
    return sqlite_path(url)


def plan_path(db_file: str | Path) -> Path:
    return Path(str(db_file) + PLAN_SUFFIX)


def postgres_url(url: str | None) -> str | None:
    """``url`` when it names a PostgreSQL database through psycopg (the driver the peek can use), else None."""
    if url is None or not url.startswith(POSTGRES_SCHEME + "://"):
        return None
    return url


def without_password(url: str) -> str:
    """``url`` with any password taken out of it (what a plan may record)."""
    scheme, sep, rest = url.partition("://")
    end = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=len(rest))
    userinfo, at, host = rest[:end].rpartition("@")
    if at and ":" in userinfo:
        userinfo = userinfo.split(":", 1)[0]
    return f"{scheme}{sep}{userinfo}{at}{host}{rest[end:]}"


def conninfo(url: str) -> str:
    """A ``postgresql+psycopg://`` URL as the libpq connection URI psycopg takes."""
    return "postgresql://" + url[len(POSTGRES_SCHEME + "://") :]


def plan_target(url: str | None) -> tuple[Path, str] | None:
    """(the plan's file, the database's identity recorded in it) for the database ``url`` names (None:
    the default SQLite file); None when the peek cannot read that kind of database."""
    url = given_url(url)
    db_file = database_file(url)
    if db_file is not None:
        return plan_path(db_file), str(db_file.resolve())
    server = postgres_url(url)
    if server is None:
        return None
    from drill.paths import cache_dir

    identity = without_password(server)
    name = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:32]
    return cache_dir() / f"next-card-{name}.json", identity
