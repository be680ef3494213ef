"""The interview screen's rubric: the learner's answer (the judge's evidence underlined) beside the model answer
(the bank's, then the section's), the card's key points and its misconceptions in two checklists pre-ticked by
the answer judge, the corrections of the misconceptions ticked, the grade
proposed from what is ticked (drill.tui.models.interview), changed with 1-4 and confirmed with enter — through
``Store.grade`` (FSRS, as in study), then the question's scorecard row. Built on the screen's state
(`interview_state.InterviewState`); `InterviewScreen` (tui/screens/interview.py) adds the layout, the loading
and the asking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from drill.errors import DrillError
from drill.i18n import _
from drill.tui.models.study import GRADE_NAMES
from drill.tui.screens.interview_state import InterviewState, shown
from drill.tui.text import visible
from drill.tui.widgets.checklist import Checklist

if TYPE_CHECKING:
    from collections.abc import Sequence

    from drill.content.models import Card, Erratum
    from drill.tui.models.interview import Rubric

__all__ = ["POINT_STYLE", "TRAP_STYLE", "InterviewRubric", "erratum_notes", "point_item", "shown"]


POINT_STYLE = "underline bold"  # a key point's evidence in the learner's answer
TRAP_STYLE = "underline reverse"  # a misconception's


def highlighted(answer: str, rubric: Rubric) -> Text:
    """The learner's answer as typed, the judge's evidence spans styled (rich Text spans, never markup)."""
    text = Text(visible(answer))
    if len(text.plain) != len(answer):  # control characters shown as stand-ins: offsets would not line up
        return text
    for spans in rubric.evidence.values():
        for span in spans:
            text.stylize(POINT_STYLE, span.start, span.end)
    for spans in rubric.trap_evidence.values():
        for span in spans:
            text.stylize(TRAP_STYLE, span.start, span.end)
    return text


def point_item(point: str, evidence: tuple, notes: tuple[str, ...] = ()) -> Text:
    """A key point, the judge's evidence for it, and drill's erratum note when the point restates a claim
    drill corrects (q25's "PyTorch attn_mask 是 True=遮住": true for nn.MultiheadAttention only)."""
    item = Text(shown(point))
    if evidence:
        item.append("  «" + visible(" … ".join(s.text for s in evidence)) + "»", style="italic dim")
    for note in notes:
        item.append("\n⚠ " + _("drill's correction:") + " ", style="bold")
        item.append(visible(note))
    return item


def erratum_notes(point: str, errata: Sequence[Erratum]) -> tuple[str, ...]:
    """The corrections of the errata whose span ``point`` holds (word for word), in the UI language
    (drill.content.errata, the one lookup every surface quoting the chapter uses)."""
    from drill.content.errata import corrections_in

    return tuple(c.correction for c in corrections_in(point, errata))


def trap_item(wrong: str) -> Text:
    return Text(shown(wrong))


def model_answer_text(card: Card | None) -> Text:
    """The model answer: the bank's answer first, then the section's when it differs."""
    from drill.tui.models.interview import model_answers

    text = Text()
    if card is None:
        return text
    for i, answer in enumerate(model_answers(card)):
        label = _("Model answer (bank):") if i == 0 and card.bank_answer else _("Model answer (section):")
        if text:
            text.append("\n")
        text.append(label + " ", style="bold")
        text.append(shown(answer))
    return text


class InterviewRubric(InterviewState):
    """The rubric phase, on the screen's state (`InterviewState`): filled when the phase turns to "rubric", then
    following the ticks (`covered`, `hit`) and the grade chosen: the corrections and the proposed grade are
    drawn from that state by their widgets (data-bound in `InterviewScreen.compose`)."""

    def watch_phase(self) -> None:
        super().watch_phase()
        if self.phase == "rubric":
            self.fill_rubric()

    def fill_rubric(self) -> None:
        """The rubric of the question just answered, its ticks from the state (the judge's, set before the
        phase turned)."""
        rubric = self.rubric
        assert rubric is not None
        given = Text()
        if self.timed_out:
            given.append(_("⏱ Time's up.") + " ", style="bold")
        seconds = self.duration_ms // 1000
        given.append(_("Answered in {m}:{s:02d}.").format(m=seconds // 60, s=seconds % 60))
        if self.answer_text is not None:
            given.append("\n" + _("Your answer:") + " ", style="bold")
            if self.answer_text.strip():
                given.append_text(highlighted(self.answer_text, rubric))
            else:
                given.append(_("(nothing typed)"))
        else:
            given.append(" " + _("(answered aloud)"), style="dim")
        self.query_one("#iv-given", Static).update(given)
        self.query_one("#iv-model", Static).update(model_answer_text(self.asked.card if self.asked else None))
        if rubric.judged:
            head = _(
                "Key points — ticked where drill's judge found them in your answer (evidence underlined); "
                "change any tick: ↑/↓ move, space ticks, tab goes to the misconceptions:"
            )
        else:
            head = _(
                "Key points — tick the ones your answer covered (↑/↓ move, space ticks, tab: next list):"
            )
        self.query_one("#iv-points-head", Static).update(Text(head, style="bold"))
        errata = self.errata
        self.query_one("#iv-points", Checklist).set_items(
            (
                point_item(p, rubric.evidence.get(i, ()), erratum_notes(p, errata))
                for i, p in enumerate(rubric.points)
            ),
            self.covered,
        )
        traps = self.query_one("#iv-traps", Checklist)
        traps.set_items((trap_item(t) for t in rubric.traps), self.hit)
        head = (
            _("Misconceptions (drill's wording of the mistakes) — did your answer state one?")
            if rubric.traps
            else _("No misconceptions listed for this question.")
        )
        self.query_one("#iv-traps-head", Static).update(Text(head, style="bold"))
        traps.display = bool(rubric.traps)
        rubric.covered, rubric.hit = set(self.covered), set(self.hit)  # the model follows the state

    def on_checklist_changed(self, message: Checklist.Changed) -> None:
        """A list's ticks changed (the widget's message): the screen's reactive state takes them; the watchers
        bring the rubric model along, the views (tui/widgets/rubric_views.py) are data-bound to the state."""
        if self.rubric is None or self.phase != "rubric":
            return
        selected = frozenset(message.checklist.selected)
        if message.checklist.id == "iv-points":
            self.covered = selected
        else:
            self.hit = selected

    def watch_covered(self, covered: frozenset[int]) -> None:
        if self.rubric is not None and self.phase == "rubric":
            self.rubric.covered = set(covered)  # the model follows the state (the views are data-bound to it)

    def watch_hit(self, hit: frozenset[int]) -> None:
        if self.rubric is not None and self.phase == "rubric":
            self.rubric.hit = set(hit)

    @property
    def proposed(self) -> int:
        assert self.rubric is not None
        return self.rubric.proposed_grade(self.settings.thresholds)

    @property
    def grade(self) -> int:
        return self.chosen if self.chosen is not None else self.proposed

    def action_grade(self, rating: int) -> None:
        if self.phase == "rubric":
            self.chosen = rating

    def action_confirm(self) -> None:
        """Grade the question and save its scorecard row in one store transaction (``grade_interview_answer``:
        a kill leaves both or neither); only then move on. A failure leaves the question on screen to retry."""
        if self.phase != "rubric" or self.rubric is None or self.asked is None:
            return
        if self.store is None:  # the question came before the store opened (`planned`): saved once it is
            if not self.confirm_waiting:
                self.notify(_("Saving your grade: the database is still opening…"))
            self.confirm_waiting = True
            return
        from drill.srs.misses import miss_cap
        from drill.store.interviews import InterviewAnswerRecord

        rubric, asked, rating = self.rubric, self.asked, self.grade
        now = self.options.clock()
        try:
            if self.interview_id is None:
                self.interview_id = self.store.start_interview(now, self.settings.as_dict())
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
                traps_hit=rubric.stated(),
                coverage=rubric.coverage,
                proposed=self.proposed,
                rating=rating,
                answered_at=now,
            )
            # a missed point or a misconception: due sooner (drill.srs.misses)
            cap = miss_cap(len(rubric.missed()), len(rubric.stated()))
            record = self.store.grade_interview_answer(self.interview_id, record, due_cap=cap)
        except DrillError as err:
            self.notify(_("Not saved: {error}").format(error=err), severity="error")
            return
        self.answers.append(record)
        self.missed_last = (*rubric.missed(), *(rubric.corrections[i] for i in sorted(rubric.hit)))
        self.notify(_("Graded {grade}.").format(grade=_(GRADE_NAMES[rating])))
        self.ask_next()
