"""The report in the terminal, with Rich. Card text goes in ``Text`` objects, never parsed as markup."""

from __future__ import annotations

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from drill.i18n import N_, _, text_width
from drill.report import charts, interview_scores, sanitise, skills_view
from drill.report.data import STATES, CardFigure, ReportData

HEAT_STYLES = ("grey35", "green4", "green3", "green1", "bold bright_green")
STATE_STYLES = {
    "new": "bright_blue",
    "learning": "yellow",
    "review": "green",
    "relearning": "red",
    "suspended": "grey50",
    "retired": "grey42",
}


def render(data: ReportData, console: Console) -> None:
    for part in renderables(data):
        console.print(part)


def renderables(data: ReportData) -> list[RenderableType]:
    data = sanitise.clean(data)  # every string a visible stand-in for control/format characters
    parts: list[RenderableType] = [
        _header(data),
        _totals(data),
        _heatmap(data),
        _retention(data),
        _forecast(data),
    ]
    parts += [_weakest(data), _quizzes(data), _mastery(data)]
    if data.skills is not None:
        parts += skills_view.terminal(data)
    if data.coding is not None and data.coding.attempts:
        parts.append(_coding(data))
    if data.interview is not None:
        parts += _interview(data)
    if data.interview_scores is not None:
        parts += interview_scores.terminal(data.interview_scores)
    if data.cohort is not None:
        parts += _cohort(data)
    return parts


def _title(text: str) -> Text:
    return Text(text, style="bold")


def _header(data: ReportData) -> RenderableType:
    lines = Text()
    lines.append(_("drill progress report"), style="bold cyan")
    lines.append("  —  ")
    lines.append(data.user, style="bold")
    lines.append(
        "\n"
        + _("generated {when} UTC · days in {zone}, starting at {hour}:00 ({source})").format(
            when=f"{data.generated_at:%Y-%m-%d %H:%M}",
            zone=data.timezone,
            hour=f"{data.day_start_hour:02d}",
            source=_(data.day_start_source),
        )
    )
    active = [f"{name} {value}" for name, value in _filters(data) if value]
    if active:
        lines.append("\n" + _("filters:") + " " + ", ".join(active), style="italic")
    return Panel(lines, box=box.ROUNDED, expand=False)


def _filters(data: ReportData) -> list[tuple[str, object]]:
    f = data.filters
    return [
        (_("since"), f.since.isoformat() if f.since else None),
        (_("section"), f.section),
        (_("cohort"), _("all users") if f.cohort else None),
    ]


def _totals(data: ReportData) -> RenderableType:
    t = data.totals
    states = Table(box=box.SIMPLE_HEAD, title=_title(_("Cards by state")), title_justify="left")
    for state in STATES:
        states.add_column(charts.state_name(state), justify="right", style=STATE_STYLES[state])
    states.add_column(_("total"), justify="right", style="bold")
    states.add_row(*(str(t.by_state.get(s, 0)) for s in STATES), str(t.cards))

    activity = Table(box=box.SIMPLE_HEAD, title=_title(_("Activity")), title_justify="left")
    for name in (_("reviews"), _("study time"), _("answering"), _("days studied"), _("current streak")):
        activity.add_column(name, justify="right")
    activity.add_row(
        str(t.reviews),
        charts.duration(t.study_seconds),
        charts.duration(t.review_seconds),
        str(t.days_studied),
        _("{n}d").format(n=t.current_streak),
    )
    return Group(states, activity)


def _heatmap(data: ReportData) -> RenderableType:
    cal = data.calendar
    weeks = charts.heat_weeks(cal)
    out = Text()
    out.append(_("Reviews per day, last 26 weeks") + "\n", style="bold")
    rows = charts.heat_row_labels()
    indent = text_width(rows[0]) + 1
    out.append(charts.heat_header(charts.month_labels(weeks), indent) + "\n", style="dim")
    for weekday in range(7):
        out.append(rows[weekday] + " ", style="dim")
        for week in weeks:
            cell = week[weekday]
            if not cell.in_range:
                out.append("  ")
                continue
            out.append(charts.HEAT_CHARS[cell.level] * 2, style=HEAT_STYLES[cell.level])
        out.append("\n")
    out.append(" " * indent + _("less") + " ", style="dim")
    for level, lo, hi in charts.level_ranges(cal.max_reviews):
        out.append(charts.HEAT_CHARS[level] * 2, style=HEAT_STYLES[level])
        out.append(f" {lo}" if lo == hi else f" {lo}–{hi}", style="dim")
        out.append("  ")
    out.append(_("more"), style="dim")
    busiest = _("{start} to {end}; busiest day: {count} reviews.").format(
        start=cal.start.isoformat(), end=cal.end.isoformat(), count=cal.max_reviews
    )
    out.append("\n" + " " * indent + busiest, style="dim")
    return out


