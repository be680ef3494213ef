"""Card views whose answer side is a screen of its own (registered in `card_views.CARD_VIEWS` by kind).

A code card's answer is the code editor (`tui/screens/code.py`, pushed with the study session's store), a
hand-calculation card's the typed answer the engine checks (`tui/screens/calc_card.py`). Revealing such a card
pushes its screen; the grade the learner confirms there comes back, the card is shown revealed and the view
posts `AnswerScreenView.Graded`: the study screen grades it like any card (FSRS, undo, the next card). Going
back without a grade leaves the card as it was. The study screen gives the view what its answer screen needs
(``options``, ``store``: None until the store is open).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from drill.i18n import _
from drill.tui.widgets.card_view import CardView

if TYPE_CHECKING:
    from textual.screen import Screen

    from drill.content.models import Card
    from drill.store.api import Store
    from drill.tui.options import AppOptions


class AnswerScreenView(CardView):
    class Graded(Message):
        """The learner confirmed a grade on the card's answer screen; the card is shown revealed."""

        def __init__(self, card: Card, rating: int) -> None:
            super().__init__()
            self.card = card
            self.rating = rating

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.options: AppOptions | None = None
        self.store: Store | None = None

    def answer_screen(self, card: Card, options: AppOptions, store: Store) -> Screen:
        raise NotImplementedError

    async def reveal(self) -> None:
        if self.card is None or self.revealed:
            return
        if self.options is None or self.store is None:
            self.notify(_("Still opening your progress database — nothing was done; try again in a moment."))
            return
        card = self.card

        def answered(rating: int | None) -> None:
            if rating is not None and self.card is card:
                self.call_later(self._graded, card, rating)

        self.app.push_screen(self.answer_screen(card, self.options, self.store), answered)

    async def _graded(self, card: Card, rating: int) -> None:
        await super().reveal()
        self.post_message(self.Graded(card, rating))


class CodeCardView(AnswerScreenView):
    def answer_screen(self, card: Card, options: AppOptions, store: Store) -> Screen:
        from drill.tui.screens.code import code_card_screen

        return code_card_screen(options, getattr(card, "task", ""), store)


class CalcCardView(AnswerScreenView):
    def answer_screen(self, card: Card, options: AppOptions, store: Store) -> Screen:
        from drill.content.kinds import CalcCard
        from drill.tui.screens.calc_card import CalcCardScreen

        assert isinstance(card, CalcCard)  # card_views.CARD_VIEWS: this view shows calc cards
        return CalcCardScreen(card)
