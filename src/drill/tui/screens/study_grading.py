"""The study screen's grading and card actions: grade (saved in a worker, acknowledged once on disk), undo,
suspend, bury. A part of `StudyScreen` (tui/screens/study.py) on its state (`StudyState`).

Grades are written in a daemon thread: a database held by another program (SQLite waits up to its busy
timeout) must not freeze the screen, nor keep a quitting drill from exiting. The next card comes only once the
grade is on disk; until then keys that need the store wait, the screen says why, and q still quits (an unsaved
grade is then not counted). One such thread per screen, waiting on a queue: starting a thread per grade made
the UI thread wait for the new thread to be scheduled (the GIL handover) on every grade.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from drill.errors import DrillError
from drill.i18n import N_, _, ngettext
from drill.store.types import NO_FLAG
from drill.tui.marks import flag_name
from drill.tui.models.study import GRADE_NAMES
from drill.tui.screens.study_state import StudyState
from drill.tui.widgets.answer_views import AnswerScreenView

if TYPE_CHECKING:
    import queue

    from drill.tui.widgets.grade_bar import GradeButton

# What a card action's toast says once done (the action's name is its binding's description).
DONE = {"Suspend": N_("{card} suspended."), "Bury": N_("{card} buried.")}
# What undo names when it takes back an action other than a grade (drill.store.undoing's action names).
UNDONE = {
    "suspend": N_("suspend"),
    "unsuspend": N_("unsuspend"),
    "bury": N_("bury"),
    "unbury": N_("unbury"),
    "make-due": N_("due now"),
    "reset": N_("reset"),
    "flag": N_("flag"),
    "mark": N_("mark"),
}

SLOW_SAVE_S = 0.4  # a grade not saved by then is waiting on a lock: say so


class StudyGrading(StudyState):
    """Grading and the card actions."""

    def action_grade(self, rating: int) -> None:
        if self.card is None:
            return
        if not self.revealed:
            self.notify(_("Show the answer first (space), then grade it."), timeout=2)
            return
        if not self._ready():
            return
        assert self.session is not None
        duration_ms = int((self.options.timer() - self._shown_at) * 1000)
        if self.session.preview:
            # Preview: nothing is written; the grade only moves on (Anki's preview of new cards).
            self.session.skip(self.card.id)
            self.show_next()
            return
        self.saving = self.card.id
        self._save_grade(self.card.id, rating, duration_ms)
        self.set_timer(SLOW_SAVE_S, self._still_saving)

    def _save_grade(self, card_id: str, rating: int, duration_ms: int) -> None:
        """Write the grade in a daemon thread, not a Textual worker: workers run in asyncio's default executor,
        which the app's exit joins, so quitting while the grade waits for a database another program holds
        would hang until SQLite's busy timeout (30 s). A daemon thread still waiting when drill exits is
        dropped with its grade: it was never written, and the screen never said it was saved."""
        if self._grades is None:
            import queue
            import threading

            self._grades = queue.SimpleQueue()
            threading.Thread(
                target=self._grade_writer, args=(self._grades,), name="drill-grade", daemon=True
            ).start()
        self._grades.put((card_id, rating, duration_ms))

    def _grade_writer(self, grades: queue.SimpleQueue) -> None:
        """The writer thread: one grade at a time (the screen sends the next only once this one is done), until
        the screen goes (`_stop_grade_writer`)."""
        while (item := grades.get()) is not None:
            self._write_grade(*item)

    def _stop_grade_writer(self) -> None:
        if self._grades is not None:
            self._grades.put(None)
            self._grades = None

    def _write_grade(self, card_id: str, rating: int, duration_ms: int) -> None:
        assert self.session is not None
        try:
            self.session.grade(card_id, rating, duration_ms)
        except DrillError as err:
            self._from_thread(self._grade_done, card_id, err)
            return
        except BaseException as err:  # a bug: shown, then raised on the UI thread (the app ends with it)
            self._from_thread(self._grade_done, card_id, err)
            self._from_thread(self._raise, err)
            return
        self._from_thread(self._grade_done, card_id, None)

    def _from_thread(self, callback: Callable[..., object], *args: object) -> None:
        try:
            self.app.call_from_thread(callback, *args)
        except RuntimeError:  # the app has ended: the learner quit while this grade waited; nothing to show
            pass

    @staticmethod
    def _raise(err: BaseException) -> None:
        raise err

    def _grade_done(self, card_id: str, error: BaseException | None) -> None:
        self.saving = None
        if self._waiting_note is not None:
            self._waiting_note = None
            self.app.clear_notifications()
        then, self._after_save = self._after_save, None
        if error is not None:
            self.notify(_("Not saved: {error}").format(error=error), severity="error")
            return
        if self.card is not None and self.card.id == card_id:
            self.show_next()
        if then is not None:
            then()

    def _still_saving(self) -> None:
        if self.saving is None:
            return
        self._waiting_note = self.saving
        self.notify(
            _(
                "Saving your grade: the progress database is busy (another program is writing to it). "
                "The next card comes once it is saved; q quits (the grade is then not counted)."
            ),
            title=_("Waiting for the database"),
            timeout=60,
        )

    def on_grade_button_pressed(self, message: GradeButton.Pressed) -> None:
        self.action_grade(message.rating)

    def on_answer_screen_view_graded(self, message: AnswerScreenView.Graded) -> None:
        """A code or calc card graded on its own answer screen: shown revealed, graded like any card."""
        if message.card is self.card:
            self.revealed = True
            self.action_grade(message.rating)

    def action_undo(self) -> None:
        if not self._ready(self.action_undo):
            return
        assert self.session is not None
        try:
            result = self.session.undo()
        except DrillError as err:
            self.notify(_("Undo failed: {error}").format(error=err), severity="error")
            return
        if result is None:
            self.notify(_("Nothing to undo."), timeout=2)
            return
        card = self.session.card(result.card_id)
        what = (
            _(GRADE_NAMES.get(int(result.rating), str(result.rating)))
            if result.action == "grade"
            else _(UNDONE.get(result.action, result.action))
        )
        if len(result.card_ids) > 1:  # a bulk action of the browser, taken back whole
            n = len(result.card_ids)
            said = ngettext("Undid {grade} on {n} card.", "Undid {grade} on {n} cards.", n).format(
                grade=what, n=n
            )
        else:
            said = _("Undid {grade} on {card}.").format(grade=what, card=result.card_id)
        self.notify(said, timeout=2)
        if card is not None:
            self.show_card(card)
        else:
            self.show_next()

    def _card_action(self, verb: str, method: Callable[[str], object]) -> None:
        if self.card is None:
            return
        card_id = self.card.id
        try:
            method(card_id)
        except DrillError as err:
            self.notify(_("{action} failed: {error}").format(action=_(verb), error=err), severity="error")
            return
        self.notify(_(DONE[verb]).format(card=card_id), timeout=2)
        self.show_next()

    def action_suspend(self) -> None:
        if self._ready(self.action_suspend) and self.session is not None:
            self._card_action("Suspend", self.session.suspend)

    def action_flag(self, flag: int) -> None:
        """Anki's ctrl+1 … ctrl+7: flag the card that colour, or remove that flag (ctrl+0: remove any)."""
        if self.card is None or not self._ready(lambda: self.action_flag(flag)):
            return
        assert self.session is not None
        card_id = self.card.id
        try:
            current, marked = self.session.marks(card_id)
            flag = NO_FLAG if flag == current else flag
            if flag != current:
                self.session.set_flag(card_id, flag)
        except DrillError as err:
            self.notify(_("Flag failed: {error}").format(error=err), severity="error")
            return
        self.header.set_marks(flag, marked)
        if flag == NO_FLAG:
            self.notify(_("{card}: no flag.").format(card=card_id), timeout=2)
        else:
            self.notify(_("{card} flagged {colour}.").format(card=card_id, colour=flag_name(flag)), timeout=2)

    def action_toggle_mark(self) -> None:
        """Anki's *: mark the card, or unmark it."""
        if self.card is None or not self._ready(self.action_toggle_mark):
            return
        assert self.session is not None
        card_id = self.card.id
        try:
            marked = self.session.toggle_mark(card_id)
            flag, _marked = self.session.marks(card_id)
        except DrillError as err:
            self.notify(_("Mark failed: {error}").format(error=err), severity="error")
            return
        self.header.set_marks(flag, marked)
        message = _("{card} marked.") if marked else _("{card} unmarked.")
        self.notify(message.format(card=card_id), timeout=2)

    def action_bury(self) -> None:
        if self._ready(self.action_bury) and self.session is not None:
            self._card_action("Bury", self.session.bury)
