"""The study header: pack, what is left today, and how long this sitting has lasted."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import Static

from drill.i18n import _


def format_clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class StudyHeader(Static):
    """One line: ``drill · <pack> │ due N · new N · done N │ ⏱ mm:ss``. All plain Text: never markup."""

    def __init__(self, timer: Callable[[], float], **kwargs) -> None:
        super().__init__("", **kwargs)
        self._timer = timer
        self._started = timer()
        self.pack = "loading…"
        self.due: int | None = None
        self.new: int | None = None
        self.done: int | None = None
        self.interview: tuple[int, float] | None = None  # (days left, readiness on the day)

    def on_mount(self) -> None:
        self._refresh_text()
        self.set_interval(1.0, self._refresh_text)

    def elapsed(self) -> float:
        return self._timer() - self._started

    def set_pack(self, pack: str) -> None:
        self.pack = pack
        self._refresh_text()

    def set_counts(self, *, pack: str, due: int, new: int, done: int) -> None:
        self.pack, self.due, self.new, self.done = pack, due, new, done
        self._refresh_text()

    def set_interview(self, interview: tuple[int, float] | None) -> None:
        self.interview = interview
        self._refresh_text()

    def _refresh_text(self) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("drill", style="bold")
        text.append(" · ")
        text.append(self.pack)
        if self.due is not None:
            text.append("  │  ")
            text.append(_("due {count}").format(count=self.due), style="bold")
            text.append(" · ")
            text.append(_("new {count}").format(count=self.new))
            text.append(" · ")
            text.append(_("done today {count}").format(count=self.done))
        if self.interview is not None:
            days, ready = self.interview
            text.append("  │  ")
            text.append(
                _("interview in {days}d · ready {ready}%").format(days=days, ready=round(100 * ready)),
                style="bold",
            )
        text.append("  │  ")
        text.append(_("session {clock}").format(clock=format_clock(self.elapsed())))
        self.update(text, layout=False)  # fixed size (CSS): no layout pass for a new text
