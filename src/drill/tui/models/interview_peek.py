"""The interview's first question before the store opens (no SQLAlchemy, no numpy): the store's own order, read
from the database with the standard library.

`drill interview` orders its questions from the learner's card states (`store_order`: due first, then weakest
now; ties in the session's seeded order). Opening the store imports SQLAlchemy (~0.5 s), so an interview that
opens the store saves beside the SQLite file what the next one must check first (`save_order_key`: this drill,
the database, its schema revision, the learner and the packs). The next `drill interview` reads it, reads the
learner's card states on a read-only ``sqlite3`` connection — what ``Store.plan_cards`` reads — and runs the
same `question_order` on them: the order the store would give (tests/tui/test_interview_peek.py holds the two
equal). Any doubt — no file, another drill version, database, schema revision, user or packs, an interview day
(whose order the store's plan decides), a PostgreSQL server, a lock, an error — gives None, and the store
decides as before. Nothing here writes to the database, and correctness never depends on it: the screen takes
the store's order once it opens (interview.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from drill.store.jsonfile import read_json, write_json
from drill.store.locate import database_file, given_url
from drill.store.opening import default_user
from drill.store.times import sqlite_utc

if TYPE_CHECKING:
    from drill.content.models import Card
    from drill.store.api import Store

SUFFIX = ".interview-peek.json"
BUSY_TIMEOUT_S = 0.2  # a writer holding the database: don't wait, let the store do it
FORMAT = 2  # 2: the key holds the digest of the store's card-states statement


def states_statement(user_id: int, packs: Sequence[str]) -> tuple[str, list]:
    """drill.store.plans.card_states_query (what ``Store.plan_cards`` reads) written out as SQLAlchemy compiles
    it for SQLite: the SQL and its ``?`` parameters. The saved key holds the digest of the store's own compiled
    statement, and the peek runs this one only when its digest is that one (drill.store.peek_sql's pattern);
    tests/tui/test_interview_peek.py checks the two spellings against the compiler."""
    return (
        "SELECT cards.pack, cards.position, cards.content_id, cards.section, card_states.state, "
        "card_states.step, card_states.stability, card_states.difficulty, card_states.due, "
        "card_states.last_review, card_states.reps, card_states.lapses FROM cards LEFT OUTER JOIN card_states "
        "ON card_states.card_id = cards.id AND card_states.user_id = ? WHERE cards.retired IS 0 AND "
        f"card_states.suspended IS NOT 1 AND cards.pack IN ({', '.join('?' * len(packs))}) "
        "ORDER BY cards.pack, cards.position, cards.id",
        [user_id, *packs],
    )


def order_file(db_url: str | None) -> tuple[Path, Path] | None:
    """(the saved key's file, the SQLite database file) for ``db_url``; None for a server."""
    db_file = database_file(given_url(db_url))
    if db_file is None:
        return None
    return Path(str(db_file) + SUFFIX), db_file


def _header(db_file: Path, user: str, packs: Sequence[str]) -> dict:
    from drill import __version__

    return {
        "format": FORMAT,
        "drill": __version__,
        "database": str(db_file.resolve()),
        "user": user,
        "packs": sorted(packs),
    }


def save_order_key(store: Store, db_url: str | None) -> Path | None:
    """Save what the next interview checks before reading ``store``'s database (an open, writable SQLite store
    whose content is synced); None when there is nothing to save or it cannot be written (never an error)."""
    where = order_file(db_url)
    if where is None or store.readonly or store.packs is None:
        return None
    path, db_file = where
    try:
        from sqlalchemy import text

        from drill.store.peek_sql import compile_statement, digest
        from drill.store.plans import card_states_query

        with store.engine.connect() as conn:
            revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
            conn.rollback()
        states = compile_statement(
            card_states_query(store.user_id, sorted(store.packs)), store.engine.dialect
        )
        data = {
            "header": _header(db_file, store.user, list(store.packs)),
            "revision": revision,
            "states": digest(*states),
        }
        if read_json(path) == data:
            return path
        write_json(path, data)
        return path
    except Exception:
        return None


def peek_order(
    cards: Sequence[Card],
    now: datetime,
    *,
    packs: Sequence[str],
    seed: int,
    user: str | None = None,
    db_url: str | None = None,
) -> list[Card] | None:
    """``store_order(cards, store, now, seed=seed)`` for the store ``open_store(db_url, user)`` would open,
    told without opening it; None when that can't be told for sure (see the module's docstring)."""
    try:
        where = order_file(db_url)
        if where is None:
            return None
        path, db_file = where
        data = read_json(path)
        name = (user or default_user()).strip()
        if data is None or data.get("header") != _header(db_file, name, packs) or not db_file.is_file():
            return None
        states = _read_states(db_file, data["revision"], data.get("states"), name, sorted(packs))
        if states is None:
            return None
        from drill.srs import load_config
        from drill.tui.models.interview import question_order

        # drill.toml's config: the learner's own FSRS weights (`drill optimize`) are not needed, as the order
        # ranks cards by recall, and one forgetting curve for every card ranks them alike whatever its decay
        return question_order(cards, states, now, load_config(), seed=seed)
    except Exception:
        return None


def _read_states(
    db_file: Path, revision: str, states_digest: Any, user: str, packs: list[str]
) -> dict[str, Any] | None:
    """content id -> CardState of the learner's cards (as ``Store.plan_cards``), in one read-only snapshot;
    None for another schema revision, an unknown learner, one with an interview day, or a card-states statement
    whose digest is not the store's (``states_digest``)."""
    from drill.srs.state import CardState, Phase
    from drill.store.peek_sql import digest

    uri = "file:" + quote(str(db_file.resolve())) + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("BEGIN")  # one snapshot for every query (a writer may commit in between)
        if conn.execute("SELECT version_num FROM alembic_version").fetchall() != [(revision,)]:
            return None
        users = conn.execute("SELECT users.id FROM users WHERE users.name = ?", (user,)).fetchall()
        if len(users) != 1:
            return None
        user_id = users[0][0]
        if conn.execute("SELECT 1 FROM interview_plans WHERE user_id = ?", (user_id,)).fetchall():
            return None
        sql, params = states_statement(user_id, packs)
        if digest(sql, params) != states_digest:
            return None
        states = {}
        for row in conn.execute(sql, params):  # pack, position, content id, section, then the state's columns
            cid, (state, step, stability, difficulty, due, last, reps, lapses) = row[2], row[4:]
            if state is None or state == Phase.NEW.value:
                continue  # new, as a card without a state
            at = sqlite_utc(due)
            if at is None:  # a studied card always has a due time: not a database to guess about
                return None
            states[cid] = CardState(
                Phase(state), step, stability, difficulty, at, sqlite_utc(last), reps, lapses
            )
        return states
    finally:
        conn.close()
