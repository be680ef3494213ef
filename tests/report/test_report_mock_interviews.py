"""The mock-interview scorecards (`drill interview`, issue 15) in the HTML and CSV reports, as they were in the
terminal, Markdown and JSON ones: every figure recomputed here in plain Python from the answers as written
(Counter, sums and means), stored text escaped in HTML and neutralised in CSV with stable English keys."""

from __future__ import annotations

import csv
import io
from collections import Counter
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest

from drill.content.control import visible
from drill.report.csvout import COLUMNS, to_csv
from drill.report.figures import compute
from drill.report.html import to_html
from drill.store import open_store
from tests.interview.records import record_interviews

NOW = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
HOSTILE = "**bold** <b>x</b> | `code` <script>alert(1)</script>"
TROJAN = "方差\x1b[31m变大\u202e"  # ESC and a bidi override, as a tampered database could hold them
FORMULA = '=HYPERLINK("http://x.invalid","点我")'
CARDS = [
    ("transformer-ch7", "q07", "7.9"),
    ("transformer-ch7", "q08", "7.9"),
    ("transformer-ch7", "q12", "7.12"),
]
CARDS += [("transformer-ch7", "q30", "7.20")]  # never asked: its mock columns stay empty
# (days ago, finished, [(card, section, seconds, timed out, covered, total, traps, missed points)])
INTERVIEWS = [
    (
        9,
        True,
        [
            ("q07", "7.9", 150, False, 2, 3, 1, ["方差变大", TROJAN]),
            ("q08", "7.9", 180, True, 0, 2, 0, ["a", "b"]),
        ],
    ),
    (
        3,
        True,
        [
            ("q07", "7.9", 95, False, 3, 3, 0, [TROJAN]),
            ("q12", "7.12", 61, False, 1, 4, 2, [FORMULA, HOSTILE]),
        ],
    ),
    (1, False, [("q08", "7.9", 175, False, 1, 2, 0, ["b", FORMULA, HOSTILE])]),
]


@pytest.fixture
def store(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice")
    store.tz = UTC
    store.sync_content(CARDS)
    record_interviews(store, INTERVIEWS, NOW, follow_ups=False)
    yield store
    store.close()


def answers(section: str | None = None) -> list[tuple]:
    return [a for _ago, _f, group in INTERVIEWS for a in group if section is None or a[1] == section]


def per_card(section: str | None = None) -> dict[str, dict]:
    """The CSV's mock columns, recomputed: answers, mean coverage, mean seconds, timed out, traps, missed."""
    cards: dict[str, list] = {}
    for a in answers(section):
        cards.setdefault(a[0], []).append(a)
    return {
        card: {
            "mock_answers": len(group),
            "mock_coverage": sum(a[4] / a[5] for a in group) / len(group),
            "mock_seconds": sum(a[2] for a in group) / len(group),
            "mock_timed_out": sum(a[3] for a in group),
            "mock_traps_hit": sum(a[6] for a in group),
            "mock_missed": [p for p, _n in Counter(p for a in group for p in a[7]).most_common()],
        }
        for card, group in cards.items()
    }


def csv_cell(text: str) -> str:
    """What a spreadsheet must get: stand-ins for control/format characters, a formula defused with a '."""
    shown = visible(text)
    return "'" + shown if shown[:1] in ("=", "+", "-", "@") else shown


def test_the_csv_has_each_cards_scorecard_figures(store):
    data = compute(store, now=NOW, tz=UTC, cards=True)
    text = to_csv(data)
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(text))}
    assert tuple(next(csv.reader(io.StringIO(text)))) == COLUMNS
    mock = [c for c in COLUMNS if c.startswith("mock_")]
    assert mock == [
        "mock_answers",
        "mock_coverage",
        "mock_seconds",
        "mock_timed_out",
        "mock_traps_hit",
        "mock_missed",
    ]
    want = per_card()
    assert set(want) == {"q07", "q08", "q12"}
    for card, figures in want.items():
        row = rows[card]
        assert int(row["mock_answers"]) == figures["mock_answers"]
        assert float(row["mock_coverage"]) == pytest.approx(figures["mock_coverage"], abs=1e-6)
        assert float(row["mock_seconds"]) == pytest.approx(figures["mock_seconds"], abs=1e-6)
        assert int(row["mock_timed_out"]) == figures["mock_timed_out"]
        assert int(row["mock_traps_hit"]) == figures["mock_traps_hit"]
        missed = ";".join(figures["mock_missed"])
        assert row["mock_missed"] == csv_cell(missed), card
    assert all(rows["q30"][c] == "" for c in mock)  # never asked
    # q08 missed "b" twice, then "a" and the formula once each: most often first, the cell needs no '
    assert rows["q08"]["mock_missed"] == 'b;a;=HYPERLINK("http://x.invalid","点我");' + HOSTILE
    assert rows["q12"]["mock_missed"].startswith("'=HYPERLINK(")  # the formula first: neutralised
    assert (
        "\x1b" not in text and "\u202e" not in text and "方差␛[31m变大<U+202E>" in rows["q07"]["mock_missed"]
    )


