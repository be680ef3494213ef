"""The study screen's loading, from the first paint to an open store: the card first (from the content cache
and a read-only peek at the database, `drill.tui.models.study.peek_first_card`), then the side pane, grade bar
and footer, then the store (a thread worker: sqlalchemy) and the session it hands back; then every card's steps
and errata notes warmed in the background. A part of `StudyScreen` (tui/screens/study.py) on its state
(`StudyState`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.containers import Horizontal
from textual.widgets import Static

from drill.errors import DrillError
from drill.tui.models.study import pack_title
from drill.tui.screens.study_state import StudyState
from drill.tui.widgets.card_view import CardView

if TYPE_CHECKING:
    from drill.content.models import Card, Check, Library
    from drill.tui.models.study import StudySession


class StudyLoading(StudyState):
    async def _show_first(self) -> None:
        """The content, and (default SQLite database) a read-only peek at the first card: no sqlalchemy. From the
        content cache this takes a few milliseconds, done before the first paint; content to be built is loaded
        in a worker, the shell ("loading…") on screen meanwhile."""
        from drill.tui.models.study import load_library, peek_first_card

        try:
            library = load_library(self.options, cached_only=True)
        except DrillError as err:
            self.drill_app.fail(err)
            return
        if library is None:
            self.load_first_in_worker()
        else:
            await self._first_card_known(library, peek_first_card(library, self.options))

    async def _complete_screen(self) -> None:
        """Mount the side pane, grade bar and footer, then open the store."""
        from drill.tui.widgets.footer import StudyFooter
        from drill.tui.widgets.grade_bar import GradeBar
        from drill.tui.widgets.step_pane import StepPane

        await self.query_one("#body", Horizontal).mount(StepPane(id="steps"))
        self._place_pane()
        await self.mount(GradeBar(id="grades"), StudyFooter())
        self._follow_bar()
        self.refresh_bindings()  # a footer mounted late shows the keys once bindings are published
        if self.card is not None and self.session is None:
            self.step_pane.show_refs(tuple(self.card.steps))
        self.load_session(self.library)

    @work(thread=True, exclusive=True, group="load")
    def load_first_in_worker(self) -> None:
        from drill.tui.models.study import load_library, peek_first_card

        try:
            library = load_library(self.options)
        except DrillError as err:
            self.app.call_from_thread(self.drill_app.fail, err)
            return
        assert library is not None
        card = peek_first_card(library, self.options)
        self.app.call_from_thread(self.call_later, self._first_card_known, library, card)

    async def _first_card_known(self, library: Library, card: Card | None) -> None:
        # The card first: a peeked question shows before the side pane, grade bar and footer are built.
        await self.query_one("#loading", Static).remove()
        view = CardView(id="card")
        await self.query_one("#body", Horizontal).mount(view)
        self._place_pane()
        view.focus()
        self.library = library
        if card is None:
            self.call_later(self._complete_screen)
            return
        self._show_question(card, steps=False)
        self.header.set_pack(pack_title(library))
        # The rest of the screen and the store's imports would compete with painting the question.
        self.call_after_refresh(self._complete_screen)

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
        card = session.next_card()
        if card is not None and self.card is not None and card.id == self.card.id:
            self._show_store_parts(card)  # the peek was right: the card stays as it is (revealed or not)
        elif card is None:
            self.nothing_now()
        else:
            self.show_card(card)
        cards = list(session.library.cards.values())
        self.warm_up(
            tuple(dict.fromkeys(tuple(card.steps) for card in cards if card.steps)),
            tuple(checks for card in cards if (checks := session.errata_checks(card.id))),
        )

    # --- the warm-up ----------------------------------------------------------------------------------------

    @work(thread=True, group="warm-steps")
    def warm_up(self, all_refs: tuple[tuple[str, ...], ...], all_errata: tuple[list[Check], ...]) -> None:
        """Build every card's steps and errata notes in the background (in the order the cards come), so
        later cards show them with the card instead of after a worker's round trip following each grade."""
        from drill.tui.steps import errata_notes, load_steps

        for refs in all_refs:
            load_steps(refs)
        for checks in all_errata:
            errata_notes(checks)
