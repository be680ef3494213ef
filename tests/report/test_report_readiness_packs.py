"""The report's readiness (per skill, and for the interview day set with `drill plan`) is over the packs the
content loads, as `drill plan`'s is (issue 27 §2/§3): another pack in the same database — as many cards again,
sharing the library's content ids, every one a review card — changes neither figure, and the report reads the
memory states of no card outside the loaded packs (every statement that reads card_states with the readiness
columns (the plan's read, store/plans.card_states), re-run through sqlite3, returns at most the loaded pack's cards)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from sqlalchemy import event
from sqlalchemy.engine import Engine

from drill.content import load_content
from drill.store import open_store
from tests.srs.test_srs_plan_pack_bounds import add_other_pack, db_file, in_days, run


def report_json(path) -> tuple[dict, list[int]]:
    import json

    seen: list[tuple[str, object]] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        text = " ".join(statement.split())
        if text.upper().startswith("SELECT") and "card_states.step" in text and "card_states.lapses" in text:
            seen.append((statement, parameters))

    event.listen(Engine, "before_cursor_execute", record)
    try:
        result = run("report", "--format", "json")
    finally:
        event.remove(Engine, "before_cursor_execute", record)
    assert result.exit_code == 0, result.output
    conn = sqlite3.connect(path)
    rows = [len(conn.execute(sql, parameters).fetchall()) for sql, parameters in seen]
    conn.close()
    return json.loads(result.stdout), rows


def figures(doc: dict) -> dict:
    interview = doc["interview"]
    return {
        "sections": [(s["section"], s["cards"]) for s in interview["sections"]],
        "at_risk": [c["card"] for c in interview["at_risk"]],
        "new_needed": interview["new_needed_per_day"],
        "skills": [(s["skill"], s["items"], s["never_tried"]) for s in doc["skills"]],
    }


def test_readiness_reads_only_the_loaded_packs():
    library = load_content()
    store = open_store(None, None)
    store.sync_content(library)
    start = datetime.now(UTC) - timedelta(days=3)
    for _n in range(12):
        card = store.next_card(start)
        store.grade(card.card_id, 3, start, duration_ms=9000)
    user_id = store.user_id
    store.close()
    assert run("plan", "--interview", in_days(20), "--yes").exit_code == 0
    before, _ = report_json(db_file())
    assert before["interview"] is not None and before["skills"]

    add_other_pack(db_file(), user_id, sorted(library.cards))
    after, rows = report_json(db_file())
    assert figures(after) == figures(before)
    assert rows, "the readiness read no memory states"
    assert max(rows) <= len(library.cards), rows
    # the report itself still counts the other pack's cards (its totals are the whole database's)
    assert after["totals"]["cards"] > before["totals"]["cards"]