def test_a_section_filter_keeps_its_cards_figures(store):
    data = compute(store, now=NOW, tz=UTC, section="7.12", cards=True)
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(to_csv(data)))}
    assert set(rows) == {"q12"}
    want = per_card("7.12")["q12"]
    assert int(rows["q12"]["mock_answers"]) == want["mock_answers"] == 1
    assert float(rows["q12"]["mock_coverage"]) == pytest.approx(want["mock_coverage"])


class Tables(HTMLParser):
    """The text of every cell of every table inside the element with ``id``'s section."""

    def __init__(self, section_id: str):
        super().__init__(convert_charrefs=True)
        self.section_id, self.depth, self.inside = section_id, 0, False
        self.tables: list[list[list[str]]] = []
        self.headings: list[str] = []
        self.note = ""
        self._cell: list[str] | None = None
        self._heading: list[str] | None = None
        self._note: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and attrs.get("aria-labelledby") == self.section_id:
            self.inside, self.depth = True, 0
        if not self.inside:
            return
        if tag == "section":
            self.depth += 1
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag in ("h2", "h3"):
            self._heading = []
        elif tag == "p" and "note" in (attrs.get("class") or ""):
            self._note = []

    def handle_endtag(self, tag):
        if not self.inside:
            return
        if tag == "section":
            self.depth -= 1
            self.inside = self.depth > 0
        elif tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag in ("h2", "h3") and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None
        elif tag == "p" and self._note is not None:
            self.note, self._note = "".join(self._note).strip(), None

    def handle_data(self, data):
        for part in (self._cell, self._heading, self._note):
            if part is not None:
                part.append(data)


def minutes(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60:02d} s" if whole >= 60 else f"{whole} s"


def test_the_html_report_has_the_mock_interview_section(store):
    page = to_html(compute(store, now=NOW, tz=UTC, cards=True))
    parsed = Tables("mock-interviews")
    parsed.feed(page)
    assert parsed.headings == [
        "Mock interviews (drill interview)",
        "slowest questions",
        "points missed most often",
    ]
    rows = answers()
    mean = sum(a[4] / a[5] for a in rows) / len(rows)
    assert (
        parsed.note
        == f"3 mock interviews, {len(rows)} questions, mean coverage of the key points {mean:.0%}."
    )
    sessions, slowest, missed = parsed.tables
    assert sessions[0] == ["started", "questions", "coverage", "traps hit", "time"]
    want = []
    for ago, finished, group in INTERVIEWS:
        started = f"{NOW - timedelta(days=ago):%Y-%m-%d %H:%M}" + ("" if finished else " (stopped)")
        coverage = 100 * sum(a[4] / a[5] for a in group) / len(group)
        total = sum(a[2] for a in group)
        want.append(
            [started, str(len(group)), f"{coverage:.0f}%", str(sum(a[6] for a in group)), minutes(total)]
        )
    assert sessions[1:] == want

    cards = per_card()
    order = sorted(cards, key=lambda c: (-cards[c]["mock_seconds"], c))
    assert slowest[0] == ["card", "section", "mean time", "timed out", "question"]
    assert [row[:4] for row in slowest[1:]] == [
        [
            c,
            next(a[1] for a in rows if a[0] == c),
            minutes(cards[c]["mock_seconds"]),
            f"{cards[c]['mock_timed_out']}/{cards[c]['mock_answers']}",
        ]
        for c in order
    ]

    counts = Counter(p for a in rows for p in a[7]).most_common(5)
    assert missed[0] == ["point", "times"]
    assert missed[1:] == [[visible(p), str(n)] for p, n in counts]

    # The coverage chart: one dot per interview, at its mean coverage.
    start = page.index('aria-labelledby="mock-interviews"')
    section = page[start : page.index("</section>", start)]
    assert section.count("<circle") == 2 * len(INTERVIEWS)  # the chart for a desktop, and for a phone
    assert 'aria-label="mean coverage of the key points over time"' in section


def test_stored_text_in_the_html_section_is_escaped_and_shown_as_stand_ins(store):
    page = to_html(compute(store, now=NOW, tz=UTC, cards=True))
    start = page.index('aria-labelledby="mock-interviews"')
    section = page[start : page.index("</section>", start)]
    assert "<script>" not in section and "<b>x</b>" not in section
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in section and "&lt;b&gt;x&lt;/b&gt;" in section
    assert "\x1b" not in page and "\u202e" not in page and "方差␛[31m变大&lt;U+202E&gt;" in section


def test_no_interview_no_html_section(tmp_path):
    with open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice") as empty:
        empty.tz = UTC
        empty.sync_content(CARDS)
        data = compute(empty, now=NOW, tz=UTC, cards=True)
    assert data.interview_scores is None
    assert "mock-interviews" not in to_html(data)
    rows = list(csv.DictReader(io.StringIO(to_csv(data))))
    assert rows and all(row[c] == "" for row in rows for c in COLUMNS if c.startswith("mock_"))
