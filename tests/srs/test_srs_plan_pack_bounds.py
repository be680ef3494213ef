"""`drill plan` reads the packs the library loads, not the learner's whole history (issue 27 §2): with another
pack in the same database — more cards than the library has, a longer review log than the learner's own, its
cards even sharing the library's content ids and timed ten minutes a grade — every statement `drill plan`
runs (set, `--dry-run`, and the read-only `drill plan` alone) returns at most a studied pack's worth of rows
(each re-run through sqlite3 and its rows counted), and the plan's figures are those of the studied pack alone.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from drill.content import load_content
from tests.packs import STAMP, add_other_pack, db_file, grade_first_cards, in_days, run, run_recording_selects


def rows_per_statement(path: Path, args: tuple[str, ...]) -> tuple[dict, list[tuple[int, str]]]:
    """`drill ARGS` run with every statement it sends recorded; (its JSON, [(rows the statement returns when
    run again through sqlite3, SQL)] for each SELECT)."""
    result, seen = run_recording_selects(args)
    conn = sqlite3.connect(path)
    counted = [(len(conn.execute(sql, parameters).fetchall()), sql) for sql, parameters in seen]
    for sql, parameters in seen:  # the review log is read through the studied cards, never by user alone
        plan = " | ".join(row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, parameters))
        if "review_logs" in plan:
            assert "SCAN review_logs" not in plan and "review_logs USING" in plan, plan
            assert "(user_id=?)" not in plan.split("review_logs USING", 1)[1].split("|")[0], plan
    conn.close()
    return json.loads(result.stdout), counted


def test_the_plan_reads_only_the_loaded_packs(tmp_path):
    library = load_content()
    user_id = grade_first_cards(library, [8000 + 500 * n for n in range(12)])
    day = in_days(20)
    set_result = run("plan", "--interview", day, "--yes", "--json")
    assert set_result.exit_code == 0, set_result.output
    alone_before, _ = rows_per_statement(db_file(), ("plan", "--json"))
    dry_before, _ = rows_per_statement(db_file(), ("plan", "--interview", day, "--dry-run", "--json"))

    other_logs = add_other_pack(db_file(), user_id, sorted(library.cards))
    own_cards = len(library.cards)
    assert other_logs > 2 * own_cards  # the other pack's log is longer than anything the plan should read

    for args, before in (
        (("plan", "--json"), alone_before),  # read-only: no sync, nothing written
        (("plan", "--interview", day, "--dry-run", "--json"), dry_before),
    ):
        after, counted = rows_per_statement(db_file(), args)
        assert counted, args
        for rows, sql in counted:
            assert rows <= own_cards, (args, rows, sql)
        # the plan's figures are the studied pack's: the other pack's 10-minute grades and cards left out
        assert after["skills"]["seconds_per_item"] == before["skills"]["seconds_per_item"], args
        assert after["skills"]["timings_from"] == before["skills"]["timings_from"], args
        assert [s["cards"] for s in after["sections"]] == [s["cards"] for s in before["sections"]], args
        assert after["new_cards"]["remaining"] == before["new_cards"]["remaining"], args


def test_setting_the_date_reads_and_moves_only_the_loaded_packs_cards(tmp_path):
    """`drill plan --interview D --yes`: another pack's cards, due after the day with recall on the day far
    below the target, are neither read nor brought forward; the studied pack's are."""
    library = load_content()
    user_id = grade_first_cards(library, [9000] * 12)
    add_other_pack(db_file(), user_id, sorted(library.cards))
    conn = sqlite3.connect(db_file())  # 5 of the studied pack's cards due long after the day, as the other's
    later = (datetime.now(UTC) + timedelta(days=40)).strftime(STAMP)
    conn.execute(
        "UPDATE card_states SET state = 'review', stability = 5.0, difficulty = 5.0, due = ?, last_review = ?, "
        "reps = 3 WHERE card_id IN (SELECT card_id FROM card_states WHERE card_pack != 'old' AND state != 'new' "
        "LIMIT 5)",
        (later, datetime.now(UTC).strftime(STAMP)),
    )
    conn.commit()
    conn.close()
    day = in_days(20)
    _, counted = rows_per_statement(db_file(), ("plan", "--interview", day, "--yes", "--json"))
    for rows, sql in counted:
        assert rows <= len(library.cards), (rows, sql)
    conn = sqlite3.connect(db_file())
    moved = dict(
        conn.execute(
            "SELECT card_pack, count(*) FROM card_states WHERE fsrs_due IS NOT NULL GROUP BY card_pack"
        ).fetchall()
    )
    conn.close()
    assert "old" not in moved, moved
    assert sum(moved.values()) == 5, moved  # the studied pack's five
