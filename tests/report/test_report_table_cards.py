"""Table cards in the reports (issue 28): a table card's front is a Markdown table; the CSV, Markdown and
terminal reports show the row it asks under its header (never raw pipes), the HTML report a small table of it."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from drill.report import charts
from drill.report.html import reading
from tests.report.report_history import compute_report

ROW = (
    "原始分数：1；缩放后：［？］"  # t7.9-2.r2, written here from the chapter's table (7.9), not from the code
)


@pytest.fixture(scope="module")
def table_card():
    from drill.content import load_content

    return load_content(cache=False).cards["t7.9-2.r2"]


def test_the_card_front_is_a_markdown_table_with_its_delimiter_row(table_card):
    from markdown_it import MarkdownIt

    lines = table_card.front.splitlines()
    assert lines[2:4] == ["| 原始分数 | 缩放后 |", "| --- | --- |"]
    rendered = MarkdownIt("commonmark").enable("table").render(table_card.front)
    assert "<table>" in rendered and "<td>［？］</td>" in rendered and "| 0 |" not in rendered


def test_a_report_line_shows_the_row_the_card_asks(table_card):
    assert charts.one_line(table_card.front).endswith(ROW)
    assert (
        charts.one_line(table_card.front, 30) == ROW
    )  # a narrow column: what it asks, not the shared prompt
    assert "|" not in charts.display_text(table_card.front)
    # Absolute values are no table.
    assert charts.one_line("点积 q·k = |q||k|cosθ") == "点积 q·k = |q||k|cosθ"


def test_the_html_cell_is_a_table_of_the_asked_row(table_card):
    cell = str(reading(table_card.front))
    assert (
        '<table class="asked"><tr><th>原始分数</th><th>缩放后</th></tr><tr><td>1</td><td>［？］</td></tr></table>'
        in cell
    )
    assert "|" not in cell
    hostile = str(reading("| <b>x</b> | y |\n| --- | --- |\n| 1 | ［？］ |"))
    assert "<b>" not in hostile and "&lt;b&gt;" in hostile


def test_every_report_format_shows_the_table_card_without_pipes(history, library, table_card, engine):
    from drill.report.csvout import to_csv
    from drill.report.html import to_html
    from drill.report.markdown import to_markdown

    first = next(iter(library.cards.values()))
    card = replace(table_card, id=first.id, pack=first.pack, section=first.section)
    lib = replace(library, cards={**library.cards, first.id: card})
    data = compute_report(engine, lib, user="alice")
    assert any(c.id == first.id for c in data.cards)
    row = next(r for r in csv.DictReader(io.StringIO(to_csv(data))) if r["id"].lstrip("'") == first.id)
    assert row["question"].endswith(ROW) and "|" not in row["question"]
    assert "| 原始分数 |" not in to_markdown(data)
    page = to_html(data)
    assert "| 原始分数 |" not in page
