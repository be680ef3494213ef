"""`drill study`: the review screen — layout, loading and the session's flow from card to card.

The first paint holds the first card: before it, the content comes from its JSON cache (milliseconds) and
the first card from a peek with the stdlib's sqlite3 (`drill.store.peek`: the store's own SQL, read-only).
Content to be built (no cache entry; seconds) is loaded in a thread worker instead, the shell painted
meanwhile. The side pane, grade bar and footer follow the card's paint. Only then does a worker open the store (sqlalchemy) and
hand a `StudySession` back, which chooses the first card itself (swapping the peeked one in the rare case
they differ). Nothing that needs the store — grades, intervals, undo, suspend... — runs before that: such a
key says so on screen.

The state (card, revealed, session, saving, the side pane) is declared once, in reactives, in
`study_state.StudyState` with the session's flow from card to card; the parts built on it add behaviour only:
loading (first paint, first card, the store, the warm-up) in `study_loading.py`, grading and the card actions in
`study_grading.py`, the screens it opens (browser, card info, demo, interview date, custom study) in
`study_navigation.py`. The side pane loads the steps it is given (`tui.widgets.step_pane.StepPane.show_refs`),
the card view its errata notes; which widget shows a card is `tui.widgets.card_views.card_view_for(kind)`.
The footer shows what can be done now (the reveal key before the answer, the four grades after it), and
keeps ? and q visible at any width (`tui.widgets.footer.StudyFooter`).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Static

from drill.i18n import N_, _
from drill.tui.marks import flag_bindings
from drill.tui.screens.study_grading import StudyGrading
from drill.tui.screens.study_loading import StudyLoading
from drill.tui.screens.study_navigation import StudyNavigation
from drill.tui.screens.study_state import NARROW_WIDTH
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.header import StudyHeader

GRADE_KEYS = ("1", "2", "3", "4")


class StudyScreen(StudyNavigation, StudyGrading, StudyLoading):
    CSS_PATH = "../styles/study.tcss"
    HELP_TITLE = N_("drill study — keys")
    PALETTE_GROUP = N_("Study")
    AUTO_FOCUS = None  # the card view is mounted after the first paint and focused then

    # The footer lists them in this order, hiding what can't be done now (check_action); ? and q stay pinned
    # on its right at any width.
    BINDINGS = [
        # the bar's button (and the card's hint) offer the reveal: the footer does not say it a third time
        Binding("space", "reveal", N_("Show answer"), show=False, priority=True),
        Binding("enter", "reveal", N_("Show answer"), show=False, priority=True),
        Binding("1", "grade(1)", N_("Again")),
        Binding("2", "grade(2)", N_("Hard")),
        Binding("3", "grade(3)", N_("Good")),
        Binding("4", "grade(4)", N_("Easy")),
        Binding("left", "step(-1)", N_("Previous step"), key_display="←", show=False, priority=True),
        Binding("right", "step(1)", N_("Next step"), key_display="→", show=False, priority=True),
        Binding(
            "n",
            "show_now",
            N_("Show now"),
            tooltip=N_("while waiting for learning cards due later today: the first of them, now"),
        ),
        Binding("u", "undo", N_("Undo")),
        Binding("ctrl+z", "undo", N_("Undo"), key_display="ctrl+z", show=False),  # Anki's key
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
        Binding("at", "suspend", N_("Suspend"), key_display="@", show=False),  # Anki's key
        Binding("b", "bury", N_("Bury")),
        Binding("minus", "bury", N_("Bury"), key_display="-", show=False),  # Anki's key
        *flag_bindings(),  # Anki's ctrl+1 … ctrl+7 flags (ctrl+0 removes), * marks
        Binding("pageup", "page(-1)", N_("Scroll the card up a page"), key_display="PgUp", show=False),
        Binding("pagedown", "page(1)", N_("Scroll the card down a page"), key_display="PgDn", show=False),
        Binding("i", "info", N_("Card info")),
        Binding(
            "c",
            "custom_study",
            N_("Custom study"),
            show=False,
            tooltip=N_("study a section now, review ahead, today's forgotten cards, preview new cards"),
        ),
        Binding(
            "plus",
            "study_more",
            N_("Study more today"),
            key_display="+",
            show=False,
            tooltip=N_(
                "add new cards or reviews to today's limits (drill study --more N / --more-reviews N)"
            ),
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

    # --- layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # The shell: `on_mount` puts the card in it before the first paint when the content is cached.
        yield StudyHeader(self.options.timer, id="header")
        with Horizontal(id="body"):
            yield Static(Text(_("loading the cards and your progress…"), style="italic"), id="loading")

    async def on_mount(self) -> None:
        self.narrow = self.app.size.width < NARROW_WIDTH
        # The card from the content cache and the peek (milliseconds) before the first paint; the store's
        # imports (sqlalchemy) start only after it, so they never compete with it for the GIL.
        await self._show_first()

    def on_resize(self, event: events.Resize) -> None:
        self.narrow = event.size.width < NARROW_WIDTH

    def on_key(self, event: events.Key) -> None:
        # A grade key before the answer is shown: its binding is off (not in the footer); say why.
        if event.key in GRADE_KEYS and self.card is not None and not self.revealed:
            event.stop()
            self.action_grade(int(event.key))

    # --- actions --------------------------------------------------------------------------------------------

    async def action_reveal(self) -> None:
        if self.card is not None and not self.revealed:
            view = self.card_view
            await view.reveal()
            self.revealed = view.revealed  # a code or calc card's answer is a screen of its own: not yet

    async def on_reveal_button_pressed(self) -> None:
        await self.action_reveal()

    def action_show_now(self) -> None:
        self.show_now()

    def action_step(self, delta: int) -> None:
        self.step_pane.move(delta)

    def action_page(self, delta: int) -> None:
        """PgUp / PgDn: the card a page up or down (the card view's own keys when it has the focus)."""
        for view in self.query(CardView):  # none while content to be built is loading
            if delta < 0:
                view.scroll_page_up()
            else:
                view.scroll_page_down()

    def action_toggle_pane(self) -> None:
        self.pane_wanted = not self.pane_shown

    def action_heatmap(self) -> None:
        """The pane's matrices as numbers in plain tables, or shaded as a heatmap (tui/widgets/heatmap.py)."""
        pane = self.step_pane
        pane.heatmap = not pane.heatmap
        if not self.pane_shown:
            self.action_toggle_pane()

    def on_unmount(self) -> None:
        # Closing the session row is a write: with a grade still waiting for the database (quit while
        # another program holds it) it would wait just as long, so the row is left open, as after a kill.
        if self.session is not None and self.saving is None:
            self.session.close()
        self._stop_grade_writer()
        self._drop_browser()
