"""The CSV export for spreadsheets (issue 13 §4): a section key that sorts and parses right, a UTF-8 byte order
mark for Excel (--excel), and the coding section on the code tasks' cards (issue 14), each recomputed here."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.report.csvout import BOM, COLUMNS, to_csv
from drill.report.sections import sortable
from tests.report.report_history import compute_report


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text.removeprefix(BOM), newline="")))


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ("7.2", "7.02"),
        ("7.10", "7.10"),
        ("7.1", "7.01"),
        ("7.2.1", "7.02.01"),
        ("12", "12"),
        ("附录", "附录"),
    ],
)
def test_the_section_key(section, key):
    assert sortable(section) == key


def test_section_keys_sort_and_parse_in_the_chapters_order():
    sections = [f"7.{i}" for i in range(1, 26)]
    keys = [sortable(s) for s in sections]
    natural = sorted(sections, key=lambda s: [int(p) for p in s.split(".")])
    # As text and as numbers (what pandas or Excel makes of the column), the keys keep the chapter's order...
    assert sorted(keys) == keys == [sortable(s) for s in natural]
    assert sorted(keys, key=float) == keys
    # ... and 7.10 is not 7.1 (the section column itself reads as the same number for both).
    assert len({float(k) for k in keys}) == len(keys)
    assert float("7.10") == float("7.1")


def test_the_csv_carries_the_key_and_excel_gets_a_byte_order_mark(history, library):
    from sqlalchemy import create_engine

    engine = create_engine(history.url)
    data = compute_report(engine, library, user="alice")
    engine.dispose()
    plain, excel = to_csv(data), to_csv(data, excel=True)
    assert not plain.startswith(BOM) and excel == BOM + plain
    assert excel.encode("utf-8")[:3] == b"\xef\xbb\xbf"
    body = rows(plain)
    assert tuple(body[0]) == COLUMNS
    for row in body:
        section = row["section"].removeprefix("'")
        if section.replace(".", "").isdigit():
            assert row["section_key"] == ".".join(
                [section.split(".")[0], *(p.zfill(2) for p in section.split(".")[1:])]
            )


def test_excel_through_the_cli(history, tmp_path):
    target = tmp_path / "cards.csv"
    result = CliRunner().invoke(
        cli, ["report", "--db", history.url, "--user", "alice", "--excel", "-o", str(target)]
    )
    assert result.exit_code == 0, result.output
    assert target.read_bytes()[:3] == b"\xef\xbb\xbf"
    assert rows(target.read_text(encoding="utf-8"))[0]["id"]
    bad = CliRunner().invoke(cli, ["report", "--db", history.url, "--user", "alice", "--excel", "-f", "md"])
    assert bad.exit_code == 2 and "--excel is for the CSV report" in bad.stderr


NOW = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
RUNS = [  # task, all passed, mistakes, elapsed_ms, writing_ms
    ("softmax", False, ["softmax/no-max-subtraction"], 400, 60_000),
    ("softmax", True, [], 380, 30_000),
    ("attention", False, ["attention/scale-by-dk", "attention/fully-masked-nan"], 500, 120_000),
    ("attention", False, ["attention/scale-by-dk"], 450, None),
]


def test_code_cards_carry_their_tasks_figures(tmp_path):
    from drill.report.figures import compute
    from drill.store import open_store

    with open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice") as store:
        store.tz = UTC
        store.sync_content([("drill-code", f"code-{t}", "7.13") for t in ("softmax", "attention", "rope")])
        for i, (task, ok, mistakes, elapsed, writing) in enumerate(RUNS):
            store.record_code_attempt(
                task,
                "def f(): ...\n",
                NOW - timedelta(hours=i),
                seed=1,
                backend="numpy",
                passed=5 if ok else 2,
                total=5,
                all_passed=ok,
                mistakes=mistakes,
                results={},
                elapsed_ms=elapsed,
                writing_ms=writing,
            )
        data = compute(store, now=NOW, tz=UTC)
    by_id = {r["id"]: r for r in rows(to_csv(data))}
    for task in ("softmax", "attention"):
        runs = [r for r in RUNS if r[0] == task]
        mistakes: dict[str, int] = {}
        for r in runs:
            for m in set(r[2]):
                mistakes[m] = mistakes.get(m, 0) + 1
        row = by_id[f"code-{task}"]
        assert int(row["code_runs"]) == len(runs)
        assert row["code_passed"] == str(int(any(r[1] for r in runs)))
        assert float(row["code_seconds"]) == pytest.approx(sum(r[3] + (r[4] or 0) for r in runs) / 1000)
        assert row["code_mistakes"] == ";".join(sorted(mistakes, key=lambda m: (-mistakes[m], m)))
    untried = by_id["code-rope"]
    assert [untried[c] for c in ("code_runs", "code_passed", "code_seconds", "code_mistakes")] == [
        "",
        "",
        "",
        "",
    ]


def test_pandas_reads_the_key_in_order(history, library):
    pd = pytest.importorskip("pandas")
    from sqlalchemy import create_engine

    engine = create_engine(history.url)
    data = compute_report(engine, library, user="alice")
    engine.dispose()
    frame = pd.read_csv(io.StringIO(to_csv(data, excel=True)), encoding="utf-8-sig")
    numeric = frame[frame["section_key"].astype(str).str.fullmatch(r"\d+\.\d+")]
    ordered = numeric.sort_values("section_key")["section"].astype(str).tolist()
    # pandas made 7.10 the number 7.1 in `section`; the key still sorts 7.9 before 7.10 and keeps them apart
    expected = sorted(
        {s for s in (c.section for c in data.cards) if s.replace(".", "").isdigit()},
        key=lambda s: [int(p) for p in s.split(".")],
    )
    assert list(dict.fromkeys(numeric.sort_values("section_key")["section_key"].map(str))) == [
        sortable(s) for s in expected
    ]
    assert len(ordered) == len(numeric)


def test_pandas_reads_every_timestamp_column_with_one_format(history, library):
    """Every `due` has the same ISO 8601 form (UTC, to the microsecond, a whole second too), so pandas parses
    the column without a format hint; the JSON's datetimes have the same form."""
    import json
    import re

    pd = pytest.importorskip("pandas")
    from sqlalchemy import create_engine

    from drill.report.jsonout import to_json

    engine = create_engine(history.url)
    data = compute_report(engine, library, user="alice")
    engine.dispose()
    frame = pd.read_csv(io.StringIO(to_csv(data)))
    stamp = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00\Z")
    timestamps = [name for name in frame.columns if name == "due" or name.endswith("_at")]
    assert timestamps == ["due"]
    for name in timestamps:
        values = frame[name].dropna()
        assert len(values) > 10 and all(stamp.match(v) for v in values), name
        parsed = pd.to_datetime(frame[name])  # raises on mixed precisions (issue 28: 12 of 232)
        assert parsed.notna().sum() == len(values)
        assert str(parsed.dt.tz) == "UTC"
    document = json.loads(to_json(data))
    found = re.findall(r'"(\d{4}-\d{2}-\d{2}T[^"]*)"', json.dumps(document))
    assert found and all(stamp.match(v) for v in found), [v for v in found if not stamp.match(v)][:3]


def test_whole_second_due_times_keep_their_microseconds():
    from datetime import UTC, datetime

    from drill.report.card_columns import _iso, iso_utc

    whole = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
    assert iso_utc(whole) == "2026-05-01T08:00:00.000000+00:00"
    assert _iso(["2026-05-01 08:00:00", None, "2026-05-01 08:00:00.250000"]) == [
        "2026-05-01T08:00:00.000000+00:00",
        None,
        "2026-05-01T08:00:00.250000+00:00",
    ]
    assert _iso([whole, None]) == ["2026-05-01T08:00:00.000000+00:00", None]


def test_cohort_is_refused_for_csv_in_one_line(history, tmp_path):
    result = CliRunner().invoke(
        cli, ["report", "--db", history.url, "--user", "alice", "--cohort", "-o", str(tmp_path / "c.csv")]
    )
    assert result.exit_code == 2 and "--cohort" in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "c.csv").exists()
