"""The report's mock-interview section (`drill interview` scorecards): each interview in time order (questions,
mean coverage of the key points, traps hit, time) — coverage over time — the slowest questions, the points
missed most often and the misconceptions stated most often. Figures, their query and their terminal / Markdown renderings live here; JSON is the
figures themselves (``ReportData.interview_scores``, schema 1.3; ``most_stated`` since 1.4).

Rows are one per question answered (a learner answers tens, not thousands), added up in Python. ``--since``
counts interviews started on or after the day; ``--section`` keeps the questions of that section.
No heavy import at module level: ``drill.report.data`` imports the figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from drill.content.sections import covers
from drill.i18n import _
from drill.report.sanitise import text as visible

TOP = 5


def _text(text: str) -> str:
    """A stored or chapter string for a report: formulas drawn, then the one output sanitiser (stand-ins)."""
    from drill.report import charts

    return visible(charts.display_text(text))


@dataclass(frozen=True)
class ScoredInterview:
    started_at: datetime
    finished: bool  # False: stopped before the last question
    questions: int
    coverage: float  # mean share of the key points covered
    traps_hit: int
    seconds: float  # answering time, summed


@dataclass(frozen=True)
class SlowQuestion:
    card: str
    section: str
    question: str
    answers: int
    mean_seconds: float
    timed_out: int  # answers that ran out of time


@dataclass(frozen=True)
class MissedPoint:
    point: str
    count: int


@dataclass(frozen=True)
class StatedMisconception:
    # a shipped misconception's id (drill.content.misconceptions); older rows: the trap's text
    misconception: str
    count: int


@dataclass(frozen=True)
class CardScore:
    """One card's answers in the interviews in scope (the CSV report's ``mock_*`` columns)."""

    answers: int
    coverage: float  # mean share of the key points covered
    seconds: float  # mean answering time
    timed_out: int
    traps_hit: int
    missed: tuple[str, ...]  # the points missed, most often first (ties: first missed first)


@dataclass(frozen=True)
class InterviewScores:
    interviews: list[ScoredInterview]  # oldest first
    questions: int
    mean_coverage: float
    slowest: list[SlowQuestion]  # the longest mean answering time first
    most_missed: list[MissedPoint]
    # the misconceptions stated most often (ids since the answer judge; older rows hold the trap's text); in the
    # JSON document since schema 1.4
    most_stated: list[StatedMisconception] = field(default_factory=list)
    # every card answered, by id: for the per-card CSV (not in the JSON document)
    by_card: dict[str, CardScore] = field(default_factory=dict, metadata={"json": False})


def interview_scores(
    conn: Any, user_id: int, since_at: datetime | None, section: str | None, questions: dict[str, str]
) -> InterviewScores | None:
    """The figures for ``user_id``, or None when the user answered no interview question in scope."""
    from sqlalchemy import select

    from drill.store.tables import interview_answers_t, interview_sessions_t
    from drill.store.times import as_utc

    s, a = interview_sessions_t.c, interview_answers_t.c
    query = (
        select(
            s.id,
            s.started_at,
            s.finished_at,
            a.card_id,
            a.section,
            a.duration_ms,
            a.timed_out,
            a.coverage,
            a.traps_hit,
            a.points_missed,
        )
        .select_from(interview_answers_t.join(interview_sessions_t, a.session_id == s.id))
        .where(s.user_id == user_id)
        .order_by(s.started_at, s.id, a.position, a.id)
    )
    if since_at is not None:
        query = query.where(s.started_at >= since_at)
    rows = [r for r in conn.execute(query) if covers(section, r.section)]
    if not rows:
        return None
    sessions: dict[int, list] = {}
    per_card: dict[str, list] = {}
    missed: dict[str, int] = {}
    stated: dict[str, int] = {}
    for row in rows:
        for trap in row.traps_hit or ():
            stated[trap] = stated.get(trap, 0) + 1
        sessions.setdefault(row.id, []).append(row)
        per_card.setdefault(row.card_id, []).append(row)
        for point in row.points_missed or ():
            missed[point] = missed.get(point, 0) + 1
    interviews = [
        ScoredInterview(
            started_at=as_utc(group[0].started_at),
            finished=group[0].finished_at is not None,
            questions=len(group),
            coverage=sum(r.coverage for r in group) / len(group),
            traps_hit=sum(len(r.traps_hit or ()) for r in group),
            seconds=sum(r.duration_ms for r in group) / 1000,
        )
        for group in sessions.values()
    ]
    slowest = sorted(
        (
            SlowQuestion(
                card=card,
                section=group[0].section,
                question=questions.get(card, ""),
                answers=len(group),
                mean_seconds=sum(r.duration_ms for r in group) / len(group) / 1000,
                timed_out=sum(1 for r in group if r.timed_out),
            )
            for card, group in per_card.items()
        ),
        key=lambda q: (-q.mean_seconds, q.card),
    )[:TOP]
    return InterviewScores(
        interviews=interviews,
        questions=len(rows),
        mean_coverage=sum(r.coverage for r in rows) / len(rows),
        slowest=slowest,
        most_missed=[MissedPoint(p, n) for p, n in sorted(missed.items(), key=lambda kv: -kv[1])[:TOP]],
        most_stated=[
            StatedMisconception(m, n) for m, n in sorted(stated.items(), key=lambda kv: -kv[1])[:TOP]
        ],
        by_card={card: _card_score(group) for card, group in per_card.items()},
    )


def _card_score(rows: list) -> CardScore:
    missed: dict[str, int] = {}
    for row in rows:
        for point in row.points_missed or ():
            missed[point] = missed.get(point, 0) + 1
    return CardScore(
        answers=len(rows),
        coverage=sum(r.coverage for r in rows) / len(rows),
        seconds=sum(r.duration_ms for r in rows) / len(rows) / 1000,
        timed_out=sum(1 for r in rows if r.timed_out),
        traps_hit=sum(len(r.traps_hit or ()) for r in rows),
        missed=tuple(p for p, _n in sorted(missed.items(), key=lambda kv: -kv[1])),
    )


# --- renderings ------------------------------------------------------------------------------------------


def _summary(scores: InterviewScores) -> str:
    return _(
        "{interviews} mock interviews, {questions} questions, mean coverage of the key points {coverage}."
    ).format(
        interviews=len(scores.interviews), questions=scores.questions, coverage=f"{scores.mean_coverage:.0%}"
    )


def terminal(scores: InterviewScores) -> list:
    """Rich renderables; every stored or chapter string goes in as ``Text`` (never markup)."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from drill.report import charts

    parts: list = [Text(_("Mock interviews (drill interview)"), style="bold"), Text(_summary(scores))]
    parts.append(
        Text(
            _("coverage over time: {spark}").format(
                spark=charts.sparkline([i.coverage for i in scores.interviews], 1)
            )
        )
    )
    table = Table(box=box.SIMPLE_HEAD)
    for name, justify in (
        (_("started"), "left"),
        (_("questions"), "right"),
        (_("coverage"), "right"),
        (_("traps hit"), "right"),
        (_("time"), "right"),
    ):
        table.add_column(name, justify=justify, no_wrap=True)
    for i in scores.interviews[-10:]:
        mark = "" if i.finished else " " + _("(stopped)")
        table.add_row(
            Text(f"{i.started_at:%Y-%m-%d %H:%M}{mark}"),
            str(i.questions),
            f"{i.coverage:.0%}",
            str(i.traps_hit),
            charts.duration(i.seconds),
        )
    parts.append(table)
    slow = Table(box=box.SIMPLE_HEAD, title=Text(_("slowest questions")), title_justify="left")
    for name, justify in (
        (_("card"), "left"),
        (_("section"), "left"),
        (_("mean time"), "right"),
        (_("timed out"), "right"),
        (_("question"), "left"),
    ):
        slow.add_column(name, justify=justify, no_wrap=name != _("question"))
    for q in scores.slowest:
        slow.add_row(
            Text(visible(q.card)),
            Text(visible(q.section)),
            charts.duration(q.mean_seconds),
            f"{q.timed_out}/{q.answers}",
            Text(charts.one_line(_text(q.question), 50)),
        )
    parts.append(slow)
    if scores.most_missed:
        missed = Table(box=box.SIMPLE_HEAD, title=Text(_("points missed most often")), title_justify="left")
        missed.add_column(_("point"))
        missed.add_column(_("times"), justify="right")
        for m in scores.most_missed:
            missed.add_row(Text(charts.one_line(_text(m.point), 70)), str(m.count))
        parts.append(missed)
    if scores.most_stated:
        stated = Table(
            box=box.SIMPLE_HEAD, title=Text(_("misconceptions stated most often")), title_justify="left"
        )
        stated.add_column(_("misconception (drill's wording)"))
        stated.add_column(_("times"), justify="right")
        for belief in scores.most_stated:
            shown = _text(misconception_text(belief.misconception))
            stated.add_row(Text(charts.one_line(shown, 70)), str(belief.count))
        parts.append(stated)
    return parts


