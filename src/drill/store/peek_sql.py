"""The statements the read-only peek runs: ``next_card``'s, written out as drill's queue compiles them for
SQLite (stdlib ``sqlite3``) and for PostgreSQL (psycopg), and the digest that proves it (stdlib only).

A plan (drill.store.peek) records the digest of each statement the queue compiled with the store's own
dialect; the peek runs a statement below only when its digest is that one. tests/store/test_store_peek.py
checks the two spellings against SQLAlchemy's compiler for several pack lists and sections.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

RUNTIME = ("now", "day")  # the parameters given when the statements run: a datetime, a study day number
DATETIME_TYPE = "UTCDateTime"
DAY_TYPE = "Integer"
DUE_COLUMN = 4  # the due time's place in the due statements' rows
SQLITE, POSTGRES = "sqlite", "postgresql"

_DUE_COLUMNS = (
    "cards.content_id, cards.pack, cards.section, card_states.state, card_states.due, card_states.reps, "
    "card_states.lapses"
)


class Runtime(str):
    """The marker of a parameter given when the statement runs (``<now:UTCDateTime>``, ``<day:Integer>``)."""


def marker(name: str, type_name: str = DATETIME_TYPE) -> Runtime:
    return Runtime(f"<{name}:{type_name}>")


class _Writer:
    """One statement's parameters in one dialect: SQLite's ``?`` (a list, in order) or psycopg's named
    ``%(name)s::TYPE`` (a dict, named as SQLAlchemy names its binds)."""

    def __init__(self, dialect: str) -> None:
        self.named = dialect == POSTGRES
        self.params: list | dict = {} if self.named else []
        self.false = "false" if self.named else "0"

    def param(self, name: str, value: Any, pg_type: str) -> str:
        if self.named:
            self.params[name] = value
            return f"%({name})s::{pg_type}"
        self.params.append(value)
        return "?"

    def limit_one(self) -> str:
        if self.named:
            return " LIMIT " + self.param("param_1", 1, "INTEGER")
        self.params.extend((1, 0))
        return " LIMIT ? OFFSET ?"


_TIMESTAMP = "TIMESTAMP WITH TIME ZONE"


def _studied(w: _Writer, user_id: int, packs: Sequence[str], section: str | None, due: bool) -> str:
    """queue._studied: the user's unsuspended, unburied rows in scope; ``due``: due <= now, else due IS NULL."""
    user = w.param("user_id_1", user_id, "INTEGER")
    rows = (
        "card_states.due <= " + w.param("now", marker("now"), _TIMESTAMP)
        if due
        else "card_states.due IS NULL"
    )
    buried = w.param("now", marker("now"), _TIMESTAMP)
    state_packs = ", ".join(w.param(f"card_pack_1_{i}", pack, "VARCHAR") for i, pack in enumerate(packs, 1))
    in_packs = ", ".join(w.param(f"pack_1_{i}", pack, "VARCHAR") for i, pack in enumerate(packs, 1))
    sql = (
        f"FROM card_states JOIN cards ON cards.id = card_states.card_id WHERE card_states.user_id = {user} AND "
        f"card_states.suspended = {w.false} AND {rows} AND (card_states.buried_until IS NULL OR "
        f"card_states.buried_until <= {buried}) AND card_states.card_pack IN ({state_packs}) AND "
        f"cards.retired = {w.false} AND cards.pack IN ({in_packs})"
    )
    if section is not None:
        sql += " AND cards.section = " + w.param("section_1", section, "VARCHAR")
    return sql


def statements(
    user_id: int, packs: Sequence[str], section: str | None, dialect: str = SQLITE
) -> dict[str, tuple[str, list | dict]]:
    """next_card's statements for this user, packs and section in ``dialect``: {name: (SQL, parameters)},
    the runtime datetimes as markers (``<now:UTCDateTime>``)."""
    out: dict[str, tuple[str, list | dict]] = {}
    w = _Writer(dialect)
    w = _Writer(dialect)
    day = w.param("day", marker("day", DAY_TYPE), "INTEGER")
    totals = f"study_day_totals.user_id = users.id AND study_day_totals.study_day = {day}"
    day = w.param("day", marker("day", DAY_TYPE), "INTEGER")
    extras = f"study_day_extras.user_id = users.id AND study_day_extras.study_day = {day}"
    out["day"] = (
        "SELECT study_day_totals.reviews, study_day_totals.new_grades, study_day_totals.review_grades, "
        "study_day_extras.extra_new, study_day_extras.extra_reviews FROM users "
        f"LEFT OUTER JOIN study_day_totals ON {totals} LEFT OUTER JOIN study_day_extras ON {extras} "
        "WHERE users.id = " + w.param("id_1", user_id, "INTEGER"),
        w.params,
    )
    for name, only_learning in (("due", False), ("due_no_reviews", True)):
        w = _Writer(dialect)
        sql = f"SELECT {_DUE_COLUMNS} " + _studied(w, user_id, packs, section, due=True)
        if only_learning:
            sql += " AND card_states.state != 'review'"
        out[name] = (sql + " ORDER BY card_states.due" + w.limit_one(), w.params)
    w = _Writer(dialect)
    sql = "SELECT cards.content_id, cards.pack, cards.section " + _studied(
        w, user_id, packs, section, due=False
    )
    sql += " ORDER BY card_states.card_pack, card_states.card_position, card_states.card_id"
    out["new"] = (sql + w.limit_one(), w.params)
    return out


def digest(sql: str, params: Sequence[Any] | dict[str, Any]) -> str:
    """A statement's identity: its SQL (whitespace runs as one space) and its parameters."""
    text = json.dumps([" ".join(sql.split()), params], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def compile_statement(stmt: Any, dialect: Any) -> tuple[str, list | dict]:
    """SQL text and parameters as the driver gets them (SQLAlchemy; the store's side), runtime datetimes as
    markers: a list for SQLite's positional ``?``, a dict for psycopg's named parameters."""
    compiled = stmt.compile(dialect=dialect)
    runtime = [name for name in RUNTIME if name in compiled.binds]
    expanded = compiled.construct_expanded_state({name: None for name in runtime})  # IN (...) rendered

    def value(key: str) -> Any:
        bind = compiled.binds.get(key)
        if key in runtime:
            return f"<{key}:{type(bind.type).__name__}>"
        raw = expanded.parameters[key]
        processor = bind.type.dialect_impl(dialect).bind_processor(dialect) if bind is not None else None
        return processor(raw) if processor is not None else raw

    if expanded.positiontup is None:
        return expanded.statement, {key: value(key) for key in expanded.parameters}
    return expanded.statement, [value(key) for key in expanded.positiontup]
