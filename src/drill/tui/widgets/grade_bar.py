"""The bar under the card: before the answer, one button that shows it; after it, the four answers, each
labelled with its key, its name and the interval it would give (Anki's bottom bar); nothing once no card is
left.

The four grades are not drawn before the answer is shown, so the question is answered first; the study screen
sets the bar's phase (`set_phase`). In a preview (custom study) each grade says it is not saved. A grade
button too narrow for ``1 Again · 10m`` (60 columns in Chinese) keeps its key and interval inside and moves
its name to its border.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Static

from drill.i18n import _
from drill.tui.models.study import GRADE_NAMES

Phase = Literal["question", "answer", "none"]  # what the bar offers: the reveal, the grades, nothing


class RevealButton(Static):
    """``space  Show answer``: the bar before the answer is shown."""

    class Pressed(Message):
        pass

    def __init__(self) -> None:
        super().__init__("", classes="reveal", id="reveal-button")

    def on_mount(self) -> None:
        text = Text(justify="center")
        text.append("space", style="bold")
        text.append("  ")
        text.append(_("Show answer"), style="bold")
        self.update(text)

    def on_click(self) -> None:
        self.post_message(self.Pressed())


class GradeButton(Static):
    """A clickable grade. The text (key, name, interval) carries the meaning; colour only accents it."""

    class Pressed(Message):
        def __init__(self, rating: int) -> None:
            super().__init__()
            self.rating = rating

    def __init__(self, rating: int) -> None:
        super().__init__("", classes=f"grade grade-{rating}", id=f"grade-{rating}")
        self.rating = rating
        self._last: tuple[timedelta | None, str | None] = (None, None)

    def on_mount(self) -> None:
        self.set_interval_text(*self._last)

    def on_resize(self, event: events.Resize) -> None:
        self.set_interval_text(*self._last)

    def interval_label(self) -> str:
        interval, note = self._last
        if note is not None:
            return note
        if interval is None:
            return "…"
        from drill.srs.scheduler import format_interval  # drill.srs is not needed for the first paint

        return format_interval(interval)

    def set_interval_text(self, interval: timedelta | None, note: str | None = None) -> None:
        self._last = (interval, note)
        name = _(GRADE_NAMES[self.rating])
        label = self.interval_label()
        text = Text(justify="center")
        text.append(f"{self.rating} ", style="bold")
        full = cell_len(f"{self.rating} {name} · {label}")
        width = self.content_size.width
        if width and full > width:
            # Too narrow for all three: the interval stays inside, the name goes to the border.
            self.border_title = name
            text.append("· ")
        else:
            self.border_title = None
            text.append(name, style="bold")
            text.append(" · ")
        text.append(label)
        self.update(text, layout=False)  # fixed size (CSS): no layout pass for a new text

    def on_click(self) -> None:
        self.post_message(self.Pressed(self.rating))


class GradeBar(Horizontal):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.phase: Phase = "question"

    def compose(self) -> ComposeResult:
        yield RevealButton()
        for rating in GRADE_NAMES:
            button = GradeButton(rating)
            button.display = False
            yield button

    def set_intervals(self, intervals: dict[int, timedelta]) -> None:
        for button in self.query(GradeButton):
            button.set_interval_text(intervals.get(button.rating))

    def set_preview(self) -> None:
        """A preview: grading only moves on; nothing is scheduled or saved."""
        for button in self.query(GradeButton):
            button.set_interval_text(None, _("not saved"))

    def set_phase(self, phase: Phase) -> None:
        """The reveal before the answer, the four grades after it, nothing once no card is left."""
        if phase == self.phase:
            return
        self.phase = phase
        self.query_one(RevealButton).display = phase == "question"
        for button in self.query(GradeButton):
            button.display = phase == "answer"

    @property
    def enabled(self) -> bool:
        """Whether the grades are offered (the answer is shown)."""
        return self.phase == "answer"