def misconception_text(stored: str) -> str:
    """A stored trap as the learner reads it: a misconception id as its wrong belief in the UI language (the
    shipped misconceptions); anything else (an older row's trap text, an unknown id) as stored."""
    book = _book()
    found = book.get(stored) if book is not None else None
    if found is None:
        return stored
    from drill.i18n import current_language

    return found.wrong(current_language())


def _book():
    global _BOOK
    if _BOOK is False:
        try:
            from drill.content import load_content
            from drill.content.misconceptions import load_misconceptions

            _BOOK = load_misconceptions(load_content())
        except Exception:
            _BOOK = None
    return _BOOK


_BOOK: Any = False


def markdown(scores: InterviewScores) -> str:
    from drill.report import charts
    from drill.report.mdtext import escape
    from drill.report.mdtext import table as _table

    rows = [
        [
            f"{i.started_at:%Y-%m-%d %H:%M}" + ("" if i.finished else " " + _("(stopped)")),
            str(i.questions),
            f"{i.coverage:.0%}",
            str(i.traps_hit),
            charts.duration(i.seconds),
        ]
        for i in scores.interviews
    ]
    parts = [
        "## " + _("Mock interviews (drill interview)"),
        _summary(scores),
        "```text\n"
        + _("coverage over time: {spark}").format(
            spark=charts.sparkline([i.coverage for i in scores.interviews], 1)
        )
        + "\n```",
        _table(
            [_("started"), _("questions"), _("coverage"), _("traps hit"), _("time")],
            rows,
            "lrrrr",
        ),
        "### " + _("slowest questions"),
        _table(
            [_("card"), _("section"), _("mean time"), _("timed out"), _("question")],
            [
                [
                    escape(visible(q.card)),
                    escape(visible(q.section)),
                    charts.duration(q.mean_seconds),
                    f"{q.timed_out}/{q.answers}",
                    escape(_text(q.question)),
                ]
                for q in scores.slowest
            ],
            "llrrl",
        ),
    ]
    if scores.most_missed:
        parts += [
            "### " + _("points missed most often"),
            _table(
                [_("point"), _("times")],
                [[escape(_text(m.point)), str(m.count)] for m in scores.most_missed],
                "lr",
            ),
        ]
    if scores.most_stated:
        parts += [
            "### " + _("misconceptions stated most often"),
            _table(
                [_("misconception (drill's wording)"), _("times")],
                [
                    [escape(_text(misconception_text(m.misconception))), str(m.count)]
                    for m in scores.most_stated
                ],
                "lr",
            ),
        ]
    return "\n\n".join(parts)
