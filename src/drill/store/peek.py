"""A read-only look at the first card of a study session before SQLAlchemy is loaded (stdlib only).

`drill study` must show its first question quickly, but opening the store imports SQLAlchemy (~0.5 s on our
machines). So whenever a study session opens a SQLite store, the store saves a *plan* beside the database
file; the next ``drill study`` reads it, runs ``next_card``'s queries with the stdlib ``sqlite3`` on a
``mode=ro`` connection, and shows the card they name while the real store opens. The store then chooses the
card itself and the screen swaps it if the two ever differ. Nothing here writes to the database, and
correctness never depends on it: any doubt (no file, no plan, another drill version, database, schema,
user, packs or section, a lock, an error) gives None.

The plan holds no SQL. The peek runs only the statements written below, and only when each one is exactly
(text and parameters) the statement drill's queue compiles for SQLite: the plan records a digest of each
compiled statement, and the peek compares it with the digest of its own. A plan someone edited can at most
make the peek say "don't know" (or preview a card that the store then replaces); it cannot make it run SQL.

The choice between due and new cards is `drill.store.queue.choose`, shared with ``Store.next_card``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from drill.store.opening import default_user
from drill.store.queue import choose
from drill.store.times import sqlite_timestamp, sqlite_utc

PLAN_FORMAT = 2
PLAN_SUFFIX = ".next-card.json"
BUSY_TIMEOUT_S = 0.2  # a writer holding the database: don't wait, let the real store do it
RUNTIME = ("now", "start", "end")  # the datetime parameters given when the statements run
DATETIME_TYPE = "UTCDateTime"

# --- where the database is --------------------------------------------------------------------------------


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


def database_file(db_url: str | None = None) -> Path | None:
    """The SQLite file ``open_store(db_url)`` would use (the URL, else $DRILL_DB_URL, else the default
    database); None when that is not a SQLite file."""
    url = db_url or os.environ.get("DRILL_DB_URL") or None
    if url is None:
        from drill.paths import default_db_path

        return default_db_path()
    return sqlite_path(url)


def plan_path(db_file: str | Path) -> Path:
    return Path(str(db_file) + PLAN_SUFFIX)


# --- the statements the peek runs (next_card's, as drill's queue compiles them for SQLite) ----------------

_DONE = (
    "SELECT review_logs.state_before, count(*) AS count_1 FROM review_logs WHERE review_logs.user_id = ? "
    "AND review_logs.reviewed_at >= ? AND review_logs.reviewed_at < ? GROUP BY review_logs.state_before"
)
_DUE_COLUMNS = (
    "cards.content_id, cards.pack, cards.section, card_states.state, card_states.due, card_states.reps, "
    "card_states.lapses"
)
_STUDIED = (
    "FROM card_states JOIN cards ON cards.id = card_states.card_id WHERE card_states.user_id = ? AND "
    "card_states.suspended = 0 AND {rows} AND (card_states.buried_until IS NULL OR card_states.buried_until "
    "<= ?) AND cards.retired = 0 AND cards.pack IN ({packs}){section}"
)
DUE_COLUMN = 4  # the due time's place in the due statements' rows


class Runtime(str):
    """The marker of a datetime parameter given when the statement runs (``<now:UTCDateTime>``)."""


def _marker(name: str) -> Runtime:
    return Runtime(f"<{name}:{DATETIME_TYPE}>")


def statements(user_id: int, packs: Sequence[str], section: str | None) -> dict[str, tuple[str, list]]:
    """next_card's statements for this user, packs and section: {name: (SQL, parameters)}, the runtime
    datetimes as markers (``<now:UTCDateTime>``)."""
    now = _marker("now")
    scope = [*packs, *([] if section is None else [section])]
    studied = {
        "packs": ", ".join("?" * len(packs)),
        "section": "" if section is None else " AND cards.section = ?",
    }
    due = f"SELECT {_DUE_COLUMNS} " + _STUDIED.format(rows="card_states.due <= ?", **studied)
    new = "SELECT cards.content_id, cards.pack, cards.section " + _STUDIED.format(
        rows="card_states.due IS NULL", **studied
    )
    return {
        "done": (_DONE, [user_id, _marker("start"), _marker("end")]),
        "due": (due + " ORDER BY card_states.due LIMIT ? OFFSET ?", [user_id, now, now, *scope, 1, 0]),
        "due_no_reviews": (
            due + " AND card_states.state != 'review' ORDER BY card_states.due LIMIT ? OFFSET ?",
            [user_id, now, now, *scope, 1, 0],
        ),
        "new": (
            new + " ORDER BY card_states.card_pack, card_states.card_position, card_states.card_id "
            "LIMIT ? OFFSET ?",
            [user_id, now, *scope, 1, 0],
        ),
    }


def digest(sql: str, params: Sequence[Any]) -> str:
    """A statement's identity: its SQL (whitespace runs as one space) and its parameters."""
    text = json.dumps([" ".join(sql.split()), list(params)], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- writing the plan (store side: called with an open Store, SQLAlchemy already loaded) -------------------


def save_plan(store: Any, section: str | None) -> Path | None:
    """Save the plan for ``store``'s next_card(section) beside its SQLite file; None when there is nothing
    to save (not SQLite, read-only) or it cannot be written (never an error: the plan is only a shortcut)."""
    if not store.is_sqlite or store.readonly or store.packs is None:
        return None
    try:
        path = plan_path(store.where)
        plan = build_plan(store, section)
        old = _read_json(path)
        if old is not None and old.get("header") == plan["header"]:
            plan["sections"] = {**old.get("sections", {}), **plan["sections"]}
            if old == plan:
                return path
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(plan, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
        return path
    except Exception:  # noqa: BLE001 - an unwritable folder, an odd statement: no plan, same correctness
        return None


def build_plan(store: Any, section: str | None) -> dict:
    from sqlalchemy import text

    from drill import __version__
    from drill.store.queue import next_card_statements

    with store.engine.connect() as conn:
        revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        conn.rollback()
    dialect = store.engine.dialect
    digests = {
        name: digest(*_compile(stmt, dialect)) for name, stmt in next_card_statements(store, section).items()
    }
    header = {
        "format": PLAN_FORMAT,
        "drill": __version__,
        "database": str(Path(store.where).resolve()),
        "revision": revision,
        "user": store.user,
        "packs": list(store.packs),
    }
    return {"header": header, "sections": {_section_key(section): digests}}


def _compile(stmt: Any, dialect: Any) -> tuple[str, list]:
    """SQL text and positional parameters as the SQLite driver gets them, runtime datetimes as markers."""
    compiled = stmt.compile(dialect=dialect)
    runtime = [name for name in RUNTIME if name in compiled.binds]
    expanded = compiled.construct_expanded_state({name: None for name in runtime})  # IN (...) rendered
    params: list[Any] = []
    for key in expanded.positiontup:
        bind = compiled.binds.get(key)
        if key in runtime:
            params.append(f"<{key}:{type(bind.type).__name__}>")
            continue
        value = expanded.parameters[key]
        processor = bind.type.dialect_impl(dialect).bind_processor(dialect) if bind is not None else None
        params.append(processor(value) if processor is not None else value)
    return expanded.statement, params


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
) -> Any:
    """What ``Store.next_card(now, section)`` would return for the store ``open_store(db_url, user)``
    opens, read without SQLAlchemy and without writing; None when that can't be told for sure.

    ``content``: the (pack, content id, section) items the session will sync, in content order. With them,
    a database that does not exist yet (a first-ever start) is answered too: see `first_of_new_database`."""
    try:
        db_file = database_file(db_url)
        if db_file is None:
            return None
        if not db_file.exists():
            if content is None:
                return None
            if config is None:
                from drill.srs import load_config

                config = load_config()
            return first_of_new_database(content, section, config)
        if not db_file.is_file():
            return None
        plan = _read_json(plan_path(db_file))
        if plan is None:
            return None
        from drill import __version__

        header = plan.get("header", {})
        wanted = {
            "format": PLAN_FORMAT,
            "drill": __version__,
            "database": str(db_file.resolve()),
            "user": (user or default_user()).strip(),
            "packs": sorted(packs),
        }
        if any(header.get(key) != value for key, value in wanted.items()):
            return None
        digests = plan.get("sections", {}).get(_section_key(section))
        if not isinstance(digests, dict):
            return None
        if config is None:
            from drill.srs import load_config

            config = load_config()
        return _run(db_file, header, digests, section, now, config)
    except Exception:  # noqa: BLE001 - a damaged plan, a locked or odd database, a bad config: no peek
        return None


def first_of_new_database(content: Sequence[tuple[str, str, str]], section: str | None, config: Any) -> Any:
    """``next_card`` of a database that `open_store` is about to create and sync ``content`` into: no grades
    and every card new, so the first card in the new-card order (pack, then position in its pack, as
    ``sync_content`` numbers them) within the daily new limit."""
    positions: dict[str, int] = {}
    first: tuple[str, int, str, str] | None = None
    for pack, content_id, card_section in content:
        positions[pack] = position = positions.get(pack, -1) + 1
        if section is None or card_section == section:
            candidate = (pack, position, content_id, card_section)
            first = candidate if first is None else min(first, candidate)
    row = None if first is None else (first[2], first[0], first[3])
    return choose({}, config, lambda include_reviews: None, lambda: row)


def _run(db_file: Path, header: dict, digests: dict, section: str | None, now: datetime, config: Any) -> Any:
    from drill.srs import day_bounds

    uri = "file:" + quote(str(db_file.resolve())) + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("BEGIN")  # one snapshot for every query (a writer may commit in between)
        revision = conn.execute("SELECT version_num FROM alembic_version").fetchall()
        users = conn.execute("SELECT users.id FROM users WHERE users.name = ?", (header["user"],)).fetchall()
        if revision != [(header["revision"],)] or len(users) != 1:
            return None
        mine = statements(users[0][0], header["packs"], section)
        if any(digests.get(name) != digest(sql, params) for name, (sql, params) in mine.items()):
            return None  # not the statements this drill's queue runs: don't guess
        start, end = day_bounds(now, config.day_starts_at, None)
        values = {_marker("now"): now, _marker("start"): start, _marker("end"): end}

        def fetch(name: str) -> list[tuple]:
            sql, params = mine[name]
            return conn.execute(
                sql, [sqlite_timestamp(values[p]) if isinstance(p, Runtime) else p for p in params]
            ).fetchall()

        def first(name: str) -> tuple | None:
            rows = fetch(name)
            if not rows:
                return None
            row = rows[0]
            if name != "new":
                row = (*row[:DUE_COLUMN], sqlite_utc(row[DUE_COLUMN]), *row[DUE_COLUMN + 1 :])
            return row

        return choose(
            dict(fetch("done")),
            config,
            lambda include_reviews: first("due" if include_reviews else "due_no_reviews"),
            lambda: first("new"),
        )
    finally:
        conn.close()


def _read_json(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _section_key(section: str | None) -> str:
    return "*" if section is None else "=" + section
