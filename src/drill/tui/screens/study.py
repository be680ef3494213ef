"""`drill study`: the review screen — layout, loading and the session's flow from card to card.

The shell (header, empty card, grade bar, footer) paints at once. A thread worker then loads the content
(JSON cache) and peeks at the first card with the stdlib's sqlite3 (`drill.store.peek`: the store's own SQL,
read-only); that question is shown at once. Only then does another worker open the store (sqlalchemy) and
hand a `StudySession` back, which chooses the first card itself (swapping the peeked one in the rare case
they differ). Nothing that needs the store — grades, intervals, undo, suspend... — runs before that: such a
key says so on screen.

Split by concern: loading (first paint, first card, the store) in `study_loading.py`, grading and the card
actions in `study_grading.py`, the side pane (engine steps, errata)
in `study_pane.py`, the screens it opens (browser, card info, demo, interview date, custom study) in
`study_navigation.py`; which widget shows a card is `tui.widgets.card_views.card_view_for(kind)`.
The footer shows what can be done now (the reveal key before the answer, the four grades after it), and
keeps ? and q visible at any width (`tui.widgets.footer.StudyFooter`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Static

from drill.i18n import N_, _
from drill.tui.models.study import StudySession, pack_title
from drill.tui.options import AppOptions
from drill.tui.screens.base import ModeScreen
from drill.tui.screens.study_grading import StudyGrading
from drill.tui.screens.study_loading import StudyLoading
from drill.tui.screens.study_navigation import StudyNavigation
from drill.tui.screens.study_pane import StudyPane
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.header import StudyHeader

if TYPE_CHECKING:
    from collections.abc import Callable

    from drill.content.models import Card, Library
    from drill.tui.widgets.grade_bar import GradeBar

GRADE_KEYS = ("1", "2", "3", "4")


class StudyScreen(StudyLoading, StudyGrading, StudyPane, StudyNavigation, ModeScreen):
    CSS_PATH = "../styles/study.tcss"
    HELP_TITLE = N_("drill study — keys")
    PALETTE_GROUP = N_("Study")
    AUTO_FOCUS = None  # the card view is mounted after the first paint and focused then

    # The footer lists them in this order, hiding what can't be done now (check_action); ? and q stay pinned
    # on its right at any width.
    BINDINGS = [
        Binding("space", "reveal", N_("Show answer"), priority=True),
        Binding("enter", "reveal", N_("Show answer"), show=False, priority=True),
        Binding("1", "grade(1)", N_("Again")),
        Binding("2", "grade(2)", N_("Hard")),
        Binding("3", "grade(3)", N_("Good")),
        Binding("4", "grade(4)", N_("Easy")),
        Binding("left", "step(-1)", N_("Previous step"), key_display="←", show=False, priority=True),
        Binding("right", "step(1)", N_("Next step"), key_display="→", show=False, priority=True),
        Binding("u", "undo", N_("Undo")),
        Binding("slash", "search", N_("Search"), key_display="/"),
        Binding("l", "browse", N_("Browse")),
        Binding("p", "toggle_pane", N_("Steps pane")),
        Binding(
            "h",
            "heatmap",
            N_("Heatmap"),
            show=False,
            tooltip=N_("the side pane's matrices shaded by value, or as plain numbers"),
        ),
        Binding("s", "suspend", N_("Suspend")),
        Binding("b", "bury", N_("Bury")),
        Binding("i", "info", N_("Card info")),
        Binding(
            "c",
            "custom_study",
            N_("Custom study"),
            show=False,
            tooltip=N_("study a section now, review ahead, today's forgotten cards, preview new cards"),
        ),
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

    def on_resize(self, event: events.Resize) -> None:
        self._apply_width(event.size.width)

    @property
    def card_view(self) -> CardView:
        return self.query_one(CardView)

    @property
    def revealed(self) -> bool:
        views = self.query(CardView)
        return bool(views) and views.first().revealed

    @property
    def grade_bar(self) -> GradeBar:
        from drill.tui.widgets.grade_bar import GradeBar

        return self.query_one("#grades", GradeBar)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """What the footer lists is what a key does now: the reveal before the answer, grades after it."""
        if action == "reveal":
            return self.card is not None and not self.revealed
        if action == "grade":
            return self.card is not None and self.revealed
        if action in ("suspend", "bury", "info", "undo") and self.session is None:
            return None  # shown greyed until the store is open
        return True

    def on_key(self, event: events.Key) -> None:
        # A grade key before the answer is shown: its binding is off (not in the footer); say why.
        if event.key in GRADE_KEYS and self.card is not None and not self.revealed:
            event.stop()
            self.action_grade(int(event.key))

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
        from drill.tui.models.custom_study import card_kind
        from drill.tui.widgets.card_views import card_view_for

        self.card = card
        self._ended = False
        view_class = card_view_for(card_kind(card))
        if type(self.card_view) is not view_class:
            self.call_later(self._swap_card_view, view_class, card)
        else:
            self.card_view.show_card(card)
        self._shown_at = self.options.timer()
        if steps:
            self._show_steps(tuple(card.steps))
        self._apply_width(self.app.size.width)
        self._revealed_changed()
        self.drill_app.reached("card", via=self)

    async def _swap_card_view(self, view_class: type[CardView], card: Card) -> None:
        """Another kind of card: its own view replaces the one on screen (card_views.card_view_for)."""
        await self.card_view.remove()
        view = view_class(id="card")
        await self.query_one("#body", Horizontal).mount(view, before=0)
        if self.card is card:
            view.show_card(card)
        view.focus()
        self._apply_width(self.app.size.width)
        self._revealed_changed()

    def _revealed_changed(self) -> None:
        """The grade buttons look live only once the answer is shown; the footer lists what can be done."""
        if self.query("#grades"):
            self.grade_bar.set_enabled(self.revealed)
        self.refresh_bindings()

    def _show_store_parts(self, card: Card) -> None:
        """What needs the store: each grade's interval, the counts; and the card's errata notes."""
        assert self.session is not None
        if self.session.preview:
            self.grade_bar.set_preview()
        else:
            self.grade_bar.set_intervals(self.session.intervals(card.id))
        self.refresh_counts()
        checks = self.session.errata_checks(card.id)
        if checks:
            from drill.tui.steps import cached_errata

            notes = cached_errata(checks)
            if notes is None:
                self.load_errata(card)
            else:
                self.card_view.show_errata(notes)

    def refresh_counts(self) -> None:
        from drill.tui.models.custom_study import MODE_NAMES

        assert self.session is not None
        counts = self.session.counts()
        pack = pack_title(self.session.library)
        if self.session.readonly:
            pack += " · " + _("READ-ONLY: grades are not saved")
        mode = self.session.mode
        header = self.query_one(StudyHeader)
        header.set_counts(
            pack=pack,
            new=counts.new,
            learning=counts.learning,
            review=counts.review,
            done=counts.done_today if mode is None else len(self.session.stats.card_ids),
            mode=None if mode is None else _(MODE_NAMES[mode]),
        )
        status = self.session.interview
        header.set_interview(None if status is None else (status.days_left, status.readiness))

    def end_session(self) -> None:
        from drill.tui.screens.summary import SummaryScreen

        assert self.session is not None
        self.card = None
        self._ended = True
        if self.session.limit_reached():
            title = _("Session limit reached ({count} reviews).").format(count=self.options.limit)
        else:
            title = _("No more cards for now.")
        self.card_view.show_message(title, "")
        self.step_pane.show_loading(())
        self.grade_bar.set_intervals({})
        self._revealed_changed()
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

    async def action_reveal(self) -> None:
        if self.card is not None and not self.revealed:
            await self.card_view.reveal()
            self._revealed_changed()
            self.drill_app.reached("answer", via=self)

    def on_unmount(self) -> None:
        # Closing the session row is a write: with a grade still waiting for the database (quit while
        # another program holds it) it would wait just as long, so the row is left open, as after a kill.
        if self.session is not None and self.saving is None:
            self.session.close()
        self._stop_grade_writer()
        self._drop_browser()
        if self._gc_state == "frozen":
            import gc

            gc.unfreeze()
        self._gc_state = "gone"
