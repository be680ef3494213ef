"""The activity heatmap in the UI language (issue 13): weekday and month names, and its legend, in Chinese in the
zh UI and in English in the en UI, in the terminal, Markdown and HTML reports; the fixed-width heatmaps keep every
row's cells in one column and each month label over its week, counting a Chinese character as two columns.

The expected names are written out here (not read from drill's catalogs), and the layout is measured with
``unicodedata.east_asian_width``, not drill's own width function."""

from __future__ import annotations

import io
import re
import unicodedata
from datetime import date, timedelta

import pytest
from rich.console import Console

import drill.i18n
from drill.report.html import to_html
from drill.report.markdown import to_markdown
from drill.report.terminal import render
from tests.report.report_history import compute_report

WEEKDAYS = {
    "en": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    "zh": ["周一", "周二", "周三", "周四", "周五", "周六", "周日"],
}
MONTHS = {
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    "zh": [f"{m}月" for m in range(1, 13)],
}
LEGEND = {"en": ("less", "more"), "zh": ("少", "多")}
TITLE = {"en": "Reviews per day, last 26 weeks", "zh": "最近 26 周每天的复习次数"}
ENGLISH_NAMES = re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b")


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@pytest.fixture(scope="module")
def data(history, library):
    from sqlalchemy import create_engine

    engine = create_engine(history.url)
    try:
        yield compute_report(engine, library, user="alice")
    finally:
        engine.dispose()


@pytest.fixture(params=["en", "zh"])
def lang(request):
    drill.i18n.set_language(request.param)
    yield request.param
    drill.i18n.set_language("en")


def markdown_block(data) -> list[str]:
    md = to_markdown(data)
    start = md.index("```text\n", md.index("## " + TITLE[drill.i18n.current_language()])) + len("```text\n")
    return md[start : md.index("\n```", start)].split("\n")


def terminal_block(data) -> list[str]:
    out = io.StringIO()
    render(data, Console(file=out, width=120, color_system=None, legacy_windows=False))
    lines = out.getvalue().split("\n")
    start = lines.index(TITLE[drill.i18n.current_language()]) + 1
    return lines[start : start + 10]


def month_starts(data) -> dict[int, str]:
    """Week index -> the month whose first Monday it is (the weeks start at the calendar's Monday)."""
    weeks = (data.calendar.end - data.calendar.start).days // 7 + 1
    firsts = {}
    for i in range(weeks):
        monday = data.calendar.start + timedelta(days=7 * i)
        if i == 0 or (monday - timedelta(days=7)).month != monday.month:
            firsts[i] = monday.month
    return firsts


def check_fixed_width(lines: list[str], data, lang: str) -> None:
    header, rows = lines[0], lines[1:8]
    names = WEEKDAYS[lang]
    label = max(map(width, names))
    for name, row in zip(names, rows, strict=True):
        assert row.startswith(name), (name, row)
        gap = row[len(name) :]
        cells = gap.lstrip(" ")
        # the cells start in the same column on every row: the widest name and one space
        assert width(name) + len(gap) - len(cells) == label + 1, row
        assert set(cells) <= set("·░▒▓█ "), row
    # each month label sits over its first week: two columns a week after the row labels
    found = {}
    for token in re.finditer(r"\S+", header):
        column = width(header[: token.start()])
        found[(column - label - 1) / 2] = token.group()
    starts = month_starts(data)
    assert found, header
    for week, text in found.items():
        assert week in starts, (week, text, header)
        assert text == MONTHS[lang][starts[week] - 1], (week, text)
    legend = next(line for line in lines[8:] if "··" in line)
    less, more = LEGEND[lang]
    assert legend.strip().startswith(less + " ") and legend.rstrip().endswith(" " + more), legend
    if lang == "zh":
        assert not ENGLISH_NAMES.search("\n".join(lines)), lines
        assert not re.search(r"\b(less|more)\b", "\n".join(lines))


def test_the_markdown_heatmap_speaks_the_ui_language(data, lang):
    check_fixed_width(markdown_block(data), data, lang)


def test_the_terminal_heatmap_speaks_the_ui_language(data, lang):
    lines = terminal_block(data)
    check_fixed_width(lines, data, lang)
    busiest = {"en": "busiest day: {n} reviews.", "zh": "最忙的一天：{n} 次复习。"}[lang]
    assert any(busiest.format(n=data.calendar.max_reviews) in line for line in lines), lines


def test_the_html_heatmap_speaks_the_ui_language(data, lang):
    page = to_html(data)
    start = page.index("<svg", page.index('aria-labelledby="calendar"'))
    svg = page[start : page.index("</svg>", start)]
    labels = re.findall(r"<text [^>]*>([^<]*)</text>", svg)
    names = WEEKDAYS[lang]
    assert [x for x in labels if x in names + WEEKDAYS["en"] + WEEKDAYS["zh"]] == names[::2]
    months = [x for x in labels if x in MONTHS["en"] + MONTHS["zh"]]
    assert months and set(months) <= set(MONTHS[lang])
    less, more = LEGEND[lang]
    # the legend is drawn under the calendar in HTML (it wraps on a phone, issue 28)
    legend = page[page.index(">", page.index('class="legend heat-legend"')) + 1 :]
    legend = re.sub(r"<[^>]+>", " ", legend[: legend.index("</div>")]).split()
    assert legend[0] == less and legend[-1] == more, legend
    counts = {d.day.isoformat(): d.reviews for d in data.calendar.days}
    titles = re.findall(r"<title>([^<]*)</title>", svg)
    day_titles = [t for t in titles if re.match(r"\S+ \d{4}-\d\d-\d\d: ", t)]
    assert len(day_titles) == (data.calendar.end - data.calendar.start).days + 1
    for title in day_titles:
        name, day, rest = re.match(r"(\S+) (\d{4}-\d\d-\d\d): (.*)", title).groups()
        assert name == names[date.fromisoformat(day).weekday()], title
        n = counts.get(day, 0)
        if lang == "zh":
            assert rest == f"{n} 次复习", title
        else:
            assert rest == f"{n} review" + ("" if n == 1 else "s"), title
    if lang == "zh":
        assert not ENGLISH_NAMES.search(svg)
        forecast = page[page.index("<svg", page.index('aria-labelledby="forecast"')) :]
        forecast = forecast[: forecast.index("</svg>")]
        assert not ENGLISH_NAMES.search(forecast) and "张卡片到期" in forecast
