"""The study screen's side pane and errata notes: the engine steps a card names, built in thread workers
(numpy) and cached, so a key never waits on the engine. A mixin of `StudyScreen` (tui/screens/study.py).

Reveal and search never wait on it either: the traces are built in a worker, and the warm-up of every card's
steps after the store opens runs in small pieces (one card's steps at a time, yielding between them) so the
UI thread is not starved of the GIL while the learner presses keys.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import work

if TYPE_CHECKING:
    from drill.content.models import Card, Check
    from drill.tui.steps import StepView
    from drill.tui.widgets.step_pane import StepPane

# Below this width the side pane is hidden unless asked for (and then it covers the card).
NARROW_WIDTH = 100
# The background warm-up pauses this long between two cards' steps (lets the UI thread take the GIL).
WARM_PAUSE_S = 0.02


class StudyPane:
    """The side pane's half of the study screen; expects the StudyScreen's attributes."""

    card: Card | None
    pane_shown: bool
    pane_wanted: bool | None
    _gc_state: str

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

    @work(thread=True, exclusive=True, group="steps")
    def load_steps(self, refs: tuple[str, ...]) -> None:
        from drill.tui.steps import load_steps

        views = load_steps(refs)
        self.app.call_from_thread(self._steps_built, refs, views)

    def _steps_built(self, refs: tuple[str, ...], views: list[StepView]) -> None:
        self.step_pane.show_views(refs, views)

    def start_warm_up(self, cards: list[Card], errata: tuple[list[Check], ...]) -> None:
        """Warm every card's steps and errata notes, in the order the cards come (new cards by their place in
        the pack); the pane then lays each card's first step out at its width (`StepPane.prime`)."""
        coming = tuple(tuple(card.steps) for card in cards if card.steps)
        self.step_pane.prime(coming)
        self.warm_steps(tuple(dict.fromkeys(coming)), errata)

    @work(thread=True, group="warm-steps")
    def warm_steps(
        self, all_refs: tuple[tuple[str, ...], ...], all_errata: tuple[list[Check], ...] = ()
    ) -> None:
        """Build every card's steps and errata notes in the background, so later cards show them with the
        card instead of after a worker's round trip (and its CPU) following each grade. One card at a time
        with a pause between: a key pressed meanwhile is handled at once."""
        from drill.tui.steps import errata_notes, load_steps

        for refs in all_refs:
            load_steps(refs)
            time.sleep(WARM_PAUSE_S)
        for checks in all_errata:
            errata_notes(checks)
            time.sleep(WARM_PAUSE_S)
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
            self.card_view.show_errata(notes)

    def action_step(self, delta: int) -> None:
        self.step_pane.move(delta)

    def action_toggle_pane(self) -> None:
        self.pane_wanted = not self.pane_shown
        self._apply_width(self.app.size.width)

    def action_heatmap(self) -> None:
        """The pane's matrices as numbers in plain tables, or shaded as a heatmap (tui/widgets/heatmap.py)."""
        pane = self.step_pane
        pane.heatmap = not pane.heatmap
        if not self.pane_shown:
            self.action_toggle_pane()