def _retention(data: ReportData) -> RenderableType:
    table = Table(
        box=box.SIMPLE_HEAD,
        title=_title(_("True retention") + " " + _("(first review of a card each day; Again = fail)")),
        title_justify="left",
    )
    table.add_column(_("section"))
    table.add_column(_("reviews"), justify="right")
    table.add_column(_("passed"), justify="right")
    table.add_column(_("retention"), justify="right")
    table.add_column("", min_width=20)
    overall = data.retention.overall
    table.add_row(
        Text(_("all"), style="bold"),
        str(overall.reviews),
        str(overall.passed),
        charts.pct(overall.rate),
        Text(charts.bar(overall.rate or 0, 1, 20), style="cyan"),
    )
    for item in data.retention.by_section:
        r = item.retention
        table.add_row(
            Text(item.section),
            str(r.reviews),
            str(r.passed),
            charts.pct(r.rate),
            Text(charts.bar(r.rate or 0, 1, 20), style="cyan"),
        )
    return table


def _forecast(data: ReportData) -> RenderableType:
    fc = data.forecast
    counts = [d.due for d in fc.days]
    top = max(counts, default=0)
    out = Text()
    out.append(_("Due in the next 30 days") + "\n", style="bold")
    out.append(
        _("Overdue now: {overdue}. Due in the next 7 days: {week}, in 30 days: {month}.").format(
            overdue=fc.overdue, week=sum(counts[:7]), month=sum(counts)
        )
        + "\n"
    )
    if fc.days:
        for row in charts.column_chart(counts, height=4, width=2):
            out.append(row + "\n", style="magenta")
        out.append("─" * (2 * len(counts)) + " " + _("max {count}/day").format(count=top) + "\n", style="dim")
        out.append(
            "".join(f"{fc.days[i].day:%d}" if i % 7 == 0 else "  " for i in range(len(counts))), style="dim"
        )
        today = f"{fc.days[0].day:%Y-%m-%d}"
        out.append("   " + _("(day of month; today {day})").format(day=today), style="dim")
    return out


def _card_table(title: str, cards: list[CardFigure], empty: str) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title=_title(title), title_justify="left")
    table.add_column(_("card"), no_wrap=True)
    table.add_column(_("section"), no_wrap=True)
    # The question gives way (ellipsis) so the figures fit an 80-column terminal whole.
    table.add_column(_("question"), ratio=1, overflow="ellipsis", no_wrap=True, max_width=30)
    table.add_column("R", justify="right", no_wrap=True)
    table.add_column(_("lapses"), justify="right", no_wrap=True)
    table.add_column(_("reviews"), justify="right", no_wrap=True)
    for card in cards:
        table.add_row(
            Text(card.id),
            Text(card.section),
            Text(charts.one_line(card.question)),
            charts.pct(card.retrievability, 0),
            str(card.lapses),
            str(card.reviews),
        )
    if not cards:
        table.add_row(Text("—"), "", "", "", "", "")
        table.caption = empty  # (the question column is too narrow for it)
    return table


def _weakest(data: ReportData) -> RenderableType:
    return Group(
        _card_table(
            _("Weakest cards (lowest retrievability now)"), data.weakest, charts.empty_cards_note(data)
        ),
        _card_table(_("Most lapses"), data.most_lapses, charts.empty_cards_note(data, lapses=True)),
    )


def _quizzes(data: ReportData) -> RenderableType:
    table = Table(box=box.SIMPLE_HEAD, title=_title(_("Quiz scores over time")), title_justify="left")
    table.add_column(_("when (UTC)"))
    table.add_column(_("quiz"))
    table.add_column(_("score"), justify="right")
    table.add_column("", min_width=20)
    for q in data.quizzes[-15:]:
        table.add_row(
            f"{q.started_at:%Y-%m-%d %H:%M}",
            Text(q.quiz),
            f"{q.correct}/{q.total} ({charts.pct(q.percent, 0)})",
            Text(charts.bar(q.percent or 0, 1, 20), style="blue"),
        )
    if not data.quizzes:
        table.add_row("—", Text(_("No quizzes taken."), style="dim"), "", "")
    elif len(data.quizzes) > 15:
        trend = charts.sparkline([q.percent or 0 for q in data.quizzes], 1)
        table.caption = _("all {count} attempts: {trend}").format(count=len(data.quizzes), trend=trend)
    return table


