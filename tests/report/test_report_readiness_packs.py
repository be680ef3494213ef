"""The report's readiness (per skill, and for the interview day set with `drill plan`) is over the packs the
content loads, as `drill plan`'s is (issue 27 §2/§3): another pack in the same database — as many cards again,
sharing the library's content ids, every one a review card — changes neither figure, and the report reads the
memory states of no card outside the loaded packs (every statement that reads card_states with the readiness
columns (the plan's read, store/plans.card_states), re-run through sqlite3, returns at most the loaded pack's cards)."""

from __future__ import annotations

import json
import sqlite3

from drill.content import load_content
from tests.packs import add_other_pack, db_file, grade_first_cards, in_days, run, run_recording_selects


def report_json(path) -> tuple[dict, list[int]]:
    """`drill report --format json`: (its JSON, the rows each SELECT of the readiness columns returns when run
    again through sqlite3)."""
    result, seen = run_recording_selects(
        ("report", "--format", "json"),
        keep=lambda text: "card_states.step" in text and "card_states.lapses" in text,
    )
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
    user_id = grade_first_cards(library, [9000] * 12)
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
