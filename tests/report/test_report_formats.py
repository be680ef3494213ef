"""Each format of the same ReportData: JSON validates against the shipped schema, HTML is self-contained and
escapes card text, CSV round-trips with formula cells neutralised, Markdown escapes, the terminal shows text."""

from __future__ import annotations

import csv
import io
import json
from html.parser import HTMLParser

import pytest

from drill.report.csvout import COLUMNS, FORMULA_STARTS, neutralise, to_csv
from drill.report.html import to_html
from drill.report.jsonout import schema, to_json
from drill.report.markdown import to_markdown
from tests.report.report_history import XSS_IMG, XSS_SCRIPT, compute_report


@pytest.fixture(scope="module")
def report(history, library):
    from sqlalchemy import create_engine

    engine = create_engine(history.url)
    try:
        yield compute_report(engine, library, user="alice", cohort=True)
    finally:
        engine.dispose()


# -- JSON ------------------------------------------------------------------------------------------------


def test_json_validates_against_the_shipped_schema(report):
    import jsonschema

    document = json.loads(to_json(report))
    validator = jsonschema.Draft202012Validator(schema(), format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(document), key=str)
    assert errors == []
    assert document["schema_version"] == "1.6"
    assert document["cohort"]["users"][0]["rank"] == 1


def test_the_schema_rejects_what_it_should(report):
    import jsonschema

    document = json.loads(to_json(report))
    document["totals"]["by_state"]["frozen"] = 3
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, schema())


def test_the_schema_ships_inside_the_package():
    from importlib import resources

    assert resources.files("drill.report").joinpath("schema.json").is_file()
    assert schema()["$id"].endswith("report-1.json")


# -- HTML ------------------------------------------------------------------------------------------------


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str | None]] = []
        self.text: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]
        if tag not in {"meta", "br", "hr", "img", "link", "input", "rect", "line", "circle", "polyline"}:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]

    def handle_endtag(self, tag):
        if tag in {"rect", "line", "circle", "polyline"} and (not self.open or self.open[-1] != tag):
            return
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()

    def handle_data(self, data):
        self.text.append(data)


def test_html_parses_and_escapes_card_text(report):
    page = to_html(report)
    parser = _Collector()
    parser.feed(page)
    parser.close()
    assert parser.open == [], "every element is closed"
    # Nothing from the probe card became markup: no script or img element, no event handler attribute ...
    assert "script" not in parser.tags
    assert "img" not in parser.tags
    assert not [a for a in parser.attrs if a[1].startswith("on")]
    # ... and its text is there, escaped, to be read.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert XSS_SCRIPT not in page and XSS_IMG not in page
    assert any(XSS_SCRIPT in chunk for chunk in parser.text)


def test_html_is_self_contained(report):
    page = to_html(report)
    assert "<script" not in page.lower()
    # No external resource of any kind: no URL-bearing attribute on any element, no url() in the CSS.
    parser = _Collector()
    parser.feed(page)
    assert not [a for a in parser.attrs if a[1] in {"src", "href", "xlink:href", "action", "srcset", "data"}]
    assert {"link", "iframe", "object", "embed", "image", "use", "foreignobject"}.isdisjoint(parser.tags)
    assert "url(" not in page and "@import" not in page
    assert "http://" not in page.replace("=HYPERLINK(&#34;http://x&#34;)", "").replace(
        "http://www.w3.org", ""
    )
    assert page.count("<svg") >= 3
    assert "Content-Security-Policy" in page


def test_html_template_never_marks_content_safe():
    from importlib import resources

    template = (
        resources.files("drill.report").joinpath("templates/report.html.j2").read_text(encoding="utf-8")
    )
    assert "|safe" not in template.replace(" ", "") and "Markup(" not in template


