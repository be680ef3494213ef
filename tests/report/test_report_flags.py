"""Each card's Anki flag and mark (issue 28) in the CSV and JSON card rows, recomputed from the database."""

from __future__ import annotations

import csv
import io
import json
import shutil

from sqlalchemy import create_engine, text

from drill.report.csvout import BOM, to_csv
from drill.report.jsonout import schema, to_json
from tests.report.report_history import compute_report


def test_the_card_rows_carry_each_cards_flag_and_mark(history, library, tmp_path):
    import jsonschema

    path = tmp_path / "flags.sqlite3"
    shutil.copyfile(history.url.removeprefix("sqlite:///"), path)
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as conn:
            alice = conn.execute(text("SELECT id FROM users WHERE name = 'alice'")).scalar_one()
            states = conn.execute(
                text("SELECT card_id FROM card_states WHERE user_id = :u ORDER BY card_id LIMIT 3"),
                {"u": alice},
            ).scalars()
            for card_id, (flag, marked) in zip(states, ((1, False), (7, True), (0, True)), strict=True):
                conn.execute(
                    text("UPDATE card_states SET flag = :f, marked = :m WHERE user_id = :u AND card_id = :c"),
                    {"f": flag, "m": marked, "u": alice, "c": card_id},
                )
            # bob's flags are his: alice's report must not show them
            conn.execute(text("UPDATE card_states SET flag = 4 WHERE user_id != :u"), {"u": alice})
            expected = {
                cid: (flag, bool(marked))
                for cid, flag, marked in conn.execute(
                    text(
                        "SELECT cards.content_id, coalesce(s.flag, 0), coalesce(s.marked, 0) FROM cards "
                        "LEFT JOIN card_states s ON s.card_id = cards.id AND s.user_id = :u"
                    ),
                    {"u": alice},
                )
            }
        data = compute_report(engine, library, user="alice")
    finally:
        engine.dispose()
    assert sorted(v for v in expected.values() if v != (0, False)) == [(0, True), (1, False), (7, True)]

    document = json.loads(to_json(data))
    jsonschema.Draft202012Validator(schema()).validate(document)
    assert {c["id"]: (c["flag"], c["marked"]) for c in document["cards"]} == expected

    # The CSV lists the same cards in the same order (its id column neutralises formula-like ids: '=1+1)
    rows = list(csv.DictReader(io.StringIO(to_csv(data).removeprefix(BOM), newline="")))
    assert len(rows) == len(document["cards"]) == len(expected)
    assert [(int(r["flag"]), r["marked"]) for r in rows] == [
        (c["flag"], str(c["marked"])) for c in document["cards"]
    ]
