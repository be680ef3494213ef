"""Markdown details (issue 13 §4): web addresses in card text become links whose target is the address as
written (GitHub linked bare addresses with drill's escape backslashes inside), the Activity table heads its
duration "session time", and an empty weakest-cards list says why in every format."""

from __future__ import annotations

import io
import re
from dataclasses import replace

import pytest
from markdown_it import MarkdownIt

from drill.report.html import to_html
from drill.report.markdown import escape, to_markdown
from tests.report.report_history import compute_report

URLS = [
    "https://example.com/a_b_c?x=1&y=[2]",
    "http://en.wikipedia.org/wiki/Attention_(machine_learning)",
    "https://x.invalid/p|q`r*s",
]


@pytest.fixture(scope="module")
def report(history, library):
    from sqlalchemy import create_engine

    engine = create_engine(history.url)
    try:
        yield compute_report(engine, library, user="alice")
    finally:
        engine.dispose()


def links(markdown: str) -> list[str]:
    """The link targets a CommonMark renderer (markdown-it-py, tables on) makes of ``markdown``."""
    rendered = MarkdownIt("commonmark").enable("table").render(markdown)
    return re.findall(r'<a href="([^"]*)"', rendered)


@pytest.mark.parametrize("url", URLS)
def test_an_address_links_to_itself(url):
    cell = escape(f"see {url}, then *stop*")
    assert "\\" not in cell.split("<", 1)[1].split(">", 1)[0]  # no escape inside the autolink
    (target,) = links(cell)
    from urllib.parse import unquote

    assert unquote(target).replace("&amp;", "&") == url
    assert "\\*stop\\*" in cell  # the rest is still escaped text


def test_addresses_in_a_table_cell_keep_the_table(report):
    weak = [replace(c, question=f"{c.question} {URLS[2]}") for c in report.weakest]
    md = to_markdown(replace(report, weakest=weak))
    rows = [line for line in md.splitlines() if line.startswith("| ") and "x.invalid" in line]
    assert len(rows) == len(weak)
    for row in rows:
        assert row.count(" | ") == 6  # the | inside the address did not split the cell
    ours = [t for t in links(md) if "x.invalid" in t]
    assert len(ours) == len(weak) and set(ours) == {"https://x.invalid/p%7Cq%60r*s"}


def test_the_activity_table_heads_a_duration_as_such(report):
    md = to_markdown(report)
    header = next(line for line in md.splitlines() if line.startswith("| reviews | study time"))
    assert "| session time |" in header and "| sessions |" not in header


def _terminal(data) -> str:
    from rich.console import Console

    from drill.report.terminal import render

    out = io.StringIO()
    render(data, Console(file=out, width=160, color_system=None))
    return out.getvalue()


def test_every_reviewed_card_suspended_is_not_no_reviewed_cards(report):
    by_state = dict.fromkeys(report.totals.by_state, 0) | {"suspended": 5, "new": 2}
    data = replace(
        report, weakest=[], most_lapses=[], totals=replace(report.totals, by_state=by_state, cards=7)
    )
    for text in (to_markdown(data), to_html(data), _terminal(data)):
        assert "No reviewed cards yet" not in text
        assert "No card in rotation has been reviewed" in text
        assert "No card has lapsed yet." in text
    fresh = replace(data, totals=replace(data.totals, by_state=dict.fromkeys(by_state, 0) | {"new": 7}))
    for text in (to_markdown(fresh), to_html(fresh), _terminal(fresh)):
        assert text.count("No reviewed cards yet.") == 2


def test_bank_cards_are_listed_in_the_banks_words(history, library):
    """Issue 12: a bank card is asked as 7.24 words it (Card.front) in every report and export."""
    from sqlalchemy import create_engine

    from drill.content.models import Library
    from drill.report.csvout import to_csv
    from drill.report.jsonout import to_json

    bank_wording = "题库的问法：为什么要除以 $\\sqrt{d_k}$？"
    cards = dict(library.cards)
    for cid in cards:
        cards[cid] = replace(cards[cid], bank=1, bank_question=bank_wording + cid)
    banked = Library(packs=library.packs, cards=cards)
    engine = create_engine(history.url)
    data = compute_report(engine, banked, user="alice")
    engine.dispose()
    listed = {c.id: c.question for c in data.cards}
    assert {cid: q for cid, q in listed.items() if cid in cards} == {cid: bank_wording + cid for cid in cards}
    assert all(c.question == bank_wording + c.id for c in data.weakest)
    assert "题库的问法" in to_markdown(data) and "题库的问法" in to_html(data)
    assert "题库的问法" in to_json(data) and "题库的问法" in to_csv(data)
