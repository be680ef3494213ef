"""The report as Markdown: headings, tables, and the charts drawn with Unicode blocks in code blocks.

Card text is escaped so no Markdown or HTML in it takes effect when the file is rendered.
"""

from __future__ import annotations

from drill.i18n import _, text_width
from drill.report import charts, interview_scores, sanitise, skills_view
from drill.report.data import STATES, CardFigure, ReportData
from drill.report.mdtext import escape
from drill.report.mdtext import table as _table


def to_markdown(data: ReportData) -> str:
    data = sanitise.clean(data)  # every string a visible stand-in for control/format characters
    parts = [_header(data), _totals(data), _heatmap(data), _retention(data), _forecast(data)]
    parts += [
        _cards(_("Weakest cards (lowest retrievability now)"), data.weakest, charts.empty_cards_note(data)),
        _cards(_("Most lapses"), data.most_lapses, charts.empty_cards_note(data, lapses=True)),
        _quizzes(data),
        _mastery(data),
    ]
    if data.skills is not None:
        parts.append(skills_view.markdown(data))
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
        "# " + _("drill progress report") + f" — {escape(data.user)}",
        "",
        _("Generated {when} UTC. Days are local days in {zone}, starting at {hour}:00 ({source}).").format(
            when=f"{data.generated_at:%Y-%m-%d %H:%M}",
            zone=escape(data.timezone),
            hour=f"{data.day_start_hour:02d}",
            source=escape(_(data.day_start_source)),
        ),
    ]
    active = []
    if f.since:
        active.append(_("since {day}").format(day=f.since.isoformat()))
    if f.section:
        active.append(_("section {section}").format(section=escape(f.section)))
    if f.cohort:
        active.append(_("cohort: all users"))
    if active:
        lines += ["", _("Filters:") + " " + ", ".join(active) + "."]
    return "\n".join(lines)


def _totals(data: ReportData) -> str:
    t = data.totals
    states = _table(
        [*(charts.state_name(s) for s in STATES), _("total")],
        [[str(t.by_state[s]) for s in STATES] + [str(t.cards)]],
        "r" * 7,
    )
    activity = _table(
        [
            _("reviews"),
            _("study time"),
            _("answering"),
            _("session time"),
            _("days studied"),
            _("current streak"),
        ],
        [
            [
                str(t.reviews),
                charts.duration(t.study_seconds),
                charts.duration(t.review_seconds),
                "—" if t.session_seconds is None else charts.duration(t.session_seconds),
                str(t.days_studied),
                _("{n}d").format(n=t.current_streak),
            ]
        ],
        "r" * 6,
    )
    totals, by_state, active = _("Totals"), _("Cards by state"), _("Activity")
    return f"## {totals}\n\n### {by_state}\n\n{states}\n\n### {active}\n\n{activity}"


def _heatmap(data: ReportData) -> str:
    cal = data.calendar
    weeks = charts.heat_weeks(cal)
    rows = charts.heat_row_labels()
    lines = [charts.heat_header(charts.month_labels(weeks), text_width(rows[0]) + 1)]
    for weekday in range(7):
        cells = "".join(
            (charts.HEAT_CHARS[w[weekday].level] * 2) if w[weekday].in_range else "  " for w in weeks
        )
        lines.append(f"{rows[weekday]} {cells}".rstrip())
    legend = "  ".join(
        f"{charts.HEAT_CHARS[level] * 2} {lo if lo == hi else f'{lo}–{hi}'}"
        for level, lo, hi in charts.level_ranges(cal.max_reviews)
    )
    lines += ["", f"{_('less')} {legend}  {_('more')}"]
    return (
        "## "
        + _("Reviews per day, last 26 weeks")
        + "\n\n"
        + _("{start} to {end}; busiest day: {count} reviews.").format(
            start=cal.start.isoformat(), end=cal.end.isoformat(), count=cal.max_reviews
        )
        + "\n\n```text\n"
        + "\n".join(lines)
        + "\n```"
    )


