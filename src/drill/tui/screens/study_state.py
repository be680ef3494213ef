"""The study screen's state, declared once: what the screen shows (the card, whether its answer is out, the
side pane), what it has (the session once the store is open) and what it waits for (a grade being written).

`StudyState` is the base of `StudyScreen` (tui/screens/study.py) and of the screen's parts (loading in
`study_loading.py`, grading in `study_grading.py`, the screens it opens in `study_navigation.py`); each part
subclasses it and adds behaviour only. The state lives in reactives: the footer's keys (``bindings=True``:
`check_action` reads them), the bar under the card (`_follow_bar`) and where the side pane shows
(`_follow_pane`) follow from them, so no code that changes the state refreshes by hand.
The widgets get data (a card, step refs, intervals) and post messages (a grade button, a code or calc card's
answer screen); none of them calls into this screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Horizontal
from textual.reactive import var

from drill.i18n import _, ngettext
from drill.tui.models.study import Waiting, pack_title
from drill.tui.screens.base import ModeScreen
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.header import StudyHeader

if TYPE_CHECKING:
    import queue
    from collections.abc import Callable

    from textual.timer import Timer

    from drill.content.models import Card, Library
    from drill.tui.models.study import StudySession
    from drill.tui.options import AppOptions
    from drill.tui.screens.browser import BrowserScreen
    from drill.tui.widgets.grade_bar import GradeBar, Phase
    from drill.tui.widgets.step_pane import StepPane

# Below this width the side pane is hidden unless asked for (and then it covers the card); the screen's
# width class (-narrow / -wide) comes from Textual's breakpoints at the same width.
NARROW_WIDTH = 100


class StudyState(ModeScreen):
    """The study screen's state and how the screen follows it (see the module's docstring)."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_WIDTH, "-wide")]

    session: var[StudySession | None] = var(None, bindings=True)  # once the store is open
    card: var[Card | None] = var(None, bindings=True)  # the card on screen (None: loading, or the end)
    revealed: var[bool] = var(False, bindings=True)  # its answer is shown
    saving: var[str | None] = var(None)  # the card whose grade is being written (a thread), or None
    ended: var[bool] = var(False)  # no more cards: the end-of-session message is shown
    # No card now, but learning cards fall due later today: the waiting message is shown and a timer brings
    # the first back by itself (`_wait_tick`); None otherwise.
    waiting: var[Waiting | None] = var(None, bindings=True)
    narrow: var[bool] = var(False)  # the terminal is narrower than NARROW_WIDTH
    steps_named: var[bool] = var(False)  # the card shown last names engine steps
    pane_wanted: var[bool | None] = var(None)  # the learner toggled the pane (p); None: follow the width
    pane_shown: var[bool] = var(False)  # whether the side pane is displayed (`_follow_pane`)

    def __init__(self, options: AppOptions) -> None:
        super().__init__(options)
        self.library: Library | None = None
        self._shown_at = options.timer()  # when the card on screen was shown (a grade's duration)
        self._after_save: Callable[[], object] | None = None  # a key pressed while saving, run after it
        self._waiting_note: str | None = None  # the card whose slow save the learner was told about
        self._grades: queue.SimpleQueue | None = (
            None  # the grade writer thread's queue, once a grade was given
        )
        self._browser: BrowserScreen | None = None  # the session's browser, once built
        self._wait_timer: Timer | None = None  # while waiting: asks the queue again every WAIT_POLL_SECONDS

    # --- widgets --------------------------------------------------------------------------------------------

    @property
    def card_view(self) -> CardView:
        return self.query_one(CardView)

    @property
    def grade_bar(self) -> GradeBar:
        from drill.tui.widgets.grade_bar import GradeBar

        return self.query_one("#grades", GradeBar)

    @property
    def step_pane(self) -> StepPane:
        from drill.tui.widgets.step_pane import StepPane

        return self.query_one("#steps", StepPane)

    @property
    def header(self) -> StudyHeader:
        return self.query_one(StudyHeader)

    # --- what follows from the state ------------------------------------------------------------------------

    def watch_narrow(self) -> None:
        self._follow_pane()

    def watch_pane_wanted(self) -> None:
        self._follow_pane()

    def watch_steps_named(self) -> None:
        self._follow_pane()

    def _follow_pane(self) -> None:
        """Unless the learner toggled it: the pane shows when there is room and the card names steps."""
        wanted = self.pane_wanted
        if self.ended:  # no card: no steps to show
            self.pane_shown = False
        else:
            self.pane_shown = wanted if wanted is not None else (not self.narrow and self.steps_named)
        self._place_pane()

    def _place_pane(self) -> None:
        """Set on the two widgets, not as a class on the screen: a screen class change restyles every node
        (the answer's Markdown blocks included), tens of milliseconds on each grade that toggles the pane."""
        shown = self.pane_shown
        for node in self.query("#steps"):
            node.display = shown
        for node in self.query("#card"):
            node.display = not (self.narrow and shown)  # a narrow terminal: the asked-for pane takes the body

    def watch_revealed(self, revealed: bool) -> None:
        self._follow_bar()
        from drill.tui.widgets.step_pane import StepPane

        for pane in self.query("#steps").results(StepPane):
            pane.show_answer(revealed)  # the pane never gives the answer away before it is shown

    def watch_card(self) -> None:
        self._follow_bar()

    def watch_ended(self) -> None:
        self._follow_pane()

    def _follow_bar(self) -> None:
        """The bar under the card offers the reveal before the answer, the grades after it, nothing at the end."""
        from drill.tui.widgets.grade_bar import GradeBar

        phase: Phase = "none" if self.card is None else "answer" if self.revealed else "question"
        for bar in self.query("#grades").results(GradeBar):
            bar.set_phase(phase)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """What the footer lists is what a key does now: the reveal before the answer, grades after it."""
        if action == "reveal":
            return self.card is not None and not self.revealed
        if action == "grade":
            return self.card is not None and self.revealed
        if action == "show_now":
            return self.waiting is not None
        if action in ("suspend", "bury", "info", "undo", "flag", "toggle_mark") and self.session is None:
            return None  # shown greyed until the store is open
        return True

    # --- showing cards --------------------------------------------------------------------------------------

    def show_next(self) -> None:
        assert self.session is not None
        card = self.session.next_card()
        if card is None:
            self.nothing_now()
            return
        self.show_card(card)

    # --- waiting for learning cards -------------------------------------------------------------------------

    WAIT_POLL_SECONDS = 1.0  # how often the waiting screen asks the queue again (the app's clock decides)

    def nothing_now(self) -> None:
        """No card to show now: wait for the learning cards due later today, or end the session."""
        assert self.session is not None
        waiting = self.session.waiting()
        if waiting is None:
            self.end_session()
            return
        self.card = None
        self.revealed = False
        self.ended = False
        self.waiting = waiting
        self._show_waiting(waiting)
        self.step_pane.show_loading(())
        self.grade_bar.set_intervals({})
        self.header.set_marks(0, False)
        self.refresh_counts()
        if self._wait_timer is None:
            self._wait_timer = self.set_interval(self.WAIT_POLL_SECONDS, self._wait_tick)

    def _show_waiting(self, waiting: Waiting) -> None:
        assert self.session is not None
        minutes = waiting.minutes(self.session.now())
        title = ngettext(
            "{count} learning card due in ≤ {minutes} min — wait, or show now",
            "{count} learning cards due in ≤ {minutes} min — wait, or show now",
            waiting.count,
        ).format(count=waiting.count, minutes=minutes)
        body = _("The first comes back by itself when it falls due; press n to show it now, q to quit.")
        self.card_view.show_message(title, body)

    def _wait_tick(self) -> None:
        """While waiting: the card that fell due (within learn-ahead) is shown without a key press."""
        if self.waiting is None or self.session is None or self.saving is not None:
            return
        card = self.session.next_card()
        if card is not None:
            self.show_card(card)
            return
        waiting = self.session.waiting()
        if waiting is None:  # suspended or changed elsewhere: nothing will come today
            self.waiting = None
            self.end_session()
        else:
            self.waiting = waiting
            self._show_waiting(waiting)  # the minutes count down

    def watch_waiting(self, waiting: Waiting | None) -> None:
        if waiting is None and self._wait_timer is not None:
            self._wait_timer.stop()
            self._wait_timer = None

    def show_now(self) -> None:
        """The first of the waiting learning cards, before it falls due (Anki's learn-ahead, by hand)."""
        if self.waiting is None or self.session is None:
            return
        card = self.session.card(self.waiting.first_id)
        if card is not None:
            self.show_card(card)

    def show_card(self, card: Card) -> None:
        self._show_question(card)
        self._show_store_parts(card)

    def _show_question(self, card: Card, *, steps: bool = True) -> None:
        """What the content alone can show: the card and its steps."""
        from drill.tui.models.custom_study import card_kind
        from drill.tui.widgets.card_views import card_view_for

        self.card = card
        self.revealed = False
        self.ended = False
        self.waiting = None
        view_class = card_view_for(card_kind(card))
        if type(self.card_view) is not view_class:
            self.call_later(self._swap_card_view, view_class, card)
        else:
            self.card_view.show_card(card)
        self._shown_at = self.options.timer()
        self.steps_named = bool(card.steps)
        if steps:
            self.step_pane.show_refs(tuple(card.steps))

    async def _swap_card_view(self, view_class: type[CardView], card: Card) -> None:
        """Another kind of card: its own view replaces the one on screen (card_views.card_view_for)."""
        await self.card_view.remove()
        view = view_class(id="card")
        self.feed_view(view)
        await self.query_one("#body", Horizontal).mount(view, before=0)
        if self.card is card:
            view.show_card(card)
        view.focus()
        self._place_pane()

    def feed_view(self, view: CardView) -> None:
        """What a card view whose answer is a screen of its own needs beside its card: the options, the store."""
        from drill.tui.widgets.answer_views import AnswerScreenView

        if isinstance(view, AnswerScreenView):
            view.options = self.options
            view.store = None if self.session is None else self.session.store

    def watch_session(self, session: StudySession | None) -> None:
        for view in self.query(CardView):
            self.feed_view(view)

    def _show_store_parts(self, card: Card) -> None:
        """What needs the store: each grade's interval, the counts; and the card's errata notes."""
        assert self.session is not None
        if self.session.preview:
            self.grade_bar.set_preview()
        else:
            self.grade_bar.set_intervals(self.session.intervals(card.id))
        self.header.set_marks(*self.session.marks(card.id))
        self.refresh_counts()
        checks = self.session.errata_checks(card.id)
        if checks:
            self.card_view.show_errata_of(card, checks)

    def refresh_counts(self) -> None:
        from drill.tui.models.custom_study import MODE_NAMES

        assert self.session is not None
        counts = self.session.counts()
        pack = pack_title(self.session.library)
        notice = _("READ-ONLY: grades are not saved") if self.session.readonly else None
        mode = self.session.mode
        self.header.set_counts(
            pack=pack,
            new=counts.new,
            learning=counts.learning,
            review=counts.review,
            done=counts.done_today if mode is None else len(self.session.stats.card_ids),
            mode=None if mode is None else _(MODE_NAMES[mode]),
            notice=notice,
        )
        status = self.session.interview
        self.header.set_interview(
            None if status is None else (status.days_left, status.readiness, status.weakest)
        )

    def _why_nothing(self) -> str:
        """Why the session has nothing to show, and what to press (drill.tui.models.custom_study.why_nothing)."""
        from drill.tui.models.custom_study import why_nothing

        session = self.session
        assert session is not None
        study = self.options.study
        return why_nothing(
            session.mode,
            session.store.counts(session.now(), section=self.options.section),
            session.store.config,
            ahead_days=None if study is None else study.ahead_days,
            new_limit=self.options.new_limit,
            new_seen=session.stats.new_seen,
        )

    def end_session(self) -> None:
        from drill.tui.screens.summary import SummaryScreen

        assert self.session is not None
        self.card = None
        self.revealed = False
        self.ended = True
        self.waiting = None
        why = ""
        if self.session.limit_reached():
            title = _("Session limit reached ({count} reviews).").format(count=self.options.limit)
        else:
            title = _("No more cards for now.")
            why = self._why_nothing()
        self.card_view.show_message(title, why)
        self.step_pane.show_loading(())
        self.grade_bar.set_intervals({})
        self.header.set_marks(0, False)
        self.refresh_counts()
        counts = self.session.counts()
        self.app.push_screen(
            SummaryScreen(self.session.stats, self.header.elapsed(), counts.next_due),
            self._after_summary,
        )

    async def _after_summary(self, result: str | None) -> None:
        if result == "quit":
            self.app.exit()
        elif result == "browse":
            await self.run_action("browse")
        elif result == "continue" and self.session is not None:
            self.show_next()
        elif result == "more":
            await self.run_action("study_more")

    # --- the store's keys -----------------------------------------------------------------------------------

    def _ready(self, again: Callable[[], object] | None = None) -> bool:
        """Whether the store is open and no grade is being saved; if not, the learner is told the key had no
        effect (nothing is lost). A key pressed while a grade is being saved (``again``) runs once it is."""
        if self.saving is not None:
            if again is not None:
                self._after_save = again
            else:
                self.notify(_("Still saving the last grade — nothing was done."), timeout=2)
            return False
        if self.session is None:
            self.notify(
                _("Still opening your progress database — nothing was done; try again in a moment."),
                timeout=2,
            )
        return self.session is not None
