"""A list of items the learner ticks: up/down move, space ticks or unticks. Each item wraps whole under its box
(Textual's SelectionList shows one line per option and cuts the rest: a rubric's point must be read whole).

Items are text, never markup (rich ``Text``); the cursor row is reversed while the list has focus.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from drill.i18n import N_

TICKED, UNTICKED = "[x]", "[ ]"


class Checklist(Widget, can_focus=True):
    DEFAULT_CSS = """
    Checklist {
        height: auto;
    }
    """

    BINDINGS = [
        Binding("up", "cursor(-1)", N_("Up"), show=False),
        Binding("down", "cursor(1)", N_("Down"), show=False),
        Binding("space", "toggle", N_("Tick"), show=False),
    ]

    cursor: reactive[int] = reactive(0)

    class Changed(Message):
        """The ticked items changed."""

        def __init__(self, checklist: Checklist) -> None:
            super().__init__()
            self.checklist = checklist

        @property
        def control(self) -> Checklist:
            return self.checklist

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.items: list[Text] = []
        self.selected: set[int] = set()

    def set_items(self, items: Iterable[Text], selected: Iterable[int] = ()) -> None:
        """New items, with ``selected`` ticked from the start (no Changed: the owner set them)."""
        self.items = list(items)
        self.selected = {i for i in selected if 0 <= i < len(self.items)}
        self.cursor = 0
        self.refresh(layout=True)

    def render(self) -> Table:
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        for i, item in enumerate(self.items):
            style = "reverse" if self.has_focus and i == self.cursor else ""
            mark = TICKED if i in self.selected else UNTICKED
            table.add_row(Text(mark, style="bold"), item, style=style)
        return table

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def watch_cursor(self) -> None:
        self.refresh()

    def action_cursor(self, step: int) -> None:
        if self.items:
            self.cursor = (self.cursor + step) % len(self.items)

    def action_toggle(self) -> None:
        if self.items:
            self.toggle(self.cursor)

    def toggle(self, index: int) -> None:
        self.selected.symmetric_difference_update({index})
        self.refresh(layout=True)
        self.post_message(self.Changed(self))

    def select(self, index: int) -> None:
        if index not in self.selected:
            self.toggle(index)
