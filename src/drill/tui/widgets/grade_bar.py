"""The four answers, each labelled with its key, its name and the interval it would give.

Before the answer is shown the bar is locked: the buttons are drawn muted (grey border, dim text) so they
don't invite a grade; the study screen unlocks it on reveal (`set_enabled`). In a preview (custom
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

LOCKED_BORDER = "#5a5a5a"  # a grey that reads as "not yet" on dark and light themes alike


class GradeButton(Static):
    """A clickable grade. The text (key, name, interval) carries the meaning; colour only accents it."""

    class Pressed(Message):
        def __init__(self, rating: int) -> None:
            super().__init__()
            self.rating = rating

    def __init__(self, rating: int) -> None:
        super().__init__("", classes=f"grade grade-{rating}", id=f"grade-{rating}")
        self.rating = rating
        self.locked = False
        self._last: tuple[timedelta | None, str | None] = (None, None)
        self.set_interval_text(None)

    def set_locked(self, locked: bool) -> None:
        self.locked = locked
        if locked:
            self.styles.border = ("round", LOCKED_BORDER)
        else:
            for edge in ("border_top", "border_right", "border_bottom", "border_left"):
                self.styles.inline.clear_rule(edge)  # back to its colour from study.tcss
            self.refresh()
        self.set_interval_text(*self._last)

    def set_interval_text(self, interval: timedelta | None, note: str | None = None) -> None:
        self._last = (interval, note)
        text = Text(justify="center", style="dim" if self.locked else "")
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
            button.set_interval_text(None, _("not saved"))

    def set_enabled(self, enabled: bool) -> None:
        """Live once the answer is shown; muted ("locked") before, so the question is answered first.
        Set on the four buttons themselves (their text dimmed, their border greyed): a class on the bar would
        restyle its whole subtree on every reveal and grade."""
        if enabled == self.enabled:
            return
        self._enabled = enabled
        for button in self.query(GradeButton):
            button.set_locked(not enabled)

    @property
    def enabled(self) -> bool:
        return getattr(self, "_enabled", True)
