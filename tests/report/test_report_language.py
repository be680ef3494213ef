"""Issue 13: the report's headings and column labels go through drill's catalogs, in the terminal, Markdown and
HTML (CSV and JSON keep their stable English keys). Checked under the pseudo-locale (every message of drill's
source wrapped in ⟦…⟧: a heading outside the markers is one the catalogs cannot translate) and in Chinese."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

import drill.i18n
from drill.report.html import to_html
from drill.report.jsonout import to_json
from drill.report.markdown import to_markdown
from tests.i18n.pseudo import build_pseudo_locale, unmarked_words
from tests.report.report_history import compute_report

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
