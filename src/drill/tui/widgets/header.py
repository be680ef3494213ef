"""The study header: where the session stands — new / learning / review cards left today, a progress bar of
today's work — then the pack and how long this sitting has lasted."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import Static

from drill.i18n import _

BAR_WIDTH = 10
# The counts' colours, as Anki colours them (new blue, learning red, review green); the words carry the meaning.
COUNT_STYLES = {"new": "bold #4a8fe7", "learning": "bold #e0564a", "review": "bold #3fa356"}


def format_clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def progress_bar(done: int, left: int, width: int = BAR_WIDTH) -> Text:
    """``▕███░░░░░░░▏ 3/10``: cards done today out of done + left. Plain Text."""
    total = done + left
    filled = 0 if total == 0 else round(width * done / total)
    text = Text()
    text.append("▕")
    text.append("█" * filled, style="bold")
    text.append("░" * (width - filled), style="dim")
    text.append("▏ ")
    text.append(f"{done}/{total}")
    return text


class StudyHeader(Static):
    """One line: ``new N · learning N · review N │ ▕██░░▏ d/t │ <pack> │ mm:ss``. Plain Text: never markup."""

    def __init__(self, timer: Callable[[], float], **kwargs) -> None:
        super().__init__("", **kwargs)
        self._timer = timer
        self._started = timer()
        self.pack = _("loading…")
        self.new: int | None = None
        self.learning: int | None = None
        self.review: int | None = None
        self.done: int | None = None
        self.mode: str | None = None  # a custom session's name ("review ahead"...), shown first
        # (days left, readiness on the day if no more reviews, the weakest skill and its readiness)
        self.interview: tuple[int, float, tuple[str, float] | None] | None = None

    def on_mount(self) -> None:
        self._refresh_text()
        self.set_interval(1.0, self._refresh_text)

    def elapsed(self) -> float:
        return self._timer() - self._started

    def set_pack(self, pack: str) -> None:
        self.pack = pack
        self._refresh_text()

    def set_counts(
        self, *, pack: str, new: int, learning: int, review: int, done: int, mode: str | None = None
    ) -> None:
        self.pack, self.new, self.learning, self.review, self.done = pack, new, learning, review, done
        self.mode = mode
        self._refresh_text()

    def set_interview(self, interview: tuple[int, float, tuple[str, float] | None] | None) -> None:
        self.interview = interview
        self._refresh_text()

    @property
    def left(self) -> int:
        return (self.new or 0) + (self.learning or 0) + (self.review or 0)

    def _refresh_text(self) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.mode is not None:
            text.append(self.mode, style="bold reverse")
            text.append(" ")
        if self.new is not None:
            for name, label, count in (
                ("new", _("new {count}"), self.new),
                ("learning", _("learning {count}"), self.learning),
                ("review", _("review {count}"), self.review),
            ):
                if name != "new":
                    text.append(" · ")
                text.append(label.format(count=count), style=COUNT_STYLES[name])
            text.append("  ")
            text.append_text(progress_bar(self.done or 0, self.left))
            text.append("  │  ")
        if self.interview is not None:
            days, ready, weakest = self.interview
            text.append(
                _("interview in {days}d · ready now {ready}%").format(days=days, ready=round(100 * ready)),
                style="bold",
            )
            if weakest is not None:
                from drill.content.skills import skill_name

                skill, value = weakest
                text.append(
                    _(" · weakest: {skill} {ready}%").format(
                        skill=skill_name(skill), ready=round(100 * value)
                    )
                )
            text.append("  │  ")
        text.append(_("session {clock}").format(clock=format_clock(self.elapsed())))
        text.append("  │  ")
        text.append("drill", style="bold")
        text.append(" · ")
        text.append(self.pack)
        self.update(text, layout=False)  # fixed size (CSS): no layout pass for a new text
