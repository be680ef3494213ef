"""The four answers, each labelled with its key, its name and the interval it would give.

Before the answer is shown the bar is locked: the buttons are drawn muted (no colour, no interval emphasis)
so they don't invite a grade; the study screen unlocks it on reveal (`set_enabled`). In a preview (custom
study) each button says the grade is not saved.
"""

from __future__ import annotations

from datetime import timedelta

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Static

from drill.i18n import _
from drill.tui.models.study import GRADE_NAMES


class GradeButton(Static):
    """A clickable grade. The text (key, name, interval) carries the meaning; colour only accents it."""

    class Pressed(Message):
        def __init__(self, rating: int) -> None:
            super().__init__()
            self.rating = rating

    def __init__(self, rating: int) -> None:
        super().__init__("", classes=f"grade grade-{rating}", id=f"grade-{rating}")
        self.rating = rating
        self.set_interval_text(None)

    def set_interval_text(self, interval: timedelta | None, *, note: str | None = None) -> None:
        text = Text(justify="center")
        text.append(f"{self.rating} ", style="bold")
        text.append(_(GRADE_NAMES[self.rating]), style="bold")
        text.append(" · ")
        if note is not None:
            text.append(note)
        elif interval is None:
            text.append("…")
        else:
            from drill.srs.scheduler import format_interval  # drill.srs is not needed for the first paint

            text.append(format_interval(interval))
        self.update(text, layout=False)  # fixed size (CSS): no layout pass for a new text

    def on_click(self) -> None:
        self.post_message(self.Pressed(self.rating))


class GradeBar(Horizontal):
    def compose(self) -> ComposeResult:
        for rating in GRADE_NAMES:
            yield GradeButton(rating)

    def set_intervals(self, intervals: dict[int, timedelta]) -> None:
        for button in self.query(GradeButton):
            button.set_interval_text(intervals.get(button.rating))

    def set_preview(self) -> None:
        """A preview: grading only moves on; nothing is scheduled or saved."""
        for button in self.query(GradeButton):
            button.set_interval_text(None, note=_("not saved"))

    def set_enabled(self, enabled: bool) -> None:
        """Live once the answer is shown; muted ("locked") before, so the question is answered first."""
        self.set_class(not enabled, "-locked")

    @property
    def enabled(self) -> bool:
        return not self.has_class("-locked")
