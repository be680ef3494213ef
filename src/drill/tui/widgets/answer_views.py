"""Card views whose answer side is a screen of its own (registered in `card_views.CARD_VIEWS` by kind).

A code card's answer is the code editor (`tui/screens/code.py`, pushed with the study session's store), a
hand-calculation card's the typed answer the engine checks (`tui/screens/calc_card.py`). Revealing such a card
pushes its screen; the grade the learner confirms there comes back, the card is shown revealed and the study
screen grades it like any card (FSRS, undo, the next card). Going back without a grade leaves the card as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drill.i18n import _
from drill.tui.widgets.card_view import CardView

if TYPE_CHECKING:
    from textual.screen import Screen

    from drill.content.models import Card


class AnswerScreenView(CardView):
    def answer_screen(self, card: Card, study) -> Screen:
        raise NotImplementedError

    async def reveal(self) -> None:
        if self.card is None or self.revealed:
            return
        study = self.screen
        if getattr(study, "session", None) is None:
            self.notify(_("Still opening your progress database — nothing was done; try again in a moment."))
            return
        card = self.card

        def answered(rating: int | None) -> None:
            if rating is not None and self.card is card:
                self.call_later(self._graded, study, rating)

        self.app.push_screen(self.answer_screen(card, study), answered)

    async def _graded(self, study, rating: int) -> None:
        await super().reveal()
        study._revealed_changed()
        study.action_grade(rating)


class CodeCardView(AnswerScreenView):
    def answer_screen(self, card: Card, study) -> Screen:
        from drill.tui.screens.code import code_card_screen

        return code_card_screen(study.options, getattr(card, "task", ""), study.session.store)


class CalcCardView(AnswerScreenView):
    def answer_screen(self, card: Card, study) -> Screen:
        from drill.tui.screens.calc_card import CalcCardScreen

        return CalcCardScreen(card)
