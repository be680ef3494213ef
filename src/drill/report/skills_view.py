"""The report's "Readiness by skill" section (``ReportData.skills``, drill.srs.skillready) in the terminal,
Markdown and HTML: one row per skill — its items, readiness now and, with an interview date, on the day if the
plan is followed and if practice stops now — and the items never tried, named ("12 of 13 code tasks never
tried"). Every column says which figure it is. The cells are worded once here (`rows`) for every format.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from drill.content.skills import never_tried_text, skill_name
from drill.i18n import _
from drill.report import charts
from drill.report.data import ReportData

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import RenderableType


@dataclass(frozen=True)
class SkillRow:
    skill: str  # its name in the UI language
    items: int
    now: str
    if_followed: str | None  # None: no interview date
    if_stopped: str | None
    never_tried: str  # "12 of 13 code tasks never tried", or ""
    bar: float  # the figure the bar draws: on the day if followed, else now


def rows(data: ReportData) -> list[SkillRow]:
    out = []
    for r in data.skills or ():
        out.append(
            SkillRow(
                skill=skill_name(r.skill),
                items=r.items,
                now=charts.pct(r.now, 0),
                if_followed=None if r.if_followed is None else charts.pct(r.if_followed, 0),
                if_stopped=None if r.if_stopped is None else charts.pct(r.if_stopped, 0),
                never_tried=never_tried_text(r.skill, r.never_tried, r.items) if r.never_tried else "",
                bar=r.now if r.if_followed is None else r.if_followed,
            )
        )
    return out


def on_the_day(data: ReportData) -> bool:
    return any(r.if_followed is not None for r in data.skills or ())


def headers(data: ReportData) -> list[str]:
    names = [_("skill"), _("items"), _("ready now")]
    if on_the_day(data):
        names += [_("on the day if followed"), _("if you stop now")]
    return [*names, _("never tried")]


def cells(data: ReportData, row: SkillRow) -> list[str]:
    values = [row.skill, str(row.items), row.now]
    if on_the_day(data):
        values += [row.if_followed or "", row.if_stopped or ""]
    return [*values, row.never_tried]


def note(data: ReportData) -> str:
    return _(
        "Mean predicted recall over each skill's cards; a card never tried counts 0. Now: at the report's time."
    ) + (" " + _("On the day: the interview day set with drill plan.") if on_the_day(data) else "")


def terminal(data: ReportData) -> list[RenderableType]:
    from rich import box  # the terminal's only: the HTML and Markdown reports don't load Rich for this
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD)
    names = headers(data)
    for i, name in enumerate(names):
        last = i == len(names) - 1  # the never-tried note: the column that gets the width
        table.add_column(name, justify="left" if last or i == 0 else "right", ratio=1 if last else None)
    for row in rows(data):
        table.add_row(*(Text(c) for c in cells(data, row)))
    return [Text(_("Readiness by skill"), style="bold"), Text(note(data), style="dim"), table]


def markdown(data: ReportData) -> str:
    from drill.report.mdtext import escape, table

    names = headers(data)
    align = "l" + "r" * (len(names) - 2) + "l"
    body = [[escape(c) for c in cells(data, row)] for row in rows(data)]
    return "\n".join(["## " + _("Readiness by skill"), "", note(data), "", table(names, body, align)])


__all__ = ["SkillRow", "cells", "headers", "markdown", "note", "on_the_day", "rows", "terminal"]
