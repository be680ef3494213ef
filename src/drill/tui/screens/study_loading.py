"""The study screen's loading, from the first paint to an open store: the card first (from the content cache
and a read-only peek at the database, `drill.tui.models.study.peek_first_card`), then the side pane, grade bar
and footer, then the store (a thread worker: sqlalchemy) and the session it hands back. A mixin of `StudyScreen`
(tui/screens/study.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.containers import Horizontal
from textual.widgets import Static

from drill.errors import DrillError
from drill.tui.models.study import pack_title
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.header import StudyHeader

if TYPE_CHECKING:
    from drill.content.models import Card, Library
    from drill.tui.models.study import StudySession
    from drill.tui.options import AppOptions

# The session's browser is built this long after the session is ready, while the learner reads the first card
# (StudyNavigation.prepare_browser): not at once, so the first card's own paint and keys go first.
PREPARE_BROWSER_S = 0.3


class StudyLoading:
    """Expects the StudyScreen's attributes (options, library, card, session, show_card...)."""

    options: AppOptions
    library: Library | None
    card: Card | None
    session: StudySession | None
    question_shown: bool

    async def _after_first_paint(self) -> None:
        # The card first: a peeked question shows before the side pane, grade bar and footer are built.
        await self.query_one("#loading", Static).remove()
        await self.query_one("#body", Horizontal).mount(CardView(id="card"))
        self._apply_width(self.app.size.width)
        self.card_view.focus()
        self.load_first()

    async def _complete_screen(self) -> None:
        """Mount the side pane, grade bar and footer, then open the store."""
        from drill.tui.widgets.footer import StudyFooter
        from drill.tui.widgets.grade_bar import GradeBar
        from drill.tui.widgets.step_pane import StepPane

        await self.query_one("#body", Horizontal).mount(StepPane(id="steps"))
        self._apply_width(self.app.size.width)
        await self.mount(GradeBar(id="grades"), StudyFooter())
        self.grade_bar.set_enabled(self.revealed)
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
        self.refresh_bindings()
        cards = list(session.library.cards.values())
        self.start_warm_up(
            cards, tuple(checks for card in cards if (checks := session.errata_checks(card.id)))
        )
        self.set_timer(PREPARE_BROWSER_S, self.prepare_browser)
