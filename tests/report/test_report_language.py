"""Issue 13: the report's headings and column labels go through drill's catalogs, in the terminal, Markdown and
HTML (CSV and JSON keep their stable English keys). Checked under the pseudo-locale (every message of drill's
source wrapped in ⟦…⟧: a heading outside the markers is one the catalogs cannot translate) and in Chinese."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from html.parser import HTMLParser

import pytest

import drill.i18n
from drill.report.charts import display_text
from drill.report.figures import compute
from drill.report.html import to_html
from drill.report.jsonout import to_json
from drill.report.markdown import to_markdown
from drill.srs import DEFAULT_CONFIG
from drill.store import open_store
from tests.i18n.pseudo import build_pseudo_locale, unmarked_words
from tests.interview.records import record_interviews
from tests.report.report_history import CARDS, compute_report

ALLOWED = (r"\bR\b", r"UTC")  # FSRS's R (a symbol) and the time zone's name


@pytest.fixture(scope="module")
def report(history, library):
    from sqlalchemy import create_engine

    engine = create_engine(history.url)
    try:
        yield compute_report(engine, library, user="alice", cohort=True)
    finally:
        engine.dispose()


@pytest.fixture
def pseudo(tmp_path_factory, monkeypatch):
    monkeypatch.setattr(drill.i18n, "LOCALE_DIR", str(build_pseudo_locale(tmp_path_factory.mktemp("pseudo"))))
    drill.i18n.set_language("zh")
    yield
    drill.i18n.set_language("en")


@pytest.fixture
def chinese():
    drill.i18n.set_language("zh")
    yield
    drill.i18n.set_language("en")


def markdown_headings(md: str) -> list[str]:
    lines = md.splitlines()
    heads = [line.lstrip("#").split(" — ")[0] for line in lines if line.startswith("#")]
    rule = re.compile(r"^\|( (---|--:) \|)+$")  # a table's header rule: the line above is its header
    heads += [lines[i - 1] for i, line in enumerate(lines) if rule.match(line)]
    return heads


class _Headings(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.heads: list[str] = []
        self._in = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("h1", "h2", "h3", "th"):
            self._in += 1
            self.heads.append("")

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3", "th"):
            self._in -= 1

    def handle_data(self, data):
        if self._in:
            self.heads[-1] += data


def html_headings(page: str) -> list[str]:
    parser = _Headings()
    parser.feed(page)
    return [h.split(" — ")[0] for h in parser.heads if h.strip()]


def terminal_headings(data) -> list[str]:
    from rich.table import Table
    from rich.text import Text

    from drill.report.terminal import renderables

    heads: list[str] = []

    def walk(item):
        if isinstance(item, Table):
            title = item.title.plain if isinstance(item.title, Text) else str(item.title or "")
            heads.append(title)
            heads.extend(str(c.header) for c in item.columns)
        for child in getattr(item, "renderables", ()):
            walk(child)

    for part in renderables(data):
        walk(part)
    return heads


def test_every_heading_goes_through_the_catalogs(pseudo, report):
    exempt = (report.user,)
    for name, heads in (
        ("markdown", markdown_headings(to_markdown(report))),
        ("html", html_headings(to_html(report))),
        ("terminal", terminal_headings(report)),
    ):
        assert len(heads) > 20, name
        for head in heads:
            assert unmarked_words(head, exempt=exempt, allowed=ALLOWED) == [], (name, head)


def test_the_report_in_chinese(chinese, report):
    md = to_markdown(report)
    for heading in (
        "## 真实记忆保持率",
        "## 未来 30 天到期",
        "## 各小节掌握度",
        "## 学习组",
        "# drill 学习报告",
    ):
        assert heading in md
    page = to_html(report)
    assert '<html lang="zh-CN">' in page and "最薄弱的卡片" in page and "测验成绩变化" in page
    # Stable English keys stay English in JSON whatever the language.
    doc = json.loads(to_json(report))
    assert "retention" in doc and doc["totals"]["by_state"].keys() >= {"new", "review"}
    assert not re.search(r"[\u4e00-\u9fff]", "".join(doc.keys()))


class _Words(HTMLParser):
    """Every word the HTML page gives a reader: its text (not the style sheet), the SVG charts' <text> and
    <title> tooltips included, and the attributes a screen reader reads out or a pointer shows (``SPOKEN``)."""

    SPOKEN = ("aria-label", "aria-description", "title", "alt", "placeholder")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.words: list[tuple[str, str]] = []  # (where, text)
        self.lang: str | None = None
        self._style = 0

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        if tag in ("style", "script"):
            self._style += 1
        self.words += [(f"<{tag} {name}>", value) for name, value in attrs if name in self.SPOKEN and value]

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self._style -= 1

    def handle_data(self, data):
        if not self._style and data.strip():
            self.words.append((f"<{self.lasttag}>", data))


def page_words(page: str) -> _Words:
    parser = _Words()
    parser.feed(page)
    parser.close()
    return parser


def full_report(tmp_path):
    """A report with every section the HTML page can show: reviews, quizzes, an interview plan, coding runs and
    mock interviews, for one user in a fresh store."""
    now = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    day = timedelta(days=1)
    store = open_store(f"sqlite:///{tmp_path / 'full.sqlite3'}", "alice")
    store.tz = UTC
    store.config = replace(DEFAULT_CONFIG, enable_fuzzing=False)
    cards = [("pack-a", f"c{i:02d}", f"7.{i % 4 + 1}") for i in range(8)]
    store.sync_content(cards)
    for i, (_, cid, _) in enumerate(cards[:6]):
        store.grade(cid, (1, 3, 4)[i % 3], now - 20 * day)
        store.grade(cid, (2, 3, 4)[i % 3], now - 10 * day)
    store.suspend("c05")
    store.set_interview_plan(date(2026, 11, 22), 0.9, now)
    store.record_code_attempt(
        "softmax",
        "def f(): ...\n",
        now - 3 * day,
        seed=1,
        backend="numpy",
        passed=2,
        total=5,
        all_passed=False,
        mistakes=["softmax/no-max-subtraction"],
        results={},
        elapsed_ms=400,
        writing_ms=95_000,
    )
    record_interviews(
        store,
        [
            (9, True, [("c01", "7.2", 150, False, 2, 3, 1, ["方差变大"])]),
            (3, False, [("c02", "7.3", 3700, True, 0, 2, 0, ["缩放"])]),
        ],
        now,
    )
    try:
        data = compute(store, now=now, tz=UTC, cards=True)
    finally:
        store.close()
    content = ("alice", "pack-a", *(c for _, c, _ in cards), "softmax/no-max-subtraction", "方差变大", "缩放")
    return data, content


def history_content(report) -> tuple[str, ...]:
    """What the history's report shows that is not drill's: users, quiz names, the cards' ids, sections and
    questions (as written and as read), the time zone."""
    content = (report.user, "bob", "Europe/Berlin", *(q.quiz for q in report.quizzes))
    content += tuple(section for _id, section, _question in CARDS)
    content += tuple(c.id for c in report.weakest + report.most_lapses)
    return content + tuple(
        text
        for c in (*report.weakest, *report.most_lapses, *report.cohort.questions)
        for text in (c.question, display_text(c.question), *display_text(c.question).splitlines())
        if text.strip()
    )


def test_every_word_of_the_html_page_and_its_attributes_goes_through_the_catalogs(pseudo, report, tmp_path):
    """Not only the headings: every text node, chart label and tooltip, and every aria-label / title / alt a
    screen reader speaks, holds no word of drill's own outside ⟦…⟧ (the content and the user's data exempt)."""
    full, full_content = full_report(tmp_path)
    for data, content in ((report, history_content(report)), (full, full_content)):
        page = to_html(data)
        parsed = page_words(page)
        assert parsed.lang == "zh-CN"
        spoken = [where for where, _text in parsed.words if " " in where]
        assert any("aria-label" in where for where in spoken) and any("title" in where for where in spoken)
        for where, text in parsed.words:
            words = unmarked_words(text, exempt=content, allowed=ALLOWED + (r"\bdrill\b",))
            assert words == [], (where, text)


@pytest.mark.parametrize("lang,tag", [("en", "en"), ("zh", "zh-CN")])
def test_the_html_page_names_its_language(lang, tag, report):
    drill.i18n.set_language(lang)
    try:
        assert page_words(to_html(report)).lang == tag
    finally:
        drill.i18n.set_language("en")


def terminal_sentences(data) -> list[str]:
    """The terminal report's own lines: every Text outside a table's cells, and each table's title, caption
    and column headers (the cells hold content and figures)."""
    from rich.table import Table
    from rich.text import Text

    from drill.report.terminal import renderables

    found: list[str] = []

    def walk(item):
        if isinstance(item, Text):
            found.append(item.plain)
        elif isinstance(item, str):
            found.append(item)
        if isinstance(item, Table):
            for text in (item.title, item.caption, *(c.header for c in item.columns)):
                if text:
                    walk(text)
        for child in getattr(item, "renderables", ()):
            walk(child)

    for part in renderables(data):
        walk(part)
    return found


def test_every_sentence_of_the_terminal_report_goes_through_the_catalogs(pseudo, report, tmp_path):
    """The lines between the terminal report's tables too: the forecast's scale and axis, the interview's
    summary, its warning and its readiness line, the quiz trend's caption."""
    full, full_content = full_report(tmp_path)
    for data, content in ((report, history_content(report)), (full, full_content)):
        sentences = terminal_sentences(data)
        assert len(sentences) > 30
        for text in sentences:
            assert unmarked_words(text, exempt=content, allowed=ALLOWED + (r"\bdrill\b",)) == [], text
