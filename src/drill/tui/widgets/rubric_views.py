"""The interview rubric's two derived views, drawn from the screen's state (its reactives, data-bound: the screen
owns them, tui/screens/interview_state.py): the corrections of the misconceptions ticked as stated, and the grade
proposed from the ticks. Each widget's text is a function of what it is given (``content``, drawn by ``render``);
nothing updates them but the state."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from drill.i18n import _
from drill.tui.models.interview import Thresholds
from drill.tui.models.study import GRADE_NAMES
from drill.tui.text import shown, visible

if TYPE_CHECKING:
    from drill.tui.models.interview import Rubric

__all__ = ["RubricCorrections", "RubricProposal"]


class RubricCorrections(Widget):
    """Each misconception ticked as stated (``hit``), the judge's evidence for it and its correction; shown in
    the rubric phase while one is ticked."""

    DEFAULT_CSS = "RubricCorrections { height: auto; }"

    rubric: reactive[Rubric | None] = reactive(None, layout=True, always_update=True)
    hit: reactive[frozenset[int]] = reactive(frozenset(), layout=True)
    phase: reactive[str] = reactive("loading")

    @property
    def content(self) -> Text:
        rubric, text = self.rubric, Text()
        if rubric is None:
            return text
        for i in sorted(self.hit):
            if text:
                text.append("\n")
            text.append("✗ " + shown(rubric.traps[i]), style="bold")
            found = rubric.trap_evidence.get(i)
            if found:
                text.append("  «" + visible(" … ".join(s.text for s in found)) + "»", style="italic")
            text.append("\n  " + _("Correction:") + " ", style="bold")
            text.append(shown(rubric.corrections[i]) if i < len(rubric.corrections) else "")
        return text

    def render(self) -> Text:
        return self.content

    def _follow(self) -> None:
        self.display = self.phase == "rubric" and bool(self.hit)

    watch_phase = watch_hit = _follow


class RubricProposal(Widget):
    """The ticks counted, the grade they propose (drill.tui.models.interview.propose_grade), the learner's own
    grade when chosen, and what enter confirms."""

    DEFAULT_CSS = "RubricProposal { height: auto; }"

    rubric: reactive[Rubric | None] = reactive(None, layout=True, always_update=True)
    covered: reactive[frozenset[int]] = reactive(frozenset(), layout=True)
    hit: reactive[frozenset[int]] = reactive(frozenset(), layout=True)
    chosen: reactive[int | None] = reactive(None, layout=True)
    thresholds: reactive[Thresholds] = reactive(Thresholds, layout=True)

    @property
    def content(self) -> Text:
        if self.rubric is None:
            return Text()
        ticked = replace(self.rubric, covered=set(self.covered), hit=set(self.hit))
        proposed = ticked.proposed_grade(self.thresholds)
        text = Text(
            _(
                "Covered {covered} of {points} points ({coverage:.0%}), {traps} traps hit: proposed grade {grade}."
            ).format(
                covered=len(ticked.covered),
                points=len(ticked.points),
                coverage=ticked.coverage,
                traps=len(ticked.hit),
                grade=_(GRADE_NAMES[proposed]),
            )
        )
        chosen = self.chosen
        if chosen is not None and chosen != proposed:
            text.append(" " + _("Your grade: {grade}.").format(grade=_(GRADE_NAMES[chosen])), style="bold")
        grade = chosen if chosen is not None else proposed
        text.append("\n")
        text.append(
            _("enter confirms {grade} · 1-4 changes it").format(grade=_(GRADE_NAMES[grade])), style="dim"
        )
        return text

    def render(self) -> Text:
        return self.content
