"""The report's coding section (drill code): tasks passed, runs, time, the mistakes diagnosed most often,
recomputed here from the attempts as written, in the terminal, Markdown and JSON reports."""

from __future__ import annotations

import io
import json
from collections import Counter
from datetime import UTC, datetime, timedelta

import jsonschema
import pytest
from rich.console import Console

from drill.report.figures import compute
from drill.report.jsonout import schema, to_json
from drill.report.markdown import to_markdown
from drill.report.terminal import render
from drill.store import open_store

NOW = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
RUNS = [  # task, all passed, mistakes, elapsed_ms, writing_ms, days ago
    ("softmax", False, ["softmax/no-max-subtraction"], 400, 60_000, 9),
    ("softmax", True, [], 380, 30_000, 9),
    ("attention", False, ["attention/scale-by-dk", "attention/fully-masked-nan"], 500, 120_000, 3),
    ("attention", False, ["attention/scale-by-dk"], 450, None, 2),
    ("rope", False, ["rope/half-split-pairs"], 300, 10_000, 1),
]


@pytest.fixture
def store(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice")
    store.tz = UTC
    for task, ok, mistakes, elapsed, writing, ago in RUNS:
        store.record_code_attempt(
            task,
            "def f(): ...\n",
            NOW - timedelta(days=ago),
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
    yield store
    store.close()


def expected(runs):
    counts = Counter(m for r in runs for m in set(r[2]))
    return {
        "tasks_tried": len({r[0] for r in runs}),
        "tasks_passed": len({r[0] for r in runs if r[1]}),
        "attempts": len(runs),
        "seconds": sum(r[3] + (r[4] or 0) for r in runs) / 1000,
        "mistakes": [
            {"mistake": m, "count": n} for m, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
    }


def test_coding_figures_in_json_terminal_and_markdown(store):
    data = compute(store, now=NOW, tz=UTC)
    doc = json.loads(to_json(data))
    jsonschema.validate(doc, schema())
    assert doc["coding"] == expected(RUNS)
    out = io.StringIO()
    render(data, Console(file=out, width=120, color_system=None))
    assert "Coding (drill code)" in out.getvalue() and "attention/scale-by-dk" in out.getvalue()
    md = to_markdown(data)
    assert "## Coding (drill code)" in md and "1 of 3 tasks passed, 5 runs" in md


def test_since_limits_the_runs(store):
    data = compute(store, now=NOW, tz=UTC, since=(NOW - timedelta(days=4)).date())
    assert json.loads(to_json(data))["coding"] == expected([r for r in RUNS if r[5] <= 4])


def test_no_runs_no_section(tmp_path):
    with open_store(f"sqlite:///{tmp_path / 'empty.sqlite3'}", "bob") as store:
        data = compute(store, now=NOW, tz=UTC)
    assert data.coding.attempts == 0 and "Coding" not in to_markdown(data)


def test_coding_figures_in_html(store):
    from html.parser import HTMLParser

    from drill.report.html import to_html

    class Text(HTMLParser):
        chunks: list[str] = []

        def handle_data(self, data):
            self.chunks.append(data)

    parser = Text()
    parser.chunks = []
    parser.feed(to_html(compute(store, now=NOW, tz=UTC)))
    text = " ".join(" ".join(parser.chunks).split())
    want = expected(RUNS)
    assert "Coding (drill code)" in text
    assert f"{want['tasks_passed']} of {want['tasks_tried']} tasks passed, {want['attempts']} runs" in text
    for m in want["mistakes"]:
        assert f"{m['mistake']} {m['count']}" in text
