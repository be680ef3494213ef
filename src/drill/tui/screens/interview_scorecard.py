"""The scorecard that closes a mock interview: per question its points covered, time (``+`` when the time ran
out), traps hit and grade; the mean coverage and the points missed most often. Rich renderables only: content
strings go in as `Text`, never as markup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from drill.i18n import _
from drill.tui.models.study import GRADE_NAMES
from drill.tui.screens.interview_state import shown
from drill.tui.text import visible

if TYPE_CHECKING:
    from rich.console import JustifyMethod

    from drill.store.interviews import InterviewAnswerRecord


def scorecard(
    answers: Sequence[InterviewAnswerRecord],
    fronts: Mapping[str, str],
    misconceptions: Mapping[str, tuple[str, str]] | None = None,
) -> Table:
    """The scorecard of ``answers``; ``fronts``: each asked card's question as shown (by card id);
    ``misconceptions``: id -> (the wrong belief, its correction), for the ones stated."""
    from drill.store.interviews import most_missed

    table = Table(title=Text(_("Scorecard"), style="bold"), expand=True, show_edge=False, pad_edge=False)
    question_title = _("question")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("#", "right"),
        (question_title, "left"),
        (_("points"), "right"),
        (_("time"), "right"),
        (_("traps"), "right"),
        (_("grade"), "left"),
    )
    for title, justify in columns:
        table.add_column(Text(title), justify=justify, no_wrap=title != question_title, overflow="ellipsis")
    for a in answers:
        seconds = a.duration_ms // 1000
        question = Text(f"§{visible(a.section)} " + shown(fronts.get(a.card_id, a.card_id)))
        if a.follow_up:
            question.append(" ↳", style="dim")
        table.add_row(
            Text(str(a.position)),
            question,
            Text(f"{len(a.points_covered)}/{a.points_total}"),
            Text(f"{seconds // 60}:{seconds % 60:02d}" + ("+" if a.timed_out else " ")),
            Text(str(len(a.traps_hit))),
            Text(_(GRADE_NAMES[a.rating])),
        )
    out = Table.grid()
    out.add_row(table)
    if answers:
        mean = sum(a.coverage for a in answers) / len(answers)
        out.add_row(Text("\n" + _("Mean coverage {coverage:.0%}.").format(coverage=mean), style="bold"))
    missed = most_missed(answers)
    if missed:
        out.add_row(Text("\n" + _("Points missed most often (the model answer's words):"), style="bold"))
        for point, count in missed:
            out.add_row(Text(f"  {count}× " + shown(point)))
    stated: dict[str, int] = {}
    for a in answers:
        for trap in a.traps_hit:
            stated[trap] = stated.get(trap, 0) + 1
    if stated:
        out.add_row(Text("\n" + _("Misconceptions stated:"), style="bold"))
        for trap, count in sorted(stated.items(), key=lambda kv: -kv[1]):
            wrong, correction = (misconceptions or {}).get(trap, (trap, ""))
            line = Text(f"  {count}× ✗ " + shown(wrong), style="bold")
            if correction:
                line.append("\n     " + _("Correction:") + " " + shown(correction), style="")
            out.add_row(line)
    if any(a.timed_out for a in answers):
        out.add_row(Text("\n" + _("+: the time ran out."), style="dim"))
    out.add_row(Text("\n" + _("Saved. ctrl+q quits."), style="dim"))
    return out
