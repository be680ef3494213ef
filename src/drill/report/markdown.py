"""The report as Markdown: headings, tables, and the charts drawn with Unicode blocks in code blocks.

Card text is escaped so no Markdown or HTML in it takes effect when the file is rendered.
"""

from __future__ import annotations

import re

from drill.report import charts, interview_scores
from drill.report.data import STATES, CardFigure, ReportData

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~])")


def escape(text: str) -> str:
    """Inline text for a Markdown table cell: one line, HTML entities, Markdown punctuation backslashed."""
    flat = " ".join(text.split())
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", flat)


def _table(header: list[str], rows: list[list[str]], align: str | None = None) -> str:
    align = align or "l" + "r" * (len(header) - 1)
    rule = ["---" if a == "l" else "--:" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def to_markdown(data: ReportData) -> str:
    parts = [_header(data), _totals(data), _heatmap(data), _retention(data), _forecast(data)]
    parts += [
        _cards("Weakest cards (lowest retrievability now)", data.weakest),
        _cards("Most lapses", data.most_lapses),
        _quizzes(data),
        _mastery(data),
    ]
    if data.interview is not None:
        parts.append(_interview(data))
    if data.coding is not None and data.coding.attempts:
        parts.append(_coding(data))
    if data.interview_scores is not None:
        parts.append(interview_scores.markdown(data.interview_scores))
    if data.cohort is not None:
        parts.append(_cohort(data))
    return "\n\n".join(parts) + "\n"


def _header(data: ReportData) -> str:
    f = data.filters
    lines = [
        f"# drill progress report — {escape(data.user)}",
        "",
        f"Generated {data.generated_at:%Y-%m-%d %H:%M} UTC. Days are local days in {escape(data.timezone)}, "
        f"starting at {data.day_start_hour:02d}:00 ({escape(data.day_start_source)}).",
    ]
    active = []
    if f.since:
        active.append(f"since {f.since.isoformat()}")
    if f.section:
        active.append(f"section {escape(f.section)}")
    if f.cohort:
        active.append("cohort: all users")
    if active:
        lines += ["", "Filters: " + ", ".join(active) + "."]
    return "\n".join(lines)


def _totals(data: ReportData) -> str:
    t = data.totals
    states = _table([*STATES, "total"], [[str(t.by_state[s]) for s in STATES] + [str(t.cards)]], "r" * 7)
    activity = _table(
        ["reviews", "study time", "answering", "sessions", "days studied", "current streak"],
        [
            [
                str(t.reviews),
                charts.duration(t.study_seconds),
                charts.duration(t.review_seconds),
                "—" if t.session_seconds is None else charts.duration(t.session_seconds),
                str(t.days_studied),
                f"{t.current_streak} d",
            ]
        ],
        "r" * 6,
    )
    return f"## Totals\n\n### Cards by state\n\n{states}\n\n### Activity\n\n{activity}"


def _heatmap(data: ReportData) -> str:
    cal = data.calendar
    weeks = charts.heat_weeks(cal)
    labels = charts.month_labels(weeks)
    header = list("    " + "  " * len(weeks))
    for i, label in enumerate(labels):
        for j, ch in enumerate(label):
            if 4 + 2 * i + j < len(header):
                header[4 + 2 * i + j] = ch
    lines = ["".join(header).rstrip()]
    for weekday in range(7):
        cells = "".join(
            (charts.HEAT_CHARS[w[weekday].level] * 2) if w[weekday].in_range else "  " for w in weeks
        )
        lines.append(f"{charts.WEEKDAYS[weekday]} {cells}".rstrip())
    legend = "  ".join(
        f"{charts.HEAT_CHARS[level] * 2} {lo if lo == hi else f'{lo}–{hi}'}"
        for level, lo, hi in charts.level_ranges(cal.max_reviews)
    )
    lines += ["", f"less {legend}  more"]
    return (
        f"## Reviews per day, last 26 weeks\n\n{cal.start.isoformat()} to {cal.end.isoformat()}; "
        f"busiest day: {cal.max_reviews} reviews.\n\n```text\n" + "\n".join(lines) + "\n```"
    )


def _retention(data: ReportData) -> str:
    rows = []
    overall = data.retention.overall
    rows.append(
        [
            "**all**",
            str(overall.reviews),
            str(overall.passed),
            charts.pct(overall.rate),
            charts.bar(overall.rate or 0, 1, 20),
        ]
    )
    for item in data.retention.by_section:
        r = item.retention
        rows.append(
            [
                escape(item.section),
                str(r.reviews),
                str(r.passed),
                charts.pct(r.rate),
                charts.bar(r.rate or 0, 1, 20),
            ]
        )
    table = _table(["section", "reviews", "passed", "retention", ""], rows, "lrrrl")
    return (
        "## True retention\n\nThe first review of a card on each day counts; Again is a fail, Hard, Good and "
        f"Easy pass.\n\n{table}"
    )


def _forecast(data: ReportData) -> str:
    fc = data.forecast
    counts = [d.due for d in fc.days]
    chart = charts.column_chart(counts, height=4, width=2)
    axis = "".join(f"{(fc.days[i].day):%d}" if i % 7 == 0 else "  " for i in range(len(fc.days)))
    top = max(counts, default=0)
    body = "\n".join(chart + ["─" * (2 * len(counts)), axis])
    summary = (
        f"Overdue now: **{fc.overdue}**. Due in the next 7 days: **{sum(counts[:7])}**, "
        f"in 30 days: **{sum(counts)}** (busiest day {top})."
    )
    first = fc.days[0].day if fc.days else None
    last = fc.days[-1].day if fc.days else None
    span = f" ({first:%Y-%m-%d} to {last:%Y-%m-%d}; day of month below each week)" if first and last else ""
    return f"## Due in the next 30 days\n\n{summary}{span}\n\n```text\n{body}\n```"


def _cards(title: str, cards: list[CardFigure]) -> str:
    if not cards:
        return f"## {title}\n\nNo reviewed cards yet."
    rows = [
        [
            escape(c.id),
            escape(c.section),
            escape(charts.display_text(c.question)),
            charts.pct(c.retrievability, 0),
            str(c.lapses),
            str(c.reviews),
            c.last_rating or "—",
        ]
        for c in cards
    ]
    return f"## {title}\n\n" + _table(
        ["card", "section", "question", "R", "lapses", "reviews", "last"], rows, "lllrrrl"
    )


def _quizzes(data: ReportData) -> str:
    if not data.quizzes:
        return "## Quiz scores over time\n\nNo quizzes taken."
    rows = [
        [
            f"{q.started_at:%Y-%m-%d %H:%M}",
            escape(q.quiz),
            f"{q.correct}/{q.total}",
            charts.pct(q.percent, 0),
            charts.bar(q.percent or 0, 1, 20),
        ]
        for q in data.quizzes
    ]
    trend = charts.sparkline([q.percent or 0 for q in data.quizzes], 1)
    return f"## Quiz scores over time\n\nTrend (oldest first): `{trend}`\n\n" + _table(
        ["when (UTC)", "quiz", "score", "%", ""], rows, "llrrl"
    )


def _interview(data: ReportData) -> str:
    iv = data.interview
    lines = [
        "## Interview day",
        "",
        f"Interview on {iv.interview_day.isoformat()} ({iv.days_left} days left), target recall {charts.pct(iv.target, 0)}. "
        f"Readiness on the day: **{charts.pct(iv.if_followed, 0)}** if the plan is followed, "
        f"{charts.pct(iv.if_no_reviews, 0)} if reviews stop now.",
    ]
    if iv.new_needed_per_day > iv.new_limit:
        lines += ["", f"{iv.new_needed_per_day} new cards a day needed, your limit is {iv.new_limit}."]
    trend = charts.sparkline([d.readiness for d in iv.days], 1)
    lines += ["", f"Readiness over the days to come (if followed, today first): `{trend}`", ""]
    lines.append(
        _table(
            ["day", "reviews", "new", "readiness", ""],
            [
                [
                    d.day.isoformat(),
                    str(d.reviews),
                    str(d.new),
                    charts.pct(d.readiness, 0),
                    charts.bar(d.readiness, 1, 20),
                ]
                for d in iv.days
            ],
            "lrrrl",
        )
    )
    lines += [
        "",
        _table(
            ["section", "cards", "if followed", "if reviews stop"],
            [
                [
                    escape(s.section),
                    str(s.cards),
                    charts.pct(s.if_followed, 0),
                    charts.pct(s.if_no_reviews, 0),
                ]
                for s in iv.sections
            ],
            "lrrr",
        ),
    ]
    if iv.at_risk:
        lines += [
            "",
            "Most at risk (recall on the day if not reviewed again):",
            "",
            _table(
                ["card", "section", "recall", "question"],
                [
                    [escape(c.card), escape(c.section), charts.pct(c.recall, 0), escape(c.question)]
                    for c in iv.at_risk
                ],
                "llrl",
            ),
        ]
    return "\n".join(lines)


def _coding(data: ReportData) -> str:
    c = data.coding
    head = (
        f"## Coding (drill code)\n\n{c.tasks_passed} of {c.tasks_tried} tasks passed, {c.attempts} runs, "
        f"{charts.duration(c.seconds)}."
    )
    if not c.mistakes:
        return head + " No mistakes diagnosed."
    return (
        head
        + "\n\n"
        + _table(
            ["mistake diagnosed most often", "runs"],
            [[escape(m.mistake), str(m.count)] for m in c.mistakes],
            "lr",
        )
    )


def _mastery(data: ReportData) -> str:
    rows = [
        [
            escape(m.section),
            str(m.cards),
            str(m.new),
            str(m.learning),
            str(m.review),
            str(m.mastered),
            str(m.suspended),
            charts.pct(m.mean_retrievability, 0),
            charts.pct(m.retention, 0),
            f"{charts.pct(m.mastery, 0)} {charts.bar(m.mastery, 1, 10)}",
        ]
        for m in data.mastery
    ]
    table = _table(
        [
            "section",
            "cards",
            "new",
            "learning",
            "review",
            "mastered",
            "out",
            "mean R",
            "retention",
            "mastery",
        ],
        rows,
        "lrrrrrrrrl",
    )
    return (
        "## Mastery by section\n\nMastered: in review with a stability of 21 days or more. "
        f"*out*: suspended or retired.\n\n{table}"
    )


def _cohort(data: ReportData) -> str:
    cohort = data.cohort
    users = _table(
        ["#", "user", "cards seen", "mastered", "reviews", "retention", "progress"],
        [
            [
                str(u.rank),
                escape(u.user),
                str(u.cards_seen),
                str(u.mastered),
                str(u.reviews),
                charts.pct(u.retention),
                charts.pct(u.progress),
            ]
            for u in cohort.users
        ],
        "rlrrrrr",
    )
    questions = _table(
        ["card", "section", "question", "users", "reviews", "fails", "failure rate"],
        [
            [
                escape(q.card),
                escape(q.section),
                escape(charts.display_text(q.question)),
                str(q.users),
                str(q.reviews),
                str(q.failures),
                charts.pct(q.failure_rate),
            ]
            for q in cohort.questions
        ],
        "lllrrrr",
    )
    return (
        "## Cohort\n\n### Users ranked by progress\n\n"
        + users
        + "\n\n### Questions by failure rate across the cohort\n\n"
        + questions
    )
