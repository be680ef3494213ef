"""The report as ONE self-contained HTML file: inline CSS and inline SVG charts, no scripts, no network.

jinja2 renders it with autoescape on and no ``|safe`` anywhere, so card text (which may hold ``<script>``) is
always escaped. This module only turns figures into numbers for the SVG (positions, sizes, colours).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from drill.i18n import _, current_language, ngettext
from drill.report import charts, sanitise, skills_view
from drill.report.data import STATES, ReportData
from drill.report.skills import new_cards_text

HEAT_COLOURS = ("#ebedf0", "#b7e4a0", "#6cc36b", "#2f9a4a", "#17602d")
STATE_COLOURS = {
    "new": "#5b8def",
    "learning": "#f2b134",
    "review": "#3aa76d",
    "relearning": "#e5534b",
    "suspended": "#9aa0a6",
    "retired": "#c9ccd1",
}
CELL = 15
GAP = 4
HEAT_LEFT = 34
HEAT_TOP = 18


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    title: str = ""


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    anchor: str = "start"


NARROW = 340  # px a chart is drawn at for a phone (390 px less the page's and the card's padding)


def heatmap(data: ReportData, blocks: int = 1) -> dict:
    """The calendar as ``blocks`` SVG blocks of consecutive weeks, each with its month and weekday labels (a
    phone gets two blocks of 13 weeks, one above the other, rather than a strip scrolled sideways), and the
    legend's colour levels (drawn in HTML under the blocks, where it wraps)."""
    cal = data.calendar
    weeks = charts.heat_weeks(cal)
    per_block = -(-len(weeks) // blocks) if weeks else 1
    drawn = [_heat_block(weeks[i : i + per_block]) for i in range(0, max(len(weeks), 1), per_block)]
    legend = [
        {
            "colour": HEAT_COLOURS[level],
            "text": str(lo) if lo == hi else f"{lo}–{hi}",
            "title": _("{low}–{high} reviews").format(low=lo, high=hi),
        }
        for level, lo, hi in charts.level_ranges(cal.max_reviews)
    ]
    return {"blocks": drawn, "legend": legend}


def _heat_block(weeks: list) -> dict:
    rects, labels = [], []
    for i, week in enumerate(weeks):
        for weekday, cell in enumerate(week):
            if not cell.in_range:
                continue
            rects.append(
                Rect(
                    HEAT_LEFT + i * (CELL + GAP),
                    HEAT_TOP + weekday * (CELL + GAP),
                    CELL,
                    CELL,
                    HEAT_COLOURS[cell.level],
                    f"{charts.weekday(cell.day)} {cell.day:%Y-%m-%d}: "
                    + ngettext("{count} review", "{count} reviews", cell.reviews).format(count=cell.reviews),
                )
            )
    for i, label in enumerate(charts.month_labels(weeks)):
        if label:
            labels.append(Label(HEAT_LEFT + i * (CELL + GAP), HEAT_TOP - 6, label))
    for weekday in (0, 2, 4, 6):
        labels.append(
            Label(
                HEAT_LEFT - 6,
                HEAT_TOP + weekday * (CELL + GAP) + CELL - 2,
                _(charts.WEEKDAYS[weekday]),
                "end",
            )
        )
    return {
        "width": HEAT_LEFT + len(weeks) * (CELL + GAP),
        "height": HEAT_TOP + 7 * (CELL + GAP),
        "rects": rects,
        "labels": labels,
    }


def forecast(data: ReportData, width: int = 640) -> dict:
    """The next 30 days' due cards as bars, drawn ``width`` px wide (a day's bar narrower on a phone)."""
    days = data.forecast.days
    height, left, bottom, top_pad = 170, 34, 26, 12
    plot_h = height - bottom - top_pad
    top = max((d.due for d in days), default=0)
    scale_top = max(top, 1)
    step = (width - left - 8) / max(len(days), 1)
    rects, labels = [], []
    for i, d in enumerate(days):
        h = plot_h * d.due / scale_top
        rects.append(
            Rect(
                left + i * step + 1,
                height - bottom - h,
                step - 2,
                h,
                "#7c6fe0" if i else "#d0568c",
                f"{charts.weekday(d.day)} {d.day:%Y-%m-%d}: "
                + ngettext("{count} card due", "{count} cards due", d.due).format(count=d.due),
            )
        )
        if i % 7 == 0:
            when = _("{month} {day}").format(month=charts.month_name(d.day), day=f"{d.day:%d}")
            labels.append(Label(left + i * step + step / 2, height - bottom + 15, when, "middle"))
    grid = [
        Label(left - 6, height - bottom - plot_h * v / scale_top + 4, str(v), "end")
        for v in sorted({0, top // 2, top})
        if v or top == 0
    ]
    lines = [height - bottom - plot_h * v / scale_top for v in sorted({0, top // 2, top})]
    return {
        "width": width,
        "height": height,
        "rects": rects,
        "labels": labels + grid,
        "lines": lines,
        "left": left,
        "right": width - 8,
    }


def quiz_chart(data: ReportData, width: int = 640) -> dict | None:
    points = [q for q in data.quizzes if q.percent is not None]
    return _time_chart(
        [
            (q.started_at, q.percent, f"{q.started_at:%Y-%m-%d %H:%M} {q.quiz}: {q.correct}/{q.total}")
            for q in points
        ],
        width,
    )


def coverage_chart(data: ReportData, width: int = 640) -> dict | None:
    """Mock interviews' mean coverage of the key points over time (the terminal's sparkline, drawn)."""
    scores = data.interview_scores
    if scores is None:
        return None
    return _time_chart(
        [
            (i.started_at, i.coverage, f"{i.started_at:%Y-%m-%d %H:%M}: {charts.pct(i.coverage, 0)}")
            for i in scores.interviews
        ],
        width,
    )


def _time_chart(points: list[tuple[datetime, float, str]], width: int = 640) -> dict | None:
    """A line of (moment, share 0..1, tooltip) points, oldest first, placed by time, ``width`` px wide."""
    if not points:
        return None
    height, left, bottom, top_pad, right = 180, 40, 28, 12, 16
    plot_w, plot_h = width - left - right, height - bottom - top_pad
    t0 = points[0][0].timestamp()
    t1 = points[-1][0].timestamp()
    span = (t1 - t0) or 1.0

    def x_of(moment: datetime) -> float:
        return left + (plot_w * (moment.timestamp() - t0) / span if len(points) > 1 else plot_w / 2)

    def y_of(share: float) -> float:
        return top_pad + plot_h * (1 - share)

    dots = [
        {"x": round(x_of(moment), 1), "y": round(y_of(share), 1), "title": title}
        for moment, share, title in points
    ]
    path = " ".join(f"{d['x']},{d['y']}" for d in dots)
    grid = [{"y": round(y_of(v), 1), "label": f"{int(v * 100)}%"} for v in (0, 0.5, 1)]
    labels = [Label(dots[0]["x"], height - 8, f"{points[0][0]:%Y-%m-%d}", "start")]
    if len(points) > 1:
        labels.append(Label(dots[-1]["x"], height - 8, f"{points[-1][0]:%Y-%m-%d}", "end"))
    return {
        "width": width,
        "height": height,
        "dots": dots,
        "path": path,
        "grid": grid,
        "labels": labels,
        "left": left,
        "right": width - right,
    }


def readiness_chart(data: ReportData, width: int = 640) -> dict | None:
    """Readiness over the days to the interview (if the plan is followed), with the target as a dashed line,
    ``width`` px wide."""
    iv = data.interview
    if iv is None:
        return None
    height, left, bottom, top_pad, right = 180, 40, 28, 12, 16
    plot_w, plot_h = width - left - right, height - bottom - top_pad
    span = max(1, len(iv.days) - 1)

    def y_of(value: float) -> float:
        return round(top_pad + plot_h * (1 - value), 1)

    dots = [
        {
            "x": round(left + plot_w * i / span, 1),
            "y": y_of(d.readiness),
            "title": _("{day}: {readiness}, {reviews} reviews, {new} new").format(
                day=d.day.isoformat(), readiness=charts.pct(d.readiness, 0), reviews=d.reviews, new=d.new
            ),
        }
        for i, d in enumerate(iv.days)
    ]
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "dots": dots,
        "path": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "target_y": y_of(iv.target),
        "grid": [{"y": y_of(v), "label": f"{int(v * 100)}%"} for v in (0, 0.5, 1)],
        "labels": [
            Label(dots[0]["x"], height - 8, iv.days[0].day.isoformat(), "start"),
            Label(dots[-1]["x"], height - 8, iv.days[-1].day.isoformat(), "end"),
        ],
    }


def state_bar(data: ReportData) -> list[dict]:
    total = data.totals.cards or 1
    return [
        {
            "state": s,
            "count": data.totals.by_state[s],
            "pct": 100 * data.totals.by_state[s] / total,
            "colour": STATE_COLOURS[s],
        }
        for s in STATES
    ]


def mastery_rows(data: ReportData) -> list[dict]:
    rows = []
    for m in data.mastery:
        total = m.cards or 1
        segments = [
            (_("mastered"), m.mastered, "#17602d"),
            (charts.state_name("review"), m.review - m.mastered, STATE_COLOURS["review"]),
            (charts.state_name("learning"), m.learning, STATE_COLOURS["learning"]),
            (charts.state_name("new"), m.new, STATE_COLOURS["new"]),
            (_("suspended or retired"), m.suspended, STATE_COLOURS["suspended"]),
        ]
        rows.append(
            {
                "m": m,
                "segments": [
                    {"name": n, "count": c, "pct": 100 * c / total, "colour": col}
                    for n, c, col in segments
                    if c > 0
                ],
            }
        )
    return rows


def _prose(text: str) -> str:
    """Displayed card text as HTML, escaped once: a display formula (a matrix, drawn over several lines by
    drill.content.latex, indented) in a ``<pre>`` that keeps its lines and scrolls when wider than the cell
    (focusable, so a keyboard can scroll it); the rest as running text."""
    from markupsafe import escape

    out: list[str] = []
    run: list[str] = []
    math = False  # the run is a display formula's lines (drawn indented), else prose

    def close() -> None:
        shown = str(escape(sanitise.text("\n".join(run))))
        out.append(f'<pre class="math" tabindex="0">{shown}</pre>' if math else f"<span>{shown}</span>")
        run.clear()

    for line in text.split("\n"):
        if not line.strip():
            continue
        indented = line.startswith("  ")
        if run and indented != math:
            close()
        math = indented
        run.append(line if indented else line.strip())
    if run:
        close()
    return " ".join(out)


def _cell(text: str, tag: str) -> str:
    from markupsafe import escape

    shown = escape(sanitise.text(charts.display_text(text)))
    if tag == "th" and not text.strip():  # a table's empty corner: no header without a name
        tag = "td"
    return f"<{tag}>{shown}</{tag}>"


def reading(text: str):
    """Card text in a report cell: formulas as Unicode (a display formula keeps its lines); a table card's
    table as a small HTML table of the row it asks under its header (charts.asked_rows); every piece of text
    escaped exactly once."""
    from markupsafe import Markup

    out = []
    for part in charts.split_tables(text) if "|" in text else [text]:
        if isinstance(part, str):
            out.append(_prose(charts.display_text(part)))
            continue
        head, *body = charts.asked_rows(part)
        rows = "".join("<tr>" + "".join(_cell(c, "td") for c in row) + "</tr>" for row in body)
        out.append(f'<table class="asked"><tr>{"".join(_cell(c, "th") for c in head)}</tr>{rows}</table>')
    return Markup(" ".join(out))


def _finalize(value):
    """Every ``{{ … }}`` value on its way out: text through the output sanitiser (autoescape follows); the
    template's own markup (a macro's output) as it is."""
    from markupsafe import Markup

    if isinstance(value, str) and not isinstance(value, Markup):
        return sanitise.text(value)
    return value


def _environment():
    from jinja2 import Environment, PackageLoader, StrictUndefined

    from drill.i18n import _, ngettext

    env = Environment(
        extensions=["jinja2.ext.i18n"],
        loader=PackageLoader("drill.report", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_finalize,
    )
    env.install_gettext_callables(gettext=_, ngettext=ngettext, newstyle=False)
    env.filters["state_name"] = charts.state_name
    env.filters["rating_name"] = charts.rating_name
    env.filters["weekday"] = charts.weekday
    env.filters["pct"] = charts.pct
    env.filters["num"] = charts.num
    env.filters["duration"] = charts.duration
    env.filters["short_duration"] = charts.short_duration
    env.filters["reading"] = reading
    return env


def skills_context(data: ReportData) -> dict:
    """The readiness-by-skill table (drill.report.skills_view's cells, as every format words them)."""
    return {
        "note": skills_view.note(data),
        "headers": skills_view.headers(data),
        "rows": [
            {"cells": skills_view.cells(data, row), "bar": max(0.0, min(1.0, row.bar))}
            for row in skills_view.rows(data)
        ],
    }


def to_html(data: ReportData) -> str:
    data = sanitise.clean(data)
    template = _environment().get_template("report.html.j2")
    return template.render(
        data=data,
        totals=data.totals,
        states=state_bar(data),
        state_colours=STATE_COLOURS,
        heat=heatmap(data),
        heat_narrow=heatmap(data, blocks=2),
        heat_colours=HEAT_COLOURS,
        forecast=forecast(data),
        forecast_narrow=forecast(data, NARROW),
        forecast_week=sum(d.due for d in data.forecast.days[:7]),
        forecast_month=sum(d.due for d in data.forecast.days),
        quiz=quiz_chart(data),
        quiz_narrow=quiz_chart(data, NARROW),
        coverage=coverage_chart(data),
        coverage_narrow=coverage_chart(data, NARROW),
        readiness=readiness_chart(data),
        readiness_narrow=readiness_chart(data, NARROW),
        mastery=mastery_rows(data),
        skills=skills_context(data),
        new_cards=None
        if data.interview is None
        else new_cards_text(
            None, data.interview.new_needed_per_day, data.interview.new_limit, data.interview.days_left
        ),
        empty_weakest=charts.empty_cards_note(data),
        empty_lapses=charts.empty_cards_note(data, lapses=True),
        lang="zh-CN" if current_language() == "zh" else "en",
    )
