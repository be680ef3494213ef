"""Readiness per skill in every report format, its figures recomputed in plain Python from the generated history
(py-fsrs for recall; the skill of each kind written here, before the code), never-tried items counted 0 and named."""

from __future__ import annotations

import json
import shutil
from datetime import date, datetime
from types import SimpleNamespace

import jsonschema
import pytest
from fsrs import Scheduler
from rich.console import Console

from drill.report.figures import compute
from drill.report.html import to_html
from drill.report.jsonout import schema, to_json
from drill.report.markdown import to_markdown
from drill.report.terminal import render
from drill.store import open_store
from tests.report import expected as ex
from tests.report.report_history import CARDS, DAY_START, NOW, RETIRED, SUSPENDED, TZ

# labels written before the code: the skill of each card kind, and a kind for each of the fixture's cards
SKILL = {"qa": "explain", "cloze": "recall", "formula": "recall", "calc": "calculate", "code": "code"}
KINDS = ["qa", "qa", "qa", "calc", "formula", "cloze", "code", "code", "qa", "calc", "cloze", "qa", "code"]
KINDS += ["formula", "code", "qa"]  # q14, q15 (never studied: a code task never tried), q16 (retired)
KIND = {cid: KINDS[i] for i, (cid, _s, _q) in enumerate(CARDS)}
NAMES = {"recall": "Recall", "explain": "Explain", "calculate": "Calculate", "code": "Code"}


@pytest.fixture(scope="module")
def kinds_library():
    """The fixture's cards as a library that knows each card's kind (as drill.content's cards do)."""
    return SimpleNamespace(
        cards={cid: SimpleNamespace(kind=KIND[cid], question=q) for cid, _s, q in CARDS if cid != RETIRED}
    )


@pytest.fixture
def store(history, tmp_path):
    """A copy of the generated history's database, opened as alice's store (writable: a test sets a date)."""
    path = tmp_path / "copy.sqlite3"
    shutil.copy(history.url.removeprefix("sqlite:///"), path)
    store = open_store(f"sqlite:///{path}", "alice")
    store.tz = TZ
    yield store
    store.close()


def _report(store, library, **kwargs):
    return compute(store, library=library, now=NOW, tz=TZ, day_start_hour=DAY_START, cards=True, **kwargs)


def _recall(history, cid: str, moment: datetime) -> float:
    """py-fsrs's recall of alice's card at ``moment``; 0 for a card never tried."""
    st = history.states.get(("alice", cid))
    if st is None or st.last_review is None:
        return 0.0
    return Scheduler().get_card_retrievability(st.fsrs_card, moment)


def _expected(history, moment: datetime, section: str | None = None) -> dict[str, tuple[int, int, float]]:
    """skill -> (items, never tried, mean recall at ``moment``) over alice's studied cards: retired and
    suspended cards left out, a never-tried card 0."""
    per: dict[str, list[tuple[bool, float]]] = {s: [] for s in ("recall", "explain", "calculate", "code")}
    for cid, sec, _q in CARDS:
        if cid == RETIRED or SUSPENDED["alice"] == cid or not ex.in_section(sec, section):
            continue
        never = ("alice", cid) not in history.states
        per[SKILL[KIND[cid]]].append((never, _recall(history, cid, moment)))
    return {
        s: (len(v), sum(1 for n, _ in v if n), sum(r for _, r in v) / len(v) if v else 0.0)
        for s, v in per.items()
    }


