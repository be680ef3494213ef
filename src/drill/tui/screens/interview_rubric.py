"""The interview screen's rubric: the card's key points and the section's traps in two checklists, the grade
proposed from what is ticked (drill.tui.models.interview), changed with 1-4 and confirmed with enter — through
``Store.grade`` (FSRS, as in study), then the question's scorecard row. A mixin of `InterviewScreen`
(tui/screens/interview.py), which owns the layout, the loading and the asking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from drill.content.errata import annotate
from drill.errors import DrillError
from drill.i18n import _
from drill.tui.models.study import GRADE_NAMES
from drill.tui.text import visible
from drill.tui.widgets.checklist import Checklist

if TYPE_CHECKING:
    from drill.store import Store
    from drill.store.interviews import InterviewAnswerRecord
    from drill.tui.models.interview import Asked, Rubric
    from drill.tui.options import AppOptions
    from drill.tui.screens.interview import InterviewSettings


def rubric_item(text: str) -> str:
    """A rubric point or trap as the checklist shows it: the chapter's words, then drill's correction of any span
    they quote (drill.content.errata, in the UI language)."""
    return shown(annotate(text))


def shown(text: str) -> str:
    """Chapter text for a terminal: formulas rendered, control characters made visible."""
    from drill.content.latex import render_text

    return visible(render_text(text).replace("**", ""))


class InterviewRubric:
    """The rubric phase; expects the InterviewScreen's attributes (rubric, asked, store, settings...) and its
    ``ask_next``."""

    options: AppOptions
    settings: InterviewSettings
    store: Store | None
    phase: str
    chosen: int | None
    rubric: Rubric | None
    asked: Asked | None
    answer_text: str | None
    duration_ms: int
    timed_out: bool
    interview_id: int | None
    answers: list[InterviewAnswerRecord]
    _graded_log: int | None

    def fill_rubric(self) -> None:
        rubric = self.rubric
        assert rubric is not None
        given = Text()
        if self.timed_out:
            given.append(_("⏱ Time's up.") + " ", style="bold")
        seconds = self.duration_ms // 1000
        given.append(_("Answered in {m}:{s:02d}.").format(m=seconds // 60, s=seconds % 60))
        if self.answer_text is not None:
            given.append("\n" + _("Your answer:") + " ", style="bold")
            given.append(visible(self.answer_text.strip()) or _("(nothing typed)"))
        else:
            given.append(" " + _("(answered aloud)"), style="dim")
        self.query_one("#iv-given", Static).update(given)
        self.query_one("#iv-points-head", Static).update(
            Text(_("Key points — tick the ones your answer covered (space ticks, tab moves):"), style="bold")
        )
        # each point and trap as the chapter words it, then drill's correction of any span it quotes
        # (drill.content.errata, in the UI language)
        self.query_one("#iv-points", Checklist).set_items(Text(rubric_item(p)) for p in rubric.points)
        traps = self.query_one("#iv-traps", Checklist)
        traps.set_items(Text(rubric_item(t)) for t in rubric.traps)
        head = (
            _("Traps — did your answer fall into one?")
            if rubric.traps
            else _("No traps listed for this section.")
        )
        self.query_one("#iv-traps-head", Static).update(Text(head, style="bold"))
        traps.display = bool(rubric.traps)
        self._show_proposal()

    def on_checklist_changed(self, message: Checklist.Changed) -> None:
        if self.rubric is None or self.phase != "rubric":
            return
        selected = set(message.checklist.selected)
        if message.checklist.id == "iv-points":
            self.rubric.covered = selected
        else:
            self.rubric.hit = selected
        self._show_proposal()

    @property
    def proposed(self) -> int:
        assert self.rubric is not None
        return self.rubric.proposed_grade(self.settings.thresholds)

    @property
    def grade(self) -> int:
        return self.chosen if self.chosen is not None else self.proposed

    def watch_chosen(self) -> None:
        if self.phase == "rubric":
            self._show_proposal()

    def _show_proposal(self) -> None:
        rubric = self.rubric
        assert rubric is not None
        text = Text()
        text.append(
            _(
                "Covered {covered} of {points} points ({coverage:.0%}), {traps} traps hit: proposed grade {grade}."
            ).format(
                covered=len(rubric.covered),
                points=len(rubric.points),
                coverage=rubric.coverage,
                traps=len(rubric.hit),
                grade=_(GRADE_NAMES[self.proposed]),
            )
        )
        if self.chosen is not None and self.chosen != self.proposed:
            text.append(
                " " + _("Your grade: {grade}.").format(grade=_(GRADE_NAMES[self.chosen])), style="bold"
            )
        text.append("\n")
        text.append(
            _("enter confirms {grade} · 1-4 changes it").format(grade=_(GRADE_NAMES[self.grade])), style="dim"
        )
        self.query_one("#iv-proposal", Static).update(text)

    def action_grade(self, rating: int) -> None:
        if self.phase == "rubric":
            self.chosen = rating

    def action_confirm(self) -> None:
        """Grade through the store (the one grade path), then save the question's scorecard row; only then move
        on. A failure leaves the question on screen to retry (a committed grade is not given twice)."""
        if self.phase != "rubric" or self.rubric is None or self.asked is None or self.store is None:
            return
        from drill.store.interviews import InterviewAnswerRecord

        rubric, asked, rating = self.rubric, self.asked, self.grade
        now = self.options.clock()
        try:
            if self.interview_id is None:
                self.interview_id = self.store.start_interview(now, self.settings.as_dict())
            if self._graded_log is None:
                self._graded_log = self.store.grade(asked.card.id, rating, now, self.duration_ms).log_id
            record = InterviewAnswerRecord(
                position=asked.position,
                card_id=asked.card.id,
                section=asked.card.section,
                follow_up=asked.follow_up,
                mode="typed" if self.answer_text is not None else "aloud",
                answer=self.answer_text,
                duration_ms=self.duration_ms,
                budget_ms=int(self.settings.minutes * 60_000),
                timed_out=self.timed_out,
                points_total=len(rubric.points),
                points_covered=tuple(sorted(rubric.covered)),
                points_missed=tuple(rubric.missed()),
                traps_hit=tuple(t for i, t in enumerate(rubric.traps) if i in rubric.hit),
                coverage=rubric.coverage,
                proposed=self.proposed,
                rating=rating,
                answered_at=now,
                review_log_id=self._graded_log,
            )
            self.store.record_interview_answer(self.interview_id, record)
        except DrillError as err:
            self.notify(_("Not saved: {error}").format(error=err), severity="error")
            return
        self.answers.append(record)
        self.notify(_("Graded {grade}.").format(grade=_(GRADE_NAMES[rating])))
        self.ask_next()
