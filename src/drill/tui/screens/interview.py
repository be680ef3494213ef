"""`drill interview`: a mock interview — the bank's question under a visible time budget, the answer typed (a
TextArea; the text is saved) or given aloud (drill only times it), then the rubric: the card's key points and the
section's traps, ticked by the learner; the grade proposed from the coverage (drill.tui.models.interview) is
confirmed (enter) or changed (1-4) and goes through ``Store.grade`` as in study, then the question's scorecard
row is saved. A scorecard closes the session.

Phases: "loading" → ("asking" → "rubric") × N → "done". The shell paints at once; the loading worker
(tui/screens/base.py) loads the content and opens the store; the misconceptions, which only the rubric needs,
load after the first question is on screen (a rubric reached before them waits for them). The questions and
follow-ups come from `InterviewSession` (seeded). The state (reactives) and the flow from question to question
are in interview_state.py, the rubric phase in interview_rubric.py, the closing table in interview_scorecard.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static, TextArea

from drill.errors import DrillError, InputError
from drill.i18n import N_, _, current_language
from drill.tui.models.interview import InterviewSession, Thresholds, judge_into, rubric_for
from drill.tui.models.study import GRADE_NAMES
from drill.tui.screens.interview_rubric import InterviewRubric
from drill.tui.screens.interview_state import InterviewSettings, InterviewState, shown
from drill.tui.widgets.checklist import Checklist
from drill.tui.widgets.countdown import Countdown
from drill.tui.widgets.rubric_views import RubricCorrections, RubricProposal

if TYPE_CHECKING:
    from drill.content.misconceptions import Book
    from drill.content.models import Card, Library
    from drill.srs.config import SrsConfig
    from drill.store.api import Store

__all__ = ["InterviewScreen", "InterviewSettings", "InterviewState", "shown"]


class InterviewScreen(InterviewRubric):
    CSS_PATH = "../styles/interview.tcss"
    HELP_TITLE = N_("drill interview — keys")
    PALETTE_GROUP = N_("Interview")
    HELP_NOTES = (
        (
            N_("↑/↓ · space · tab"),
            N_(
                "In the rubric: move within a list; tick or untick; go to the other list (points, misconceptions)"
            ),
        ),
    )

    BINDINGS = [
        Binding("ctrl+d", "done", N_("Done"), priority=True, tooltip=N_("stop the clock: on to the rubric")),
        Binding("space", "done", N_("Done"), show=False),
        Binding("ctrl+t", "toggle_mode", N_("Typed/aloud"), priority=True),
        *(Binding(str(g), f"grade({g})", GRADE_NAMES[g], show=False, priority=True) for g in range(1, 5)),
        Binding(
            "enter", "confirm", N_("Confirm grade"), priority=True, tooltip=N_("FSRS schedules the card")
        ),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True, tooltip=N_("the graded questions are saved")),
    ]

    # --- layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="iv-top"):
            yield Static(Text(_("drill interview · loading…")), id="iv-header")
            yield Countdown(self.options.timer, id="countdown")
        with VerticalScroll(id="iv-body"):
            yield Static("", id="iv-meta")
            yield Static(Text(_("Loading the questions…"), style="italic"), id="iv-question")
            yield Static("", id="iv-hint")
            yield Static("", id="iv-given")
            yield Static("", id="iv-model", classes="rubric")
            yield Static("", id="iv-points-head", classes="rubric")
            yield Checklist(id="iv-points", classes="rubric")
            yield Static("", id="iv-traps-head", classes="rubric")
            yield Checklist(id="iv-traps", classes="rubric")
            state = InterviewState  # the views follow the screen's reactives (data binding)
            yield RubricCorrections(id="iv-corrections").data_bind(state.rubric, state.hit, state.phase)
            yield RubricProposal(id="iv-proposal", classes="rubric").data_bind(
                state.rubric, state.covered, state.hit, state.chosen
            )
            yield Static("", id="iv-scorecard")
        yield TextArea(id="iv-answer", soft_wrap=True, show_line_numbers=False)
        yield Footer()

    async def on_mount(self) -> None:
        self._show_phase()
        await self.start_loading()

    # --- loading ------------------------------------------------------------------------------------------

    def plan(self, library: Library) -> list[Card]:
        """The bank cards with key points (in ``--section``); InputError, naming the sections, when none."""
        from drill.tui.models.interview import bank_cards

        s = self.settings
        self._library = library  # its misconceptions load after the first question (`load_book`, `prepare`)
        # the packs the store will study (drill.store.sync.content_items): the saved order's
        self.content_packs = sorted({p.id for p in library.packs} | {c.pack for c in library.cards.values()})
        self.errata = list(library.errata)
        cards = bank_cards(list(library.cards.values()), s.section)
        if not cards:
            known = sorted({c.section for c in bank_cards(list(library.cards.values()))})
            where = _(" in section {section}").format(section=s.section) if s.section else ""
            raise InputError(
                _("no bank question with key points{where} (sections with some: {known})").format(
                    where=where, known=", ".join(known) or "-"
                )
            )
        return cards

    def prepare(self, cards: list[Card], store: Store) -> InterviewSession:
        from drill.content.misconceptions import load_misconceptions
        from drill.tui.models.interview import store_order
        from drill.tui.models.interview_peek import save_order_key

        if not self._book_started:  # no question before the store (`planned`): the rubric's traps now
            assert self._library is not None
            self.app.call_from_thread(self.book_loaded, load_misconceptions(self._library))
        save_order_key(store, self.options.db_url)  # what the next interview checks to order before the store
        self._read_settings(store.config)
        ordered = store_order(cards, store, self.options.clock(), seed=self.settings.seed)
        return InterviewSession(ordered, self.settings.questions, self.settings.follow_up, self.settings.seed)

    def _read_settings(self, config: SrsConfig) -> None:
        s = self.settings
        s.minutes = self._minutes if self._minutes is not None else config.interview_minutes
        s.follow_up = self._follow_up if self._follow_up is not None else config.interview_follow_up
        s.thresholds = Thresholds.of(config)

    def planned(self, cards: list[Card]) -> None:
        """Before the store opens (sqlalchemy takes a while): the first question in the store's own order, when
        the database tells it for sure without it (drill.tui.models.interview_peek), with the time
        budget and thresholds from drill.toml. The learner can start answering at once; `ready` takes the
        store's session when it opens."""
        from drill.srs import load_config
        from drill.tui.models.interview_peek import peek_order

        ordered = peek_order(
            cards,
            self.options.clock(),
            packs=self.content_packs,
            seed=self.settings.seed,
            user=self.options.user,
            db_url=self.options.db_url,
        )
        if ordered is None:
            return
        self._read_settings(load_config())
        self.ready(
            InterviewSession(ordered, self.settings.questions, self.settings.follow_up, self.settings.seed)
        )
        self._book_started = True
        self.call_after_refresh(self.load_book)  # once the question is on screen

    @work(thread=True, exclusive=True, group="misconceptions")
    def load_book(self) -> None:
        """The misconceptions, beside the store's opening: only the rubric needs them (`book_loaded`)."""
        from drill.content.misconceptions import load_misconceptions

        assert self._library is not None
        try:
            book = load_misconceptions(self._library)
        except DrillError as err:
            self.app.call_from_thread(self.drill_app.fail, err)
            return
        self.app.call_from_thread(self.book_loaded, book)

    def ready(self, session: InterviewSession) -> None:
        if self.session is not None:  # already asking (`planned`): the store's session from here on
            self._store_opened(session)
            return
        self.session = session
        self.query_one(RubricProposal).thresholds = self.settings.thresholds  # drill config's, loaded
        self.drill_app.interview_answers = self.answers
        self.ask_next()

    def _store_opened(self, session: InterviewSession) -> None:
        """The store is open. Before a word is typed, a different first question replaces the one shown (as
        study's peek does); otherwise (typed into, answered, or being answered aloud) the question asked stays
        the first and the store's order follows it. A grade confirmed meanwhile is saved now."""
        assert self.session is not None and self.asked is not None
        self.query_one(RubricProposal).thresholds = self.settings.thresholds  # the store's config
        editor = self.query_one("#iv-answer", TextArea)
        untouched = self.phase == "asking" and self.typed and not editor.text and not self.done_waiting
        if untouched and session.pool[0].id != self.asked.card.id:
            self.session = session
            self.ask_next()
            return
        session.asked = list(self.session.asked)
        self.session = session
        self.refresh_header()
        if self.confirm_waiting:
            self.confirm_waiting = False
            self.action_confirm()

    # --- asking ------------------------------------------------------------------------------------------

    def action_toggle_mode(self) -> None:
        self.typed = not self.typed

    def on_countdown_expired(self, message: Countdown.Expired) -> None:
        if self.phase == "asking":
            self.timed_out = True
            self.action_done()

    def action_done(self) -> None:
        """The clock stops and the answer is taken; the rubric follows, once the misconceptions it lists are
        loaded (they load after the first question is on screen: `load_book`)."""
        if self.phase != "asking" or self.asked is None or self.done_waiting:
            return
        countdown = self.query_one(Countdown)
        countdown.stop()
        self.duration_ms = int(countdown.elapsed() * 1000)
        editor = self.query_one("#iv-answer", TextArea)
        editor.read_only = True
        self.answer_text = editor.text if self.typed else None
        if self.rubric is None:
            self.done_waiting = True
            self.refresh_bindings()
            self.query_one("#iv-hint", Static).update(Text(_("Loading the rubric…"), style="italic"))
            return
        self._show_rubric()

    def book_loaded(self, book: Book) -> None:
        """On the UI thread: the misconceptions are loaded; the question asked gets its rubric, and an answer
        done meanwhile goes on to it."""
        self.book = book
        if self.asked is not None and self.rubric is None:
            self.rubric = rubric_for(self.asked.card, book, current_language())
        if self.done_waiting:
            self.done_waiting = False
            self.refresh_bindings()
            self._show_rubric()

    def _show_rubric(self) -> None:
        assert self.rubric is not None
        if self.answer_text is not None and self.answer_text.strip():
            judge_into(self.rubric, self.answer_text)  # the judge's ticks; the learner may change any of them
        self.covered = frozenset(self.rubric.covered)
        self.hit = frozenset(self.rubric.hit)
        self.phase = "rubric"  # the rubric is filled from the state (InterviewRubric.watch_phase)
        self.query_one("#iv-points", Checklist).focus()
        self.query_one("#iv-body", VerticalScroll).scroll_home(animate=False)

    def on_unmount(self) -> None:
        self.close_store()
