"""`drill study`: the review screen.

The shell (header, empty card, grade bar, footer) paints at once. A thread worker then loads the content
(JSON cache) and peeks at the first card with the stdlib's sqlite3 (`drill.store.peek`: the store's own SQL,
read-only); that question is shown at once. Only then does another worker open the store (sqlalchemy) and
hand a `StudySession` back, which chooses the first card itself (swapping the peeked one in the rare case
they differ). Nothing that needs the store — grades, intervals, undo, suspend... — runs before that: such a
key says so on screen. Grades are committed synchronously on the UI thread (a few milliseconds) so a grade
the screen acknowledged is on disk; then the next card is shown. The side pane builds its engine traces
(numpy) in another worker, only when a card names steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Static

from drill.errors import DrillError
from drill.i18n import N_, _
from drill.tui.models.study import GRADE_NAMES, StudySession, pack_title
from drill.tui.options import AppOptions
from drill.tui.screens.base import ModeScreen
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.header import StudyHeader

if TYPE_CHECKING:
    from drill.content.models import Card, Check, Library
    from drill.tui.steps import StepView
    from drill.tui.widgets.grade_bar import GradeBar, GradeButton
    from drill.tui.widgets.step_pane import StepPane

# What a card action's toast says once done (the action's name is its binding's description).
DONE = {"Suspend": N_("{card} suspended."), "Bury": N_("{card} buried.")}

# Below this width the side pane is hidden unless asked for (and then it covers the card).
NARROW_WIDTH = 100


SLOW_SAVE_S = 0.4  # a grade not saved by then is waiting on a lock: say so


class StudyScreen(ModeScreen):
    CSS_PATH = "../styles/study.tcss"
    HELP_TITLE = N_("drill study — keys")
    PALETTE_GROUP = N_("Study")
    AUTO_FOCUS = None  # the card view is mounted after the first paint and focused then

    BINDINGS = [
        Binding("space", "reveal", N_("Show answer"), priority=True),
        Binding("enter", "reveal", N_("Show answer"), show=False, priority=True),
        Binding("1", "grade(1)", N_("Again"), show=False),
        Binding("2", "grade(2)", N_("Hard"), show=False),
        Binding("3", "grade(3)", N_("Good"), show=False),
        Binding("4", "grade(4)", N_("Easy"), show=False),
        Binding("left", "step(-1)", N_("Previous step"), key_display="←", show=False, priority=True),
        Binding("right", "step(1)", N_("Next step"), key_display="→", show=False, priority=True),
        Binding("p", "toggle_pane", N_("Steps pane")),
        Binding("u", "undo", N_("Undo")),
        Binding("s", "suspend", N_("Suspend")),
        Binding("b", "bury", N_("Bury")),
        Binding("i", "info", N_("Card info")),
        Binding("slash", "search", N_("Search"), key_display="/"),
        Binding("l", "browse", N_("Browse")),
        Binding(
            "d",
            "demo",
            N_("Demo"),
            show=False,
            tooltip=N_("the chapter's interactive demo for this card's section"),
        ),
        Binding(
            "D",
            "interview_plan",
            N_("Interview date"),
            show=False,
            tooltip=N_("set the day: readiness forecast, reviews that land before it"),
        ),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("q", "quit", N_("Quit")),
    ]

    def __init__(self, options: AppOptions) -> None:
        super().__init__(options)
        self.session: StudySession | None = None
        self.library: Library | None = None
        self.card: Card | None = None
        self.question_shown = False  # the "question" milestone was reported
        self.pane_shown = False
        self.pane_wanted: bool | None = None  # None: follow the terminal width
        self._shown_at = options.timer()
        self.saving: str | None = None  # the card whose grade is being written (a worker), or None
        self._waiting_note: str | None = None
        self._after_save: Callable[[], object] | None = None  # a key pressed while saving, run after it
        self._ended = False
        self._gc_state = "live"  # -> "frozen" once everything is loaded (_freeze_gc) -> "gone" (on_unmount)

    # --- layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # The first paint is just this shell (as light as a bare app's); the card, side pane, grade bar and
        # footer are mounted right after it.
        yield StudyHeader(self.options.timer, id="header")
        with Horizontal(id="body"):
            yield Static(Text(_("loading the cards and your progress…"), style="italic"), id="loading")

    def on_mount(self) -> None:
        self._apply_width(self.app.size.width)
        self.drill_app.reached("paint", via=self)
        # Start loading only once the shell is on screen: the worker's imports (sqlalchemy) would otherwise
        # compete with the first paint for the GIL.
        self.call_after_refresh(self._after_first_paint)

    async def _after_first_paint(self) -> None:
        # The card first: a peeked question shows before the side pane, grade bar and footer are built.
        await self.query_one("#loading", Static).remove()
        await self.query_one("#body", Horizontal).mount(CardView(id="card"))
        self._apply_width(self.app.size.width)
        self.query_one(CardView).focus()
        self.load_first()

    async def _complete_screen(self) -> None:
        """Mount the side pane, grade bar and footer, then open the store."""
        from textual.widgets import Footer

        from drill.tui.widgets.grade_bar import GradeBar
        from drill.tui.widgets.step_pane import StepPane

        await self.query_one("#body", Horizontal).mount(StepPane(id="steps"))
        self._apply_width(self.app.size.width)
        await self.mount(GradeBar(id="grades"), Footer())
        self.refresh_bindings()  # a footer mounted late shows the keys once bindings are published
        if self.card is not None and self.session is None:
            self._show_steps(tuple(self.card.steps))
        self.load_session(self.library)

    def load_first(self) -> None:
        """The content, and (default SQLite database) a read-only peek at the first card: no sqlalchemy.
        From the content cache this takes a few milliseconds, done here; otherwise in a worker."""
        from drill.tui.models.study import load_library, peek_first_card

        try:
            library = load_library(self.options, cached_only=True)
        except DrillError as err:
            self.drill_app.fail(err)
            return
        if library is None:
            self.load_first_in_worker()
        else:
            self._first_card_known(library, peek_first_card(library, self.options))

    def on_resize(self, event: events.Resize) -> None:
        self._apply_width(event.size.width)

    def _apply_width(self, width: int) -> None:
        narrow = width < NARROW_WIDTH
        self.set_class(narrow, "narrow")
        has_steps = self.card is not None and bool(self.card.steps)
        # Unless the learner toggled it: shown when there is room and the card names steps.
        shown = self.pane_wanted if self.pane_wanted is not None else (not narrow and has_steps)
        self.pane_shown = shown
        # Set on the two widgets, not as a class on the screen: a screen class change restyles every node
        # (the answer's Markdown blocks included), tens of milliseconds on each grade that toggles the pane.
        for node in self.query("#steps"):
            node.display = shown
        for node in self.query("#card"):
            node.display = not (narrow and shown)  # a narrow terminal: the asked-for pane takes the body

    # --- loading ------------------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def load_first_in_worker(self) -> None:
        from drill.tui.models.study import load_library, peek_first_card

        try:
            library = load_library(self.options)
        except DrillError as err:
            self.app.call_from_thread(self.drill_app.fail, err)
            return
        card = peek_first_card(library, self.options)
        self.app.call_from_thread(self._first_card_known, library, card)

    def _first_card_known(self, library: Library, card: Card | None) -> None:
        self.library = library
        if card is None:
            self.call_later(self._complete_screen)
            return
        self._show_question(card, steps=False)
        self.query_one(StudyHeader).set_pack(pack_title(library))
        self._question_reached()
        # The rest of the screen and the store's imports would compete with painting the question.
        self.call_after_refresh(self._complete_screen)

    def _question_reached(self) -> None:
        if not self.question_shown:
            self.question_shown = True
            self.drill_app.reached("question", via=self)

    @work(thread=True, exclusive=True, group="open")
    def load_session(self, library: Library | None) -> None:
        from drill.tui.models.study import open_study_session

        try:
            session = open_study_session(self.options, library)
        except DrillError as err:
            self.app.call_from_thread(self.drill_app.fail, err)
            return
        try:
            self.app.call_from_thread(self._session_ready, session)
        except Exception:  # the app ended while the store was opening (q before it was ready)
            session.close()
            if self.options.store is None:
                session.store.close()
            raise

    def _session_ready(self, session: StudySession) -> None:
        self.session = session
        self.drill_app.study_stats = session.stats
        self.drill_app.reached("ready", via=self)
        card = session.next_card()
        if card is not None and self.card is not None and card.id == self.card.id:
            self._show_store_parts(card)  # the peek was right: the card stays as it is (revealed or not)
        elif card is None:
            self.end_session()
        else:
            self.show_card(card)
        self._question_reached()
        cards = session.library.cards.values()
        self.warm_steps(
            tuple({tuple(card.steps) for card in cards if card.steps}),
            tuple(checks for card in cards if (checks := session.errata_checks(card.id))),
        )

    # --- showing cards --------------------------------------------------------------------------------------

    def show_next(self) -> None:
        assert self.session is not None
        card = self.session.next_card()
        if card is None:
            self.end_session()
            return
        self.show_card(card)

    def show_card(self, card: Card) -> None:
        self._show_question(card)
        self._show_store_parts(card)

    def _show_question(self, card: Card, *, steps: bool = True) -> None:
        """What the content alone can show: the card and its steps."""
        self.card = card
        self._ended = False
        self.query_one(CardView).show_card(card)
        self._shown_at = self.options.timer()
        if steps:
            self._show_steps(tuple(card.steps))
        self._apply_width(self.app.size.width)
        self.drill_app.reached("card", via=self)

    def _show_store_parts(self, card: Card) -> None:
        """What needs the store: each grade's interval, the counts; and the card's errata notes."""
        assert self.session is not None
        self.grade_bar.set_intervals(self.session.intervals(card.id))
        self.refresh_counts()
        checks = self.session.errata_checks(card.id)
        if checks:
            from drill.tui.steps import cached_errata

            notes = cached_errata(checks)
            if notes is None:
                self.load_errata(card)
            else:
                self.query_one(CardView).show_errata(notes)

    def _show_steps(self, refs: tuple[str, ...]) -> None:
        from drill.tui.steps import cached_steps

        pane = self.step_pane
        if refs and refs == pane.refs and pane.views:
            if pane.index:  # same steps as the card before: just go back to the first
                pane.index = 0
                pane.render_step()
            return
        views = cached_steps(refs) if refs else None
        if views is not None:
            pane.refs = refs
            pane.show_views(refs, views)
            return
        pane.show_loading(refs)
        if refs:
            self.load_steps(refs)

    @property
    def step_pane(self) -> StepPane:
        from drill.tui.widgets.step_pane import StepPane

        return self.query_one("#steps", StepPane)

    @property
    def grade_bar(self) -> GradeBar:
        from drill.tui.widgets.grade_bar import GradeBar

        return self.query_one("#grades", GradeBar)

    def refresh_counts(self) -> None:
        assert self.session is not None
        counts = self.session.counts()
        self.query_one(StudyHeader).set_counts(
            pack=pack_title(self.session.library)
            + (" · READ-ONLY: grades are not saved" if self.session.readonly else ""),
            due=counts.due,
            new=counts.new,
            done=counts.done_today,
        )
        status = self.session.interview
        self.query_one(StudyHeader).set_interview(
            None if status is None else (status.days_left, status.readiness)
        )

    @work(thread=True, exclusive=True, group="steps")
    def load_steps(self, refs: tuple[str, ...]) -> None:
        from drill.tui.steps import load_steps

        views = load_steps(refs)
        self.app.call_from_thread(self._steps_built, refs, views)

    def _steps_built(self, refs: tuple[str, ...], views: list[StepView]) -> None:
        self.step_pane.show_views(refs, views)

    @work(thread=True, group="warm-steps")
    def warm_steps(
        self, all_refs: tuple[tuple[str, ...], ...], all_errata: tuple[list[Check], ...] = ()
    ) -> None:
        """Build every card's steps and errata notes in the background, so later cards show them with the
        card instead of after a worker's round trip (and its CPU) following each grade."""
        from drill.tui.steps import errata_notes, load_steps

        for refs in all_refs:
            load_steps(refs)
        for checks in all_errata:
            errata_notes(checks)
        try:
            self.app.call_from_thread(self._freeze_gc)
        except RuntimeError:  # the app has ended meanwhile
            pass

    def _freeze_gc(self) -> None:
        """What is loaded now (content, traces, SQLAlchemy, Textual's styles) lives as long as the screen: moved
        out of the collector's generations, a full collection no longer walks it (it halves the 150-300 ms
        pauses that follow some grades). Given back to the collector when the screen goes (on_unmount); both
        run on the UI thread, so a screen that is gone never freezes."""
        import gc

        if self._gc_state == "live":
            gc.freeze()
            self._gc_state = "frozen"

    @work(thread=True, exclusive=True, group="errata")
    def load_errata(self, card: Card) -> None:
        from drill.tui.steps import errata_notes

        assert self.session is not None
        notes = errata_notes(self.session.errata_checks(card.id))
        self.app.call_from_thread(self._show_errata, card, notes)

    def _show_errata(self, card: Card, notes: list[str]) -> None:
        if self.card is card:
            self.query_one(CardView).show_errata(notes)

    def end_session(self) -> None:
        from drill.tui.screens.summary import SummaryScreen

        assert self.session is not None
        self.card = None
        self._ended = True
        if self.session.limit_reached():
            title = _("Session limit reached ({count} reviews).").format(count=self.options.limit)
        else:
            title = _("No more cards for now.")
        self.query_one(CardView).show_message(title, "")
        self.step_pane.show_loading(())
        self.grade_bar.set_intervals({})
        self.refresh_counts()
        counts = self.session.counts()
        self.app.push_screen(
            SummaryScreen(self.session.stats, self.query_one(StudyHeader).elapsed(), counts.next_due),
            self._after_summary,
        )

    def _after_summary(self, result: str | None) -> None:
        if result == "quit":
            self.app.exit()
        elif result == "browse":
            self.action_browse()
        elif result == "continue" and self.session is not None:
            self.show_next()

    # --- actions --------------------------------------------------------------------------------------------

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

    async def action_reveal(self) -> None:
        if self.card is not None and not self.query_one(CardView).revealed:
            await self.query_one(CardView).reveal()
            self.drill_app.reached("answer", via=self)

    def action_grade(self, rating: int) -> None:
        if self.card is None:
            return
        view = self.query_one(CardView)
        if not view.revealed:
            self.notify(_("Reveal the answer first (space)."), timeout=2)
            return
        if not self._ready():
            return
        assert self.session is not None
        duration_ms = int((self.options.timer() - self._shown_at) * 1000)
        # Written in a worker: a database held by another program (SQLite waits up to its busy timeout) must
        # not freeze the screen. The next card comes only once the grade is on disk; until then keys that
        # need the store wait, the screen says why, and q still quits (an unsaved grade is then not counted).
        self.saving = self.card.id
        self._save_grade(self.card.id, rating, duration_ms)
        self.set_timer(SLOW_SAVE_S, self._still_saving)

    def _save_grade(self, card_id: str, rating: int, duration_ms: int) -> None:
        """Write the grade in a daemon thread, not a Textual worker: workers run in asyncio's default executor,
        which the app's exit joins, so quitting while the grade waits for a database another program holds
        would hang until SQLite's busy timeout (30 s). A daemon thread still waiting when drill exits is
        dropped with its grade: it was never written, and the screen never said it was saved."""
        import threading

        args = (card_id, rating, duration_ms)
        threading.Thread(target=self._write_grade, args=args, name="drill-grade", daemon=True).start()

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

    def action_step(self, delta: int) -> None:
        self.step_pane.move(delta)

    def action_toggle_pane(self) -> None:
        self.pane_wanted = not self.pane_shown
        self._apply_width(self.app.size.width)

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
            else result.action
        )
        self.notify(_("Undid {grade} on {card}.").format(grade=what, card=result.card_id), timeout=2)
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

    def action_bury(self) -> None:
        if self._ready(self.action_bury) and self.session is not None:
            self._card_action("Bury", self.session.bury)

    def action_info(self) -> None:
        if self.card is None or not self._ready(self.action_info) or self.session is None:
            return
        from drill.tui.screens.card_info import CardInfoScreen

        self.app.push_screen(CardInfoScreen(self.card, self.session.card_info(self.card.id)))

    def action_demo(self) -> None:
        if self.card is None:
            return
        from drill.content.demos import load_demos
        from drill.i18n import _
        from drill.tui.screens.demo import DemoScreen, demo_for_section, make_demo

        info = demo_for_section(load_demos(), self.card.section)
        demo = make_demo(info, self.options.content_path) if info is not None else None
        if info is None or demo is None:
            self.notify(_("no demo for section {section} in drill yet").format(section=self.card.section))
            return
        self.app.push_screen(DemoScreen(info, demo))

    def action_interview_plan(self) -> None:
        if not self._ready(self.action_interview_plan) or self.session is None or self.session.readonly:
            return
        from drill.tui.screens.plan import PlanScreen

        self.app.push_screen(PlanScreen(self.session), self._plan_closed)

    def _plan_closed(self, changed: bool | None) -> None:
        if changed and self.session is not None:
            self.refresh_counts()
            if self.card is not None:
                self.grade_bar.set_intervals(self.session.intervals(self.card.id))

    def action_search(self) -> None:
        self._open_browser(focus_search=True)

    def action_browse(self) -> None:
        self._open_browser(focus_search=False)

    def _open_browser(self, focus_search: bool) -> None:
        if not self._ready(lambda: self._open_browser(focus_search)) or self.session is None:
            return
        from drill.tui.screens.browser import BrowserScreen

        self.app.push_screen(BrowserScreen(self.session, focus_search=focus_search), self._open_from_browser)

    def _open_from_browser(self, card_id: str | None) -> None:
        if card_id is None:
            if self._ended:
                self.show_next()
            return
        assert self.session is not None
        card = self.session.card(card_id)
        if card is not None:
            self.show_card(card)

    def on_unmount(self) -> None:
        # Closing the session row is a write: with a grade still waiting for the database (quit while
        # another program holds it) it would wait just as long, so the row is left open, as after a kill.
        if self.session is not None and self.saving is None:
            self.session.close()
        if self._gc_state == "frozen":
            import gc

            gc.unfreeze()
        self._gc_state = "gone"
