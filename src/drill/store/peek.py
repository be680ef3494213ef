"""A read-only look at the first card of a study session before SQLAlchemy is loaded (stdlib only).

`drill study` must show its first question quickly, but opening the store imports SQLAlchemy (~0.5 s on our
machines). So the store, whenever a study session opens it, saves a *plan* beside the SQLite file: the very
SQL its ``next_card`` runs, compiled by SQLAlchemy for SQLite with every fixed value bound (user, packs,
section), plus *guards* (queries with the answers they gave: the schema revision, the user's row id). The next
``drill study`` runs that plan with the stdlib ``sqlite3`` on a ``mode=ro`` connection and shows the card it
names while the real store opens; the store then chooses the card itself and the screen swaps it if the two
ever differ. Nothing here writes to the database, and correctness never depends on it: any doubt (no file,
no plan, another drill version, schema, user, packs or section, a lock, an error) gives None.

The choice between due and new cards (`choose`) is shared by ``Store.next_card`` and the peek, so the two
cannot drift apart. This module imports no SQLAlchemy at module level; `save_plan` is handed an open Store.
"""

from __future__ import annotations

import getpass
import json
import os
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

PLAN_FORMAT = 1
PLAN_SUFFIX = ".next-card.json"
FALLBACK_USER = "learner"
GUARD_REVISION = "SELECT version_num FROM alembic_version"
BUSY_TIMEOUT_S = 0.2  # a writer holding the database: don't wait, let the real store do it


def default_user() -> str:
    """The login name (``getpass.getuser()``), or "learner" when there is none (the store uses this too)."""
    try:
        name = getpass.getuser()
    except Exception:  # no login name (e.g. a container without a passwd entry)
        name = ""
    return name.strip() or FALLBACK_USER


def plan_path(db_file: str | Path) -> Path:
    return Path(str(db_file) + PLAN_SUFFIX)


# --- the choice, shared with Store.next_card ---------------------------------------------------------------


def choose(
    done_by_state: Mapping[str, int],
    config: Any,
    first_due: Callable[[bool], Sequence | None],
    first_new: Callable[[], Sequence | None],
) -> Any:
    """The card to show: due learning/relearning/review cards first (reviews only within the daily review
    limit), then a new card within the daily new limit; None when nothing is left today.

    ``done_by_state``: today's grades counted by the state before the grade; ``first_due(include_reviews)``
    returns (content_id, pack, section, state, due, reps, lapses) or None; ``first_new()`` returns
    (content_id, pack, section) or None.
    """
    from drill.srs import Phase, remaining_today
    from drill.store.types import DueCard

    new_done = done_by_state.get(Phase.NEW.value, 0)
    reviews_done = done_by_state.get(Phase.REVIEW.value, 0)
    new_left, reviews_left = remaining_today(new_done, reviews_done, config)
    row = first_due(reviews_left > 0)
    if row is not None:
        content_id, pack, section, state, due, reps, lapses = row
        return DueCard(content_id, pack, section, Phase(state), due, reps, lapses)
    if new_left <= 0:
        return None
    row = first_new()
    if row is None:
        return None
    content_id, pack, section = row[:3]
    return DueCard(content_id, pack, section, Phase.NEW, None, 0, 0)


# --- values as SQLAlchemy's SQLite DateTime stores them ----------------------------------------------------


def sqlite_timestamp(value: datetime) -> str:
    """An aware datetime as stored by the store's UTCDateTime on SQLite (UTC, naive, microseconds)."""
    return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")