def test_no_date_readiness_now_per_skill_recomputed(history, store, kinds_library):
    data = _report(store, kinds_library)
    document = json.loads(to_json(data))
    jsonschema.validate(document, schema())
    assert document["schema_version"] == "1.6"
    want = _expected(history, NOW)
    assert [row["skill"] for row in document["skills"]] == ["recall", "explain", "calculate", "code"]
    for row in document["skills"]:
        items, never, now = want[row["skill"]]
        assert (row["items"], row["never_tried"]) == (items, never)
        assert row["now"] == pytest.approx(now, abs=1e-9)
        assert row["if_followed"] is None and row["if_stopped"] is None  # no interview date
    assert want["code"][:2] == (4, 1)  # the fixture has a code task never tried (q15), and it counts 0

    console = Console(width=160, record=True)
    render(data, console)
    texts = {
        "terminal": console.export_text(),
        "markdown": to_markdown(data),
        "html": to_html(data),
    }
    for name, text in texts.items():
        assert "Readiness by skill" in text, name
        assert "1 of 4 code tasks never tried" in text, name
        assert "on the day if followed" not in text, name  # no date: only the figure now, and it says so
        assert "ready now" in text, name
        for skill, (_items, _never, now) in want.items():
            assert NAMES[skill] in text and f"{round(100 * now)}%" in text, (name, skill)


def test_a_section_keeps_its_cards(history, store, kinds_library):
    document = json.loads(to_json(_report(store, kinds_library, section="7.13")))
    want = _expected(history, NOW, "7.13")
    assert {r["skill"]: (r["items"], r["never_tried"]) for r in document["skills"]} == {
        s: v[:2] for s, v in want.items()
    }
    for row in document["skills"]:
        assert row["now"] == pytest.approx(want[row["skill"]][2], abs=1e-9)


def test_with_an_interview_date_on_the_day_too(history, store, kinds_library):
    interview = date(2026, 12, 13)
    store.set_interview_plan(interview, 0.9, NOW)
    data = _report(store, kinds_library)
    document = json.loads(to_json(data))
    jsonschema.validate(document, schema())
    # the interview day starts at the day start (04:00 in the store's zone)
    day_start = datetime(interview.year, interview.month, interview.day, DAY_START, tzinfo=TZ)
    stopped = _expected(history, day_start)
    now = _expected(history, NOW)
    for row in document["skills"]:
        skill = row["skill"]
        assert row["now"] == pytest.approx(now[skill][2], abs=1e-9)
        assert row["if_stopped"] == pytest.approx(stopped[skill][2], abs=1e-9)
        # followed: every planned review done and recalled, so never below stopping now
        assert row["if_stopped"] - 1e-9 <= row["if_followed"] <= 1
    # the never-tried code task is introduced by the plan (14 days, one new card): on the day it counts
    code = next(r for r in document["skills"] if r["skill"] == "code")
    assert code["if_followed"] > code["if_stopped"]

    # the interview's new cards a day is the plan's figure, and the overall "if followed" is the per-skill
    # rows' figure over all the cards (one plan behind both)
    iv = document["interview"]
    rows = document["skills"]
    overall = sum(r["if_followed"] * r["items"] for r in rows) / sum(r["items"] for r in rows)
    assert iv["if_followed"] == pytest.approx(overall, abs=1e-9)
    assert iv["if_no_reviews"] == pytest.approx(
        sum(r["if_stopped"] * r["items"] for r in rows) / sum(r["items"] for r in rows), abs=1e-9
    )
    assert iv["new_needed_per_day"] >= 1 and iv["new_limit"] == store.config.new_per_day
    assert sum(d["new"] for d in iv["days"]) == sum(r["never_tried"] for r in document["skills"])

    console = Console(width=160, record=True)
    render(data, console)
    for name, text in (
        ("terminal", console.export_text()),
        ("md", to_markdown(data)),
        ("html", to_html(data)),
    ):
        assert "on the day if followed" in text and "if you stop now" in text, name
        assert f"New cards: {iv['new_needed_per_day']} a day in the plan" in text, name
        for row in document["skills"]:
            assert f"{round(100 * row['if_followed'])}%" in text, (name, row["skill"])


def test_without_the_content_no_skills(store):
    document = json.loads(to_json(compute(store, now=NOW, tz=TZ, cards=True)))
    jsonschema.validate(document, schema())
    assert document["skills"] is None
