"""The report's interview section (drill plan) in every format, its figures recomputed with py-fsrs."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import fsrs.scheduler
import jsonschema
import pytest
from fsrs import Scheduler

from drill.report.csvout import to_csv
from drill.report.figures import compute
from drill.report.html import to_html
from drill.report.jsonout import schema, to_json
from drill.report.markdown import to_markdown
from drill.srs import DEFAULT_CONFIG
from drill.srs.days import day_start
from drill.store import open_store

NOW = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
INTERVIEW = date(2026, 11, 22)
CARDS = [("pack-a", f"c{i:02d}", f"7.{i % 4 + 1}") for i in range(12)]


@pytest.fixture
def store(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice")
    store.tz = UTC
    store.config = replace(DEFAULT_CONFIG, enable_fuzzing=False)
    store.sync_content(CARDS)
    for i, (_, cid, _) in enumerate(CARDS[:8]):  # eight studied, four new
        store.grade(cid, 3 if i % 3 else 4, NOW - 20 * DAY)
        store.grade(cid, (2, 3, 4)[i % 3], NOW - 10 * DAY)
    yield store
    store.close()


def py_fsrs_recall(store, cid: str, moment: datetime) -> float:
    info = store.card_info(cid, NOW)
    if info.stability is None:
        return 0.0
    card = fsrs.Card(
        state=fsrs.State.Review,
        stability=info.stability,
        difficulty=info.difficulty,
        last_review=info.last_review,
        due=info.due,
    )
    return Scheduler(parameters=fsrs.scheduler.DEFAULT_PARAMETERS).get_card_retrievability(card, moment)


def test_no_plan_no_section(store):
    data = compute(store, now=NOW, tz=UTC, cards=True)
    assert data.interview is None
    assert json.loads(to_json(data))["interview"] is None
    assert "Interview day" not in to_markdown(data) and 'id="interview"' not in to_html(data)
    rows = list(csv.DictReader(io.StringIO(to_csv(data))))
    assert rows and all(row["interview_recall"] == "" for row in rows)


def test_the_interview_section_in_every_format(store):
    store.set_interview_plan(INTERVIEW, 0.9, NOW)
    at = day_start(INTERVIEW, store.config.day_starts_at, UTC)
    data = compute(store, now=NOW, tz=UTC, cards=True)
    iv = data.interview
    expected = {cid: py_fsrs_recall(store, cid, at) for _, cid, _ in CARDS}
    assert iv.interview_day == INTERVIEW and iv.target == 0.9
    assert iv.recall == pytest.approx(expected, abs=1e-12)
    assert iv.if_no_reviews == pytest.approx(sum(expected.values()) / len(CARDS))
    assert iv.days_left == 20 and len(iv.days) == 21
    assert [d.day for d in iv.days] == [INTERVIEW - timedelta(days=20 - i) for i in range(21)]
    assert sum(d.new for d in iv.days) == 4  # the four new cards, introduced before the day
    assert iv.if_followed >= 0.9
    assert {s.section: s.cards for s in iv.sections} == {"7.1": 3, "7.2": 3, "7.3": 3, "7.4": 3}
    assert [c.recall for c in iv.at_risk] == sorted(expected.values())[:10]

    document = json.loads(to_json(data))
    jsonschema.validate(document, schema())
    assert document["interview"]["interview_day"] == INTERVIEW.isoformat()
    assert document["interview"]["recall"] == pytest.approx(expected, abs=1e-12)

    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(to_csv(data)))}
    for cid, value in expected.items():
        assert float(rows[cid]["interview_recall"]) == pytest.approx(value, abs=1e-6)

    md = to_markdown(data)
    assert "## Interview day" in md and f"Interview on {INTERVIEW.isoformat()} (20 days left)" in md
    assert f"**{round(100 * iv.if_followed)}%**" in md

    html = to_html(data)
    assert 'id="interview"' in html and 'aria-label="readiness over the days to the interview"' in html
    # one dot a day, in the chart drawn for a desktop and in the one drawn for a phone
    assert html.count("<circle", html.index('id="interview"'), html.index('id="mastery"')) == 2 * 21

    from rich.console import Console

    from drill.report.terminal import render

    console = Console(width=140, record=True)
    render(data, console)
    out = console.export_text()
    assert "Interview day" in out and "20 days left" in out and "Most at risk" in out


def test_a_section_filter_keeps_only_its_cards(store):
    store.set_interview_plan(INTERVIEW, 0.9, NOW)
    iv = compute(store, now=NOW, tz=UTC, section="7.2", cards=False).interview
    assert [s.section for s in iv.sections] == ["7.2"]
    assert set(iv.recall) == {cid for _, cid, section in CARDS if section == "7.2"}
