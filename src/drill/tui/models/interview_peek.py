"""The interview's first question before the store opens (no SQLAlchemy, no numpy): the store's own order, from
what the last interview left beside the database.

`drill interview` orders its questions from the learner's card states (`store_order`: due first, then weakest
now; ties in the session's seeded order). Opening the store imports SQLAlchemy (~0.5 s), so when an interview
closes its store it saves those inputs beside the SQLite file (`save_order`: the cards' states, whether an
interview day is set), stamped with the database files as they are once the store is
closed. The next `drill interview` reads them with the standard library only (`peek_order`) and, when nothing
has written to the database since (the same files, byte for byte as far as their size, inode and modification
time tell), runs the same `question_order` on them: the order the store would give. Any doubt — no file, another
drill version, database, user or packs, a write since (a study session, another drill), an interview day (whose
order the store's plan decides), a PostgreSQL server, an error — gives None, and the store decides as before.
Correctness never depends on it: the screen takes the store's order once it opens (interview.py).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drill.store.locate import database_file, given_url
from drill.store.opening import default_user

if TYPE_CHECKING:
    from drill.content.models import Card
    from drill.store.api import Store

FORMAT = 1
SUFFIX = ".interview-order.json"
_STAMPED = ("", "-wal", "-journal")  # the files a write changes (not -shm: readers touch it too)


def order_file(db_url: str | None) -> tuple[Path, Path] | None:
    """(the saved order's file, the SQLite database file) for ``db_url``; None for a server."""
    db_file = database_file(given_url(db_url))
    if db_file is None:
        return None
    return Path(str(db_file) + SUFFIX), db_file


def stamp(db_file: Path) -> list[list[Any]]:
    """What a write to the database changes: each of its files' inode, size and modification time."""
    out: list[list[Any]] = []
    for suffix in _STAMPED:
        try:
            st = os.stat(str(db_file) + suffix)
        except FileNotFoundError:
            out.append([suffix])
        else:
            out.append([suffix, st.st_ino, st.st_size, st.st_mtime_ns])
    return out


def _header(db_file: Path, user: str, packs: Sequence[str]) -> dict:
    from drill import __version__

    return {
        "format": FORMAT,
        "drill": __version__,
        "database": str(db_file.resolve()),
        "user": user,
        "packs": sorted(packs),
    }


def order_inputs(store: Store, now: datetime) -> dict | None:
    """What `question_order` reads from ``store`` (an open, writable store), to save once it is closed."""
    if store.readonly or store.packs is None:
        return None
    states = {
        content_id: [
            st.state.value,
            st.step,
            st.stability,
            st.difficulty,
            st.due.isoformat(),
            None if st.last_review is None else st.last_review.isoformat(),
            st.reps,
            st.lapses,
        ]
        for content_id, _section, st in store.plan_cards()
    }
    return {
        "user": store.user,
        "packs": list(store.packs),
        "interview_day": store.interview_plan(now) is not None,
        "states": states,
    }


def save_order(inputs: dict | None, db_url: str | None) -> Path | None:
    """Write ``inputs`` (`order_inputs`) beside the database, stamped as the database is now (call it after
    the store is closed); None when there is nothing to save or it cannot be written (never an error)."""
    where = order_file(db_url)
    if inputs is None or where is None:
        return None
    path, db_file = where
    try:
        data = {
            "header": _header(db_file, inputs["user"], inputs["packs"]),
            "stamp": stamp(db_file),
            **{key: inputs[key] for key in ("interview_day", "states")},
        }
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
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
        data = json.loads(path.read_text(encoding="utf-8"))
        wanted = _header(db_file, (user or default_user()).strip(), packs)
        if data.get("header") != wanted or data.get("stamp") != stamp(db_file) or data.get("interview_day"):
            return None
        from drill.srs import load_config
        from drill.srs.state import CardState
        from drill.tui.models.interview import question_order

        # drill.toml's config: the learner's own FSRS weights (`drill optimize`) are not needed, as the order
        # ranks cards by recall, and one forgetting curve for every card ranks them alike whatever its decay
        config = load_config()
        states = {}
        for content_id, (state, step, stability, difficulty, due, last, reps, lapses) in data[
            "states"
        ].items():
            states[content_id] = CardState(
                state,
                step,
                stability,
                difficulty,
                datetime.fromisoformat(due),
                None if last is None else datetime.fromisoformat(last),
                reps,
                lapses,
            )
        return question_order(cards, states, now, config, seed=seed)
    except Exception:
        return None