def _retention(data: ReportData) -> str:
    rows = []
    overall = data.retention.overall
    rows.append(
        [
            "**" + _("all") + "**",
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
    table = _table([_("section"), _("reviews"), _("passed"), _("retention"), ""], rows, "lrrrl")
    note = _("The first review of a card on each day counts; Again is a fail, Hard, Good and Easy pass.")
    return "## " + _("True retention") + f"\n\n{note}\n\n{table}"


def _forecast(data: ReportData) -> str:
    fc = data.forecast
    counts = [d.due for d in fc.days]
    chart = charts.column_chart(counts, height=4, width=2)
    axis = "".join(f"{(fc.days[i].day):%d}" if i % 7 == 0 else "  " for i in range(len(fc.days)))
    top = max(counts, default=0)
    body = "\n".join(chart + ["─" * (2 * len(counts)), axis])
    summary = _(
        "Overdue now: **{overdue}**. Due in the next 7 days: **{week}**, in 30 days: **{month}** (busiest day "
        "{top})."
    ).format(overdue=fc.overdue, week=sum(counts[:7]), month=sum(counts), top=top)
    first = fc.days[0].day if fc.days else None
    last = fc.days[-1].day if fc.days else None
    span = (
        " "
        + _("({start} to {end}; day of month below each week)").format(
            start=f"{first:%Y-%m-%d}", end=f"{last:%Y-%m-%d}"
        )
        if first and last
        else ""
    )
    return "## " + _("Due in the next 30 days") + f"\n\n{summary}{span}\n\n```text\n{body}\n```"


def _cards(title: str, cards: list[CardFigure], empty: str) -> str:
    if not cards:
        return f"## {title}\n\n{empty}"
    rows = [
        [
            escape(c.id),
            escape(c.section),
            escape(charts.display_text(c.question)),
            charts.pct(c.retrievability, 0),
            str(c.lapses),
            str(c.reviews),
            charts.rating_name(c.last_rating),
        ]
        for c in cards
    ]
    return f"## {title}\n\n" + _table(
        [_("card"), _("section"), _("question"), "R", _("lapses"), _("reviews"), _("last")], rows, "lllrrrl"
    )


def _quizzes(data: ReportData) -> str:
    if not data.quizzes:
        return "## " + _("Quiz scores over time") + "\n\n" + _("No quizzes taken.")
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
    head = "## " + _("Quiz scores over time") + "\n\n" + _("Trend (oldest first):")
    return f"{head} `{trend}`\n\n" + _table([_("when (UTC)"), _("quiz"), _("score"), "%", ""], rows, "llrrl")


def _interview(data: ReportData) -> str:
    iv = data.interview
    assert iv is not None  # the caller shows this section only when there is one
    lines = [
        "## " + _("Interview day"),
        "",
        _(
            "Interview on {day} ({left} days left), target recall {target}. Readiness on the day: **{followed}** "
            "if the plan is followed, {stopped} if reviews stop now."
        ).format(
            day=iv.interview_day.isoformat(),
            left=iv.days_left,
            target=charts.pct(iv.target, 0),
            followed=charts.pct(iv.if_followed, 0),
            stopped=charts.pct(iv.if_no_reviews, 0),
        ),
    ]
    from drill.report.skills import new_cards_text

    lines += ["", new_cards_text(None, iv.new_needed_per_day, iv.new_limit, iv.days_left) + "."]
    trend = charts.sparkline([d.readiness for d in iv.days], 1)
    lines += ["", _("Readiness over the days to come (if followed, today first):") + f" `{trend}`", ""]
    lines.append(
        _table(
            [_("day"), _("reviews"), _("new"), _("readiness"), ""],
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
            [_("section"), _("cards"), _("if followed"), _("if reviews stop")],
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
            _("Most at risk (recall on the day if not reviewed again):"),
            "",
            _table(
                [_("card"), _("section"), _("recall"), _("question")],
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
    assert c is not None  # the caller shows this section only when there is one
    head = (
        "## "
        + _("Coding (drill code)")
        + "\n\n"
        + _("{passed} of {tried} tasks passed, {runs} runs, {time}.").format(
            passed=c.tasks_passed, tried=c.tasks_tried, runs=c.attempts, time=charts.duration(c.seconds)
        )
    )
    if not c.mistakes:
        return head + " " + _("No mistakes diagnosed.")
    return (
        head
        + "\n\n"
        + _table(
            [_("mistake diagnosed most often"), _("runs")],
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
            _("section"),
            _("cards"),
            _("new"),
            _("learning"),
            _("review"),
            _("mastered"),
            _("out"),
            _("mean R"),
            _("retention"),
            _("mastery"),
        ],
        rows,
        "lrrrrrrrrl",
    )
    note = _("Mastered: in review with a stability of 21 days or more. *out*: suspended or retired.")
    return "## " + _("Mastery by section") + f"\n\n{note}\n\n{table}"


def _cohort(data: ReportData) -> str:
    cohort = data.cohort
    assert cohort is not None  # the caller shows this section only when there is one
    users = _table(
        ["#", _("user"), _("cards seen"), _("mastered"), _("reviews"), _("retention"), _("progress")],
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
        [_("card"), _("section"), _("question"), _("users"), _("reviews"), _("fails"), _("failure rate")],
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
        "## "
        + _("Cohort")
        + "\n\n### "
        + _("Users ranked by progress")
        + "\n\n"
        + users
        + "\n\n### "
        + _("Questions by failure rate across the cohort")
        + "\n\n"
        + questions
    )
