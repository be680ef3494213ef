"""A multiple-choice question's options, one clickable row each: "A  text".

After an answer the rows say what happened in words and marks (✓ right answer, ✗ your answer), with colour
only as an accent. Option text is content: always a Text, never markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static

from drill.i18n import _
from drill.tui.text import visible


class ChoiceRow(Static):
    class Chosen(Message):
        def __init__(self, letter: str) -> None:
            super().__init__()
            self.letter = letter

    def __init__(self, letter: str, key: str, text: str, number: int) -> None:
        super().__init__("", classes="choice")
        self.letter = letter
        self.key = key
        self.text = text
        self.number = number
        self.show(None)

    def show(self, mark: str | None) -> None:
        """``mark``: None (not answered yet), "right" (the answer), "wrong" (chosen, wrong), "other"."""
        self.set_class(mark == "right", "right")
        self.set_class(mark == "wrong", "wrong")
        self.set_class(mark == "other", "other")
        line = Text()
        line.append(f" {self.letter} ", style="bold reverse")
        line.append(f" {self.number} ", style="dim")
        line.append(" ")
        line.append(visible(self.text))
        if mark == "right":
            line.append("   " + _("✓ answer"), style="bold")
        elif mark == "wrong":
            line.append("   " + _("✗ your choice"), style="bold")
        self.update(line)

    def on_click(self) -> None:
        self.post_message(self.Chosen(self.letter))


class ChoiceList(Vertical):
    """Holds the current question's rows; `set_options` replaces them."""

    async def set_options(self, options) -> None:
        await self.remove_children()
        await self.mount_all(
            [ChoiceRow(o.letter, o.key, o.text, number) for number, o in enumerate(options, start=1)]
        )

    def mark(self, answer_key: str, chosen_key: str | None) -> None:
        for row in self.query(ChoiceRow):
            if row.key == answer_key:
                row.show("right")
            elif row.key == chosen_key:
                row.show("wrong")
            else:
                row.show("other")
