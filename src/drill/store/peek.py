"""A read-only look at the first card of a study session before SQLAlchemy is loaded.

`drill study` must show its first question quickly, but opening the store imports SQLAlchemy (~0.5 s on our
machines). So whenever a study session opens a store, the store saves a *plan* (drill.store.locate: beside a
SQLite file, or in the user cache directory for a PostgreSQL server); the next ``drill study`` reads it, runs
``next_card``'s queries in a read-only transaction — the stdlib ``sqlite3`` on a ``mode=ro`` connection, or
psycopg alone for ``postgresql+psycopg`` URLs — and shows the card they name while the real store opens. The
store then chooses the card itself and the screen swaps it if the two ever differ. Nothing here writes to the
database, and correctness never depends on it: any doubt (no file, no plan, another drill version, database,
schema, user, packs or section, a lock, an unreachable server, an error) gives None.

The plan holds no SQL. The peek runs only the statements of drill.store.peek_sql, and only when each one is
exactly (text and parameters) the statement drill's queue compiles for that database: the plan records a
digest of each compiled statement, and the peek compares it with the digest of its own. A plan someone
edited can at most make the peek say "don't know" (or preview a card that the store then replaces); it
cannot make it run SQL.

The choice between due and new cards is `drill.store.queue.choose`, shared with ``Store.next_card``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from drill.store.jsonfile import read_json, write_json
from drill.store.locate import conninfo, database_file, given_url, plan_path, plan_target, postgres_url
from drill.store.locate import sqlite_path as sqlite_path
from drill.store.opening import default_user
from drill.store.peek_sql import (
    DAY_TYPE,
    DUE_COLUMN,
    POSTGRES,
    SQLITE,
    Runtime,
    compile_statement,
    digest,
    marker,
    statements,
)
from drill.store.queue import choose, of_day
from drill.store.review_days import day_number
from drill.store.times import as_utc, sqlite_timestamp, sqlite_utc

__all__ = ["database_file", "digest", "peek_next_card", "plan_path", "save_plan", "sqlite_path", "statements"]

PLAN_FORMAT = 2
BUSY_TIMEOUT_S = 0.2  # a writer holding the database: don't wait, let the real store do it
SERVER_TIMEOUT_MS = 500  # PostgreSQL: a lock or a slow server: don't wait either
CONNECT_TIMEOUT_S = 2  # libpq's shortest

# --- writing the plan (store side: called with an open Store, SQLAlchemy already loaded) -------------------


def save_plan(store: Any, section: str | None) -> Path | None:
    """Save the plan for ``store``'s next_card(section) (beside its SQLite file, or in the cache directory for
    PostgreSQL); None when there is nothing to save (another kind of database, read-only) or it cannot be
    written (never an error: the plan is only a shortcut)."""
    target = getattr(store, "plan_target", None)
    if target is None or store.readonly or store.packs is None:
        return None
    try:
        path, identity = target
        plan = build_plan(store, section, identity)
        old = read_json(path)
        if old is not None and old.get("header") == plan["header"]:
            plan["sections"] = {**old.get("sections", {}), **plan["sections"]}
            if old == plan:
                return path
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json(path, plan)
        return path
    except Exception:
        return None


def build_plan(store: Any, section: str | None, identity: str) -> dict:
    from sqlalchemy import text

    from drill import __version__
    from drill.store.queue import next_card_statements

    with store.engine.connect() as conn:
        revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        conn.rollback()
    dialect = store.engine.dialect
    digests = {
        name: digest(*compile_statement(stmt, dialect))
        for name, stmt in next_card_statements(store, section).items()
    }
    header = {
        "format": PLAN_FORMAT,
        "drill": __version__,
        "database": identity,
        "revision": revision,
        "user": store.user,
        "packs": list(store.packs),
    }
    return {"header": header, "sections": {_section_key(section): digests}}


# --- reading it (the fast path) ----------------------------------------------------------------------------


def peek_next_card(
    now: datetime,
    *,
    packs: Sequence[str],
    section: str | None = None,
    user: str | None = None,
    db_url: str | None = None,
    config: Any = None,
    content: Sequence[tuple[str, str, str]] | None = None,
    kinds: Mapping[str, str] | None = None,
) -> Any:
    """What ``Store.next_card(now, section)`` would return for the store ``open_store(db_url, user)``
    opens, read without SQLAlchemy and without writing; None when that can't be told for sure.

    ``content``: the (pack, content id, section) items the session will sync, in content order. With them,
    a SQLite database that does not exist yet (a first-ever start) is answered too: see
    `first_of_new_database` (``kinds``: each card's kind, for the new-card order)."""
    try:
        url = given_url(db_url)
        db_file = database_file(url)
        if db_file is not None and not db_file.exists():
            if content is None:
                return None
            return first_of_new_database(content, section, config or _config(), kinds)
        if db_file is not None and not db_file.is_file():
            return None
        target = plan_target(url)
        if target is None:
            return None
        path, identity = target
        plan = read_json(path)
        if plan is None:
            return None
        from drill import __version__

        header = plan.get("header", {})
        wanted = {
            "format": PLAN_FORMAT,
            "drill": __version__,
            "database": identity,
            "user": (user or default_user()).strip(),
            "packs": sorted(packs),
        }
        if any(header.get(key) != value for key, value in wanted.items()):
            return None
        digests = plan.get("sections", {}).get(_section_key(section))
        if not isinstance(digests, dict):
            return None
        if db_file is not None:
            connection = _SqliteReader(db_file)
        else:
            connection = _ServerReader(postgres_url(url))
        with connection as reader:
            return _run(reader, header, digests, section, now, config or _config())
    except Exception:
        return None


def _config() -> Any:
    from drill.srs import load_config

    return load_config()


def first_of_new_database(
    content: Sequence[tuple[str, str, str]],
    section: str | None,
    config: Any,
    kinds: Mapping[str, str] | None = None,
) -> Any:
    """``next_card`` of a database that `open_store` is about to create and sync ``content`` into: no grades
    and every card new, so the first card in the new-card order (pack, then its place in the pack, as
    ``sync_content`` numbers them: drill.srs.mix.new_card_places, ``kinds`` its cards' kinds) within the daily
    new limit."""
    from drill.srs.mix import new_card_places

    places = new_card_places(content, kinds, config)
    first: tuple[str, int, str, str] | None = None
    for pack, content_id, card_section in content:
        position = places[(pack, content_id)]
        if section is None or card_section == section:
            candidate = (pack, position, content_id, card_section)
            first = candidate if first is None else min(first, candidate)
    row = None if first is None else (first[2], first[0], first[3])
    return choose({}, config, lambda include_reviews: None, lambda: row)


class _SqliteReader:
    """A read-only (``mode=ro``) stdlib connection holding one snapshot for every query."""

    dialect = SQLITE

    def __init__(self, db_file: Path) -> None:
        self.db_file = db_file

    def __enter__(self) -> _SqliteReader:
        uri = "file:" + quote(str(self.db_file.resolve())) + "?mode=ro"
        self.conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        self.conn.execute("BEGIN")  # one snapshot for every query (a writer may commit in between)
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.close()

    def fetch(self, sql: str, params: Sequence | dict) -> list[tuple]:
        return self.conn.execute(sql, params).fetchall()

    def user_id(self, name: str) -> list[tuple]:
        return self.fetch("SELECT users.id FROM users WHERE users.name = ?", (name,))

    timestamp = staticmethod(sqlite_timestamp)
    read_time = staticmethod(sqlite_utc)


class _ServerReader:
    """psycopg alone (no SQLAlchemy): a read-only REPEATABLE READ transaction, short timeouts."""

    dialect = POSTGRES

    def __init__(self, url: str) -> None:
        self.url = url

    def __enter__(self) -> _ServerReader:
        import psycopg

        self.conn = psycopg.connect(conninfo(self.url), connect_timeout=CONNECT_TIMEOUT_S)
        self.conn.read_only = True
        self.conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ  # one snapshot for every query
        self.conn.execute(f"SET LOCAL statement_timeout = {SERVER_TIMEOUT_MS}")
        self.conn.execute(f"SET LOCAL lock_timeout = {SERVER_TIMEOUT_MS}")
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.close()  # rolls back: nothing was written

    def fetch(self, sql: str, params: Sequence | dict) -> list[tuple]:
        return self.conn.execute(sql, params).fetchall()

    def user_id(self, name: str) -> list[tuple]:
        return self.fetch("SELECT users.id FROM users WHERE users.name = %s", (name,))

    @staticmethod
    def timestamp(value: datetime) -> datetime:
        return value

    read_time = staticmethod(as_utc)


def _run(reader: Any, header: dict, digests: dict, section: str | None, now: datetime, config: Any) -> Any:
    revision = reader.fetch("SELECT version_num FROM alembic_version", ())
    users = reader.user_id(header["user"])
    if revision != [(header["revision"],)] or len(users) != 1:
        return None
    mine = statements(users[0][0], header["packs"], section, reader.dialect)
    if any(digests.get(name) != digest(sql, params) for name, (sql, params) in mine.items()):
        return None  # not the statements this drill's queue runs: don't guess
    values: dict[str, Any] = {
        marker("now"): now,
        marker("day", DAY_TYPE): day_number(now, config.day_starts_at, None),
    }

    def given(param: Any) -> Any:
        if not isinstance(param, Runtime):
            return param
        value = values[param]
        return reader.timestamp(value) if isinstance(value, datetime) else value

    def fetch(name: str) -> list[tuple]:
        sql, params = mine[name]
        if isinstance(params, dict):
            return reader.fetch(sql, {key: given(p) for key, p in params.items()})
        return reader.fetch(sql, [given(p) for p in params])

    def first(name: str, until: datetime = now) -> tuple | None:
        values[marker("now")] = until
        rows = fetch(name)
        if not rows:
            return None
        row = rows[0]
        if name != "new":
            row = (*row[:DUE_COLUMN], reader.read_time(row[DUE_COLUMN]), *row[DUE_COLUMN + 1 :])
        return row

    done, extra = of_day(next(iter(fetch("day")), None))
    return choose(
        done,
        config,
        lambda include_reviews: first("due" if include_reviews else "due_no_reviews"),
        lambda: first("new"),
        lambda ahead: first("due_no_reviews", now + ahead),
        extra,
    )


def _section_key(section: str | None) -> str:
    return "*" if section is None else "=" + section
