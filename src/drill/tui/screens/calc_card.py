"""A hand-calculation card's answer side in `drill study`: type the element, the engine checks it.

Pushed by the study screen for a card of kind ``calc`` (drill.content.kinds.CalcCard). The learner types the
element they computed on paper (or presses enter with nothing typed to see the answer); the value is checked at
the chapter's precision against the engine's (|typed − engine| ≤ half a unit of the last printed decimal), the
whole step is shown from the engine with the element highlighted, beside the chapter's printed value and its
erratum when the chapter is wrong. A right value proposes Good, a wrong one Again; 1-4 change it, enter
confirms, and the study screen grades the card (FSRS) like any other. Escape goes back without a grade.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from drill.i18n import N_, _
from drill.tui.text import visible

if TYPE_CHECKING:
    from drill.content.kinds import CalcCard

GRADE_NAMES = {1: N_("Again"), 2: N_("Hard"), 3: N_("Good"), 4: N_("Easy")}


def engine_step(card: CalcCard) -> np.ndarray:
    """The step's output from the engine's trace of the card's example (the truth, not the chapter)."""
    from drill.engine.examples import build_example

    return np.asarray(build_example(card.example)[card.step].output, dtype=np.float64)


def typed_is_right(typed: float, value: float, decimals: int) -> bool:
    """Right to the chapter's precision: within half a unit of the last decimal it prints."""
    return abs(typed - value) <= 0.5 * 10.0**-decimals + 1e-9


def step_table(output: np.ndarray, index: tuple[int, ...], decimals: int) -> Text:
    """The step's matrix, rows and columns numbered from 1, the asked element highlighted."""
    m = np.atleast_2d(output)
    at = index if len(index) == 2 else (0, index[0]) if index else (0, 0)
    cells = [[f"{v:.{decimals}f}" for v in row] for row in m]
    width = max(len(c) for row in cells for c in row)
    text = Text("     " + "".join(f"{j + 1:>{width + 2}}" for j in range(m.shape[1])) + "\n", style="dim")
    for i, row in enumerate(cells):
        text.append(f"{i + 1:>4} ", style="dim")
        for j, cell in enumerate(row):
            text.append("  ")
            text.append(cell.rjust(width), style="reverse bold" if (i, j) == at else "")
        text.append("\n")
    return text


class CalcCardScreen(Screen[int | None]):
    """Type the element; see the engine's step; confirm the proposed grade (dismisses with it)."""

    CSS_PATH = "../styles/calc_card.tcss"
    AUTO_FOCUS = "#calc-answer"
    HELP_TITLE = N_("hand calculation — keys")
    PALETTE_GROUP = N_("Hand calculation")

    BINDINGS = [
        Binding("1", "grade(1)", N_("Again"), show=False),
        Binding("2", "grade(2)", N_("Hard"), show=False),
        Binding("3", "grade(3)", N_("Good"), show=False),
        Binding("4", "grade(4)", N_("Easy"), show=False),
        Binding("enter", "grade(0)", N_("Confirm grade"), show=False),
        Binding("escape", "back", N_("Back"), tooltip=N_("back to the card, not graded")),
    ]

    def __init__(self, card: CalcCard) -> None:
        super().__init__()
        self.card = card
        self.value: float | None = None  # the engine's element, once checked
        self.right: bool | None = None  # None: nothing typed
        self.proposed: int | None = None
        self.typed: float | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="calc-card"):
            yield Static(Text(visible(self.card.front_text())), id="calc-card-question")
            yield Input(
                placeholder=_("your value (enter to check; enter with nothing typed shows the answer)"),
                id="calc-answer",
            )
            yield Static("", id="calc-card-result")
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        from drill.content.generated import parse_number
        from drill.errors import InputError

        typed = None
        if event.value.strip():
            try:
                typed = parse_number(event.value)
            except InputError as err:
                self.notify(str(err), severity="warning")
                return
        output = engine_step(self.card)
        self.value = float(output[self.card.index])
        self.typed = typed
        self.right = None if typed is None else typed_is_right(typed, self.value, self.card.decimals)
        self.proposed = 3 if self.right else 1
        answer = self.query_one("#calc-answer", Input)
        answer.disabled = True  # one answer per showing; 1-4 and enter now grade
        self.set_focus(None)
        self._show(output)

    def _show(self, output: np.ndarray) -> None:
        typed = self.typed
        card, d = self.card, self.card.decimals
        assert self.value is not None
        text = Text()
        if typed is not None:
            mark, style = ("✓", "bold green") if self.right else ("✗", "bold red")
            text.append(f"{mark} " + _("you typed {typed}").format(typed=f"{typed:g}") + "\n", style=style)
        text.append(
            _("{element} = {value} (the engine, to {decimals} decimals)").format(
                element=card.element, value=f"{self.value:.{d}f}", decimals=d
            )
            + "\n\n",
            style="bold",
        )
        text.append(_("the whole step, {element} highlighted:").format(element=card.element) + "\n")
        text.append_text(step_table(output, card.index, d))
        from drill.content.errata import MARKS, card_notes

        for c in card_notes(card):  # the chapter printed it off: its value, and what is true (drill's words)
            text.append("\n" + _(MARKS[c.kind]) + ": ", style="bold")
            text.append(visible(f"「{c.quote}」：{c.correction}") + "\n")
        text.append("\n" + self._grade_line() + "\n", style="italic")
        self.query_one("#calc-card-result", Static).update(text)

    def _grade_line(self) -> str:
        assert self.proposed is not None
        return _("proposed grade: {grade} — 1-4 to change, enter to confirm").format(
            grade=_(GRADE_NAMES[self.proposed])
        )

    def action_grade(self, rating: int) -> None:
        if self.proposed is None:
            return
        if rating:
            self.proposed = rating
            self._show(engine_step(self.card))
            return
        self.dismiss(self.proposed)

    def action_back(self) -> None:
        self.dismiss(None)
