"""The report's mock-interview section: every figure recomputed here in plain Python from the scorecards as
written, in the terminal, Markdown and JSON reports; --since and --section narrow it; stored text stays text."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta

import jsonschema
import pytest
from rich.console import Console

from drill.content.control import visible
from drill.report.figures import compute
from drill.report.jsonout import schema, to_json
from drill.report.markdown import to_markdown
from drill.report.terminal import render
from drill.store import open_store
from tests.interview.records import record_interviews

NOW = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
HOSTILE = "**bold** <b>x</b> | `code`"
TROJAN = "方差\x1b[31m变大\u202e"  # ESC and a bidi override, as a tampered database could hold them
# Interviews: (days ago, finished, [(card, section, seconds, timed out, covered, total, traps, missed points)])
INTERVIEWS = [
    (
        9,
        True,
        [("q07", "7.9", 150, False, 2, 3, 1, ["方差变大"]), ("q08", "7.9", 180, True, 0, 2, 0, ["a", "b"])],
    ),
    (
        3,
        True,
        [
            ("q07", "7.9", 90, False, 3, 3, 0, [TROJAN]),
            ("q12", "7.12", 60, False, 1, 4, 2, ["方差变大", HOSTILE]),
        ],
    ),
    (1, False, [("q08", "7.9", 175, False, 1, 2, 0, ["b"])]),
]


@pytest.fixture
def store(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice")
    store.tz = UTC
    store.sync_content(
        [
            ("transformer-ch7", "q07", "7.9"),
            ("transformer-ch7", "q08", "7.9"),
            ("transformer-ch7", "q12", "7.12"),
        ]
    )
    record_interviews(store, INTERVIEWS, NOW)
    yield store
    store.close()


def expected(interviews, section=None):
    keep = [
        (ago, finished, [a for a in answers if section is None or a[1] == section])
        for ago, finished, answers in interviews
    ]
    keep = [k for k in keep if k[2]]
    rows = [a for _ago, _f, answers in keep for a in answers]
    per_card: dict[str, list] = {}
    for a in rows:
        per_card.setdefault(a[0], []).append(a)
    missed: dict[str, int] = {}
    for a in rows:
        for p in a[7]:
            missed[p] = missed.get(p, 0) + 1
    stated: dict[str, int] = {}  # records.py writes an answer's traps as "trap 0", "trap 1", ...
    for a in rows:
        for i in range(a[6]):
            stated[f"trap {i}"] = stated.get(f"trap {i}", 0) + 1
    slow = [
        {
            "card": card,
            "section": group[0][1],
            "question": "",
            "answers": len(group),
            "mean_seconds": sum(a[2] for a in group) / len(group),
            "timed_out": sum(a[3] for a in group),
        }
        for card, group in per_card.items()
    ]
    return {
        "interviews": [
            {
                "started_at": (NOW - timedelta(days=ago)).isoformat(timespec="microseconds"),
                "finished": finished,
                "questions": len(answers),
                "coverage": sum(a[4] / a[5] for a in answers) / len(answers),
                "traps_hit": sum(a[6] for a in answers),
                "seconds": float(sum(a[2] for a in answers)),
            }
            for ago, finished, answers in keep
        ],
        "questions": len(rows),
        "mean_coverage": sum(a[4] / a[5] for a in rows) / len(rows),
        "slowest": sorted(slow, key=lambda q: (-q["mean_seconds"], q["card"]))[:5],
        "most_missed": [
            {"point": visible(p), "count": n}  # JSON shows stand-ins too (the report's one output sanitiser)
            for p, n in sorted(missed.items(), key=lambda kv: -kv[1])[:5]
        ],
        "most_stated": [
            {"misconception": m, "count": n} for m, n in sorted(stated.items(), key=lambda kv: -kv[1])[:5]
        ],
    }


def _same(got, want):
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True) or got == pytest.approx(want)


def test_interview_scores_in_json_terminal_and_markdown(store):
    data = compute(store, now=NOW, tz=UTC)
    doc = json.loads(to_json(data))
    jsonschema.validate(doc, schema())
    want = expected(INTERVIEWS)
    got = doc["interview_scores"]
    assert got["questions"] == want["questions"] == 5
    assert got["mean_coverage"] == pytest.approx(want["mean_coverage"])
    for g, w in zip(got["interviews"], want["interviews"], strict=True):
        assert g == {**w, "coverage": pytest.approx(w["coverage"])}
    assert got["slowest"] == want["slowest"] and got["most_missed"] == want["most_missed"]
    assert got["slowest"][0]["card"] == "q08" and got["most_missed"][0] == {"point": "方差变大", "count": 2}
    assert (
        got["most_stated"]
        == want["most_stated"]
        == [
            {"misconception": "trap 0", "count": 2},
            {"misconception": "trap 1", "count": 1},
        ]
    )

    out = io.StringIO()
    render(data, Console(file=out, width=120, color_system=None))
    text = out.getvalue()
    assert "Mock interviews (drill interview)" in text
    assert "3 mock interviews, 5 questions, mean coverage of the key points" in text
    assert "(stopped)" in text and "slowest questions" in text and HOSTILE in text  # shown as written

    md = to_markdown(data)
    assert "## Mock interviews (drill interview)" in md and "### points missed most often" in md
    assert HOSTILE not in md and r"\*\*bold\*\* &lt;b&gt;x&lt;/b&gt; \| \`code\`" in md  # escaped
    for rendered, shown in ((text, "方差␛[31m变大"), (md, r"方差␛\[31m变大")):  # no control or bidi character
        assert "\x1b" not in rendered and "\u202e" not in rendered and shown in rendered


def test_since_and_section_narrow_the_section(store):
    data = compute(store, now=NOW, tz=UTC, since=(NOW - timedelta(days=4)).date())
    got = json.loads(to_json(data))["interview_scores"]
    assert [i["questions"] for i in got["interviews"]] == [2, 1]
    data = compute(store, now=NOW, tz=UTC, section="7.12")
    got = json.loads(to_json(data))["interview_scores"]
    want = expected(INTERVIEWS, "7.12")
    assert got["questions"] == 1 and got["slowest"] == want["slowest"]
    assert got["most_missed"] == want["most_missed"] and got["most_stated"] == want["most_stated"]


def test_no_interview_no_section(tmp_path):
    with open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice") as store:
        store.tz = UTC
        store.record_code_attempt(
            "softmax",
            "",
            NOW,
            seed=1,
            backend="numpy",
            passed=1,
            total=1,
            all_passed=True,
            mistakes=[],
            results={},
            elapsed_ms=1,
        )
        data = compute(store, now=NOW, tz=UTC)
    assert data.interview_scores is None
    assert json.loads(to_json(data))["interview_scores"] is None
    assert "Mock interviews" not in to_markdown(data)