def _interview(data: ReportData) -> list[RenderableType]:
    iv = data.interview
    assert iv is not None  # the caller shows this section only when there is one
    summary = Text(
        _(
            "{day} · {left} days left · target {target} · ready {followed} if the plan is followed, {stopped} if "
            "reviews stop now"
        ).format(
            day=iv.interview_day.isoformat(),
            left=iv.days_left,
            target=charts.pct(iv.target, 0),
            followed=charts.pct(iv.if_followed, 0),
            stopped=charts.pct(iv.if_no_reviews, 0),
        )
    )
    parts: list[RenderableType] = [_title(_("Interview day")), summary]
    from drill.report.skills import new_cards_text

    parts.append(
        Text(
            new_cards_text(None, iv.new_needed_per_day, iv.new_limit, iv.days_left),
            style="yellow" if iv.new_needed_per_day > iv.new_limit else "",
        )
    )
    trend = charts.sparkline([d.readiness for d in iv.days], 1)
    parts.append(Text(_("Readiness over the days to come (if followed, today first):") + " " + trend))
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column(_("section"))
    table.add_column(_("cards"), justify="right")
    table.add_column(_("if followed"), justify="right")
    table.add_column(_("if reviews stop"), justify="right")
    table.add_column("", min_width=20)
    for s in iv.sections:
        table.add_row(
            Text(s.section),
            str(s.cards),
            charts.pct(s.if_followed, 0),
            charts.pct(s.if_no_reviews, 0),
            Text(charts.bar(s.if_followed, 1, 20), style="green"),
        )
    parts.append(table)
    if iv.at_risk:
        risk = Table(
            box=box.SIMPLE_HEAD,
            title=Text(_("Most at risk (recall on the day if not reviewed again):")),
            title_justify="left",
        )
        risk.add_column(_("card"))
        risk.add_column(_("section"))
        risk.add_column(_("recall"), justify="right")
        risk.add_column(_("question"))
        for c in iv.at_risk:
            risk.add_row(
                Text(c.card), Text(c.section), charts.pct(c.recall, 0), Text(charts.one_line(c.question, 50))
            )
        parts.append(risk)
    return parts


def _coding(data: ReportData) -> RenderableType:
    c = data.coding
    assert c is not None  # the caller shows this section only when there is one
    table = Table(box=box.SIMPLE_HEAD, title=_title(_("Coding (drill code)")), title_justify="left")
    table.add_column(_("mistake diagnosed most often"))
    table.add_column(_("runs"), justify="right")
    for m in c.mistakes:
        table.add_row(Text(m.mistake), str(m.count))
    if not c.mistakes:
        table.add_row(Text(_("No mistakes diagnosed."), style="dim"), "")
    table.caption = _("{passed} of {tried} tasks passed, {runs} runs, {time}.").format(
        passed=c.tasks_passed, tried=c.tasks_tried, runs=c.attempts, time=charts.duration(c.seconds)
    )
    return table


def _mastery(data: ReportData) -> RenderableType:
    table = Table(
        box=box.SIMPLE_HEAD, title=_title(_("Mastery by section")), title_justify="left", pad_edge=False
    )
    # Short headers and an 8-cell bar: the table fits an 80-column terminal without truncating a figure.
    for i, name in enumerate(
        (
            N_("section"),
            N_("cards"),
            N_("new"),
            N_("learn"),
            N_("review"),
            N_("mastered"),
            N_("mean R"),
            N_("retain"),
        )
    ):
        table.add_column(_(name), justify="left" if i == 0 else "right", no_wrap=True)
    table.add_column(_("mastery"), no_wrap=True)
    for m in data.mastery:
        table.add_row(
            Text(m.section),
            str(m.cards),
            str(m.new),
            str(m.learning),
            str(m.review),
            str(m.mastered),
            charts.pct(m.mean_retrievability, 0),
            charts.pct(m.retention, 0),
            Text(f"{charts.pct(m.mastery, 0):>4} ") + Text(charts.bar(m.mastery, 1, 8), style="green"),
        )
    return table


def _cohort(data: ReportData) -> list[RenderableType]:
    cohort = data.cohort
    assert cohort is not None  # the caller shows this section only when there is one
    users = Table(
        box=box.SIMPLE_HEAD,
        title=_title(_("Cohort") + ": " + _("Users ranked by progress")),
        title_justify="left",
    )
    for i, name in enumerate(
        ("#", N_("user"), N_("cards seen"), N_("mastered"), N_("reviews"), N_("retention"), N_("progress"))
    ):
        users.add_column(_(name) if i else name, justify="left" if i == 1 else "right")
    for u in cohort.users:
        users.add_row(
            str(u.rank),
            Text(u.user),
            str(u.cards_seen),
            str(u.mastered),
            str(u.reviews),
            charts.pct(u.retention),
            charts.pct(u.progress),
        )
    questions = Table(
        box=box.SIMPLE_HEAD,
        title=_title(_("Cohort") + ": " + _("Questions by failure rate across the cohort")),
        title_justify="left",
    )
    for i, name in enumerate(
        (
            N_("card"),
            N_("section"),
            N_("question"),
            N_("users"),
            N_("reviews"),
            N_("fails"),
            N_("failure rate"),
        )
    ):
        questions.add_column(_(name), justify="right" if i >= 3 else "left")
    for q in cohort.questions[:20]:
        questions.add_row(
            Text(q.card),
            Text(q.section),
            Text(charts.one_line(q.question, 50)),
            str(q.users),
            str(q.reviews),
            str(q.failures),
            charts.pct(q.failure_rate),
        )
    return [users, questions]