def test_html_shows_the_figures(report):
    page = to_html(report)
    assert f">{report.totals.reviews}<" in page
    for item in report.retention.by_section:
        assert f">{item.section}<" in page or item.section.replace('"', "&#34;") in page
    assert page.count("<rect") >= len(report.calendar.days) + 30


# -- CSV -------------------------------------------------------------------------------------------------


def test_csv_round_trips_with_formulas_neutralised_and_numbers_numeric(report):
    text = to_csv(report)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert tuple(rows[0]) == COLUMNS
    body = [dict(zip(COLUMNS, row, strict=True)) for row in rows[1:]]
    assert [r["id"] for r in body] == [neutralise(c.id) for c in report.cards]
    text_columns = ("id", "section", "state", "due", "last_rating", "question")
    for row in body:
        for column in text_columns:
            assert not row[column].startswith(FORMULA_STARTS), (column, row[column])
        for column in ("stability", "difficulty", "retrievability"):
            if row[column]:
                float(row[column])  # a plain number, no quote
        int(row["reviews"]), int(row["lapses"])
    ids = {r["id"] for r in body}
    assert {"'=1+1", "'@SUM(A1)", "'-2+3"} <= ids
    assert '\'=HYPERLINK("http://x")' in {r["section"] for r in body}
    by_id = {c.id: c for c in report.cards}
    for row in body:
        card = by_id[row["id"].removeprefix("'")] if row["id"].startswith("'") else by_id[row["id"]]
        if card.retrievability is not None:
            assert float(row["retrievability"]) == pytest.approx(card.retrievability, abs=1e-6)
        assert int(row["reviews"]) == card.reviews


@pytest.mark.parametrize("cell", ["=1+2", "+1", "-1", "@A1", "\tx", "\rx", "=cmd|' /C calc'!A0"])
def test_every_formula_start_is_neutralised(cell):
    assert neutralise(cell) == "'" + cell
    assert neutralise("q01") == "q01"


# -- Markdown --------------------------------------------------------------------------------------------


def test_markdown_has_headings_tables_and_unicode_charts(report):
    md = to_markdown(report)
    for heading in (
        "# drill progress report",
        "## Totals",
        "## Reviews per day, last 26 weeks",
        "## True retention",
        "## Due in the next 30 days",
        "## Weakest cards",
        "## Most lapses",
        "## Quiz scores over time",
        "## Mastery by section",
        "## Cohort",
    ):
        assert heading in md
    assert "```text" in md and any(ch in md for ch in "░▒▓█")
    assert "| section | reviews | passed | retention |" in md
    assert "<script>" not in md and "<img" not in md
    assert "&lt;script&gt;" in md
    # Table rows keep their column count even though a section name holds quotes and parentheses.
    for line in md.splitlines():
        if line.startswith("| q14 "):
            assert line.count(" | ") == 6


# -- terminal --------------------------------------------------------------------------------------------


def test_terminal_prints_card_text_literally(report):
    from rich.console import Console

    from drill.report.terminal import render

    console = Console(width=160, record=True, force_terminal=True, color_system="truecolor")
    render(report, console)
    out = console.export_text()
    assert "Reviews per day, last 26 weeks" in out
    assert (
        "less" in out and "more" in out
    )  # the heatmap legend: block shapes carry the level, not only colour
    assert XSS_SCRIPT in out or "<script>alert(1)</script" in out
    assert "True retention" in out and "Mastery by section" in out and "Cohort" in out


def test_terminal_does_not_parse_markup_in_content(history, library):
    from dataclasses import replace

    from rich.console import Console
    from sqlalchemy import create_engine

    from drill.report.terminal import render

    engine = create_engine(history.url)
    data = compute_report(engine, library, user="alice")
    engine.dispose()
    weak = [replace(c, question="[bold red]not bold[/] [@click=app.quit]x[/]") for c in data.weakest]
    console = Console(width=200, record=True)
    render(replace(data, weakest=weak), console)
    assert "[bold red]not bold[/]" in console.export_text()