def sqlite_utc(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


# --- writing the plan (store side: called with an open Store, SQLAlchemy already loaded) -------------------


def save_plan(store: Any, section: str | None) -> Path | None:
    """Save the plan for ``store``'s next_card(section) beside its SQLite file; None when there is nothing
    to save (not SQLite, read-only) or it cannot be written (never an error: the plan is only a shortcut)."""
    if not getattr(store, "_is_sqlite", False) or store.readonly or store.packs is None:
        return None
    try:
        path = plan_path(store.where)
        plan = build_plan(store, section)
        old = _read_json(path)
        if old is not None and old.get("header") == plan["header"]:
            sections = dict(old.get("sections", {}))
            sections.update(plan["sections"])
            plan["sections"] = sections
            if old == plan:
                return path
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(plan, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
        return path
    except Exception:  # noqa: BLE001 - an unwritable folder, an odd statement: no plan, same correctness
        return None


def build_plan(store: Any, section: str | None) -> dict:
    from sqlalchemy import select

    from drill import __version__
    from drill.store.api import users_t

    dialect = store.engine.dialect
    user_guard = _compile(select(users_t.c.id).where(users_t.c.name == store.user), dialect, ())
    guards = []
    with store.engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        for sql, params in ((GUARD_REVISION, []), (user_guard["sql"], user_guard["params"])):
            rows = [list(row) for row in raw.execute(sql, params).fetchall()]
            guards.append({"sql": sql, "params": params, "rows": rows})
        conn.rollback()
    queries = {
        "done": _compile(store._done_query(), dialect, ("start", "end")),
        "due": _compile(store._first_due_stmt(section, True), dialect, ("now",)),
        "due_no_reviews": _compile(store._first_due_stmt(section, False), dialect, ("now",)),
        "new": _compile(store._first_new_stmt(section), dialect, ("now",)),
    }
    header = {
        "format": PLAN_FORMAT,
        "drill": __version__,
        "user": store.user,
        "packs": list(store.packs),
        "guards": guards,
    }
    return {"header": header, "sections": {_section_key(section): queries}}


def _compile(stmt: Any, dialect: Any, runtime: tuple[str, ...]) -> dict:
    """SQL text and positional parameters for the SQLite driver; ``runtime`` names the datetime parameters
    given at run time. Refuses (ValueError) anything the peek could not reproduce without SQLAlchemy."""
    from drill.store.models import UTCDateTime

    compiled = stmt.compile(dialect=dialect)
    probe = datetime(2000, 1, 1, tzinfo=UTC)
    expanded = compiled.construct_expanded_state({name: probe for name in runtime})  # IN (...) rendered
    processors = {
        key: bind.type.dialect_impl(dialect).bind_processor(dialect) for key, bind in compiled.binds.items()
    }
    for name in runtime:
        if not isinstance(compiled.binds[name].type, UTCDateTime):
            raise ValueError(f"runtime parameter {name} is not a UTCDateTime")
    params: list[Any] = []
    slots: list[list[Any]] = []
    for i, key in enumerate(expanded.positiontup):
        if key in runtime:
            slots.append([i, key])
            params.append(None)
            continue
        value = expanded.parameters[key]
        processor = processors.get(key)
        params.append(processor(value) if processor is not None else value)
    datetimes = []
    for i, column in enumerate(stmt.selected_columns):
        if isinstance(column.type, UTCDateTime):
            datetimes.append(i)
        elif column.type.dialect_impl(dialect).result_processor(dialect, None) is not None:
            raise ValueError(f"result column {column} needs a SQLAlchemy result processor")
    json.dumps(params)  # only plain values
    return {"sql": expanded.statement, "params": params, "slots": slots, "datetimes": datetimes}


# --- reading it (the fast path) ----------------------------------------------------------------------------


def peek_next_card(
    now: datetime,
    *,
    packs: Sequence[str],
    section: str | None = None,
    user: str | None = None,
    db_url: str | None = None,
    config: Any = None,
) -> Any:
    """What ``Store.next_card(now, section)`` would return for the default SQLite store, read without
    SQLAlchemy and without writing; None when that can't be told for sure (then open the store)."""
    if db_url or os.environ.get("DRILL_DB_URL"):
        return None  # only the default database: any other URL needs SQLAlchemy to be understood
    try:
        from drill.paths import default_db_path

        db_file = default_db_path()
        plan = _read_json(plan_path(db_file))
        if plan is None or not db_file.is_file():
            return None
        from drill import __version__

        header = plan.get("header", {})
        wanted = {
            "format": PLAN_FORMAT,
            "drill": __version__,
            "user": (user or default_user()).strip(),
            "packs": sorted(packs),
        }
        if any(header.get(key) != value for key, value in wanted.items()):
            return None
        queries = plan.get("sections", {}).get(_section_key(section))
        if queries is None:
            return None
        if config is None:
            from drill.srs import load_config

            config = load_config()
        return _run(db_file, header["guards"], queries, now, config)
    except Exception:  # noqa: BLE001 - a damaged plan, a locked or odd database, a bad config: no peek
        return None


def _run(db_file: Path, guards: list, queries: dict, now: datetime, config: Any) -> Any:
    from drill.srs import day_bounds

    uri = "file:" + quote(str(db_file.resolve())) + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("BEGIN")  # one snapshot for every query (a writer may commit in between)
        for guard in guards:
            rows = [list(row) for row in conn.execute(guard["sql"], guard["params"]).fetchall()]
            if rows != guard["rows"]:
                return None
        start, end = day_bounds(now, config.day_starts_at, None)

        def fetch(name: str, values: dict[str, datetime]) -> list[tuple]:
            query = queries[name]
            params = list(query["params"])
            for index, key in query["slots"]:
                params[index] = sqlite_timestamp(values[key])
            rows = conn.execute(query["sql"], params).fetchall()
            if not query["datetimes"]:
                return rows
            out = []
            for row in rows:
                row = list(row)
                for i in query["datetimes"]:
                    row[i] = sqlite_utc(row[i])
                out.append(tuple(row))
            return out

        def first(name: str) -> tuple | None:
            rows = fetch(name, {"now": now})
            return rows[0] if rows else None

        done = {state: n for state, n in fetch("done", {"start": start, "end": end})}
        return choose(
            done,
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
