"""The study header: where the session stands — new / learning / review cards left today, a progress bar of
today's work — then the pack and how long this sitting has lasted."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rich.cells import cell_len
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
    """One line: ``new N · learning N · review N │ ▕██░░▏ d/t │ session mm:ss │ drill · <pack>``. Plain Text:
    never markup. A part that does not fit whole is left out (`segments` ranks them), never cut."""

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
        self.notice: str | None = None  # what the learner must not miss ("READ-ONLY..."), shown at any width
        # (days left, readiness on the day if no more reviews, the weakest skill and its readiness on that figure)
        self.interview: tuple[int, float, tuple[str, float] | None] | None = None
        self.flag = 0  # the card's Anki flag (drill.store.types.FLAGS) and mark
        self.marked = False

    def on_mount(self) -> None:
        self._refresh_text()
        self.set_interval(1.0, self._refresh_text)

    def elapsed(self) -> float:
        return self._timer() - self._started

    def set_pack(self, pack: str) -> None:
        self.pack = pack
        self._refresh_text()

    def set_counts(
        self,
        *,
        pack: str,
        new: int,
        learning: int,
        review: int,
        done: int,
        mode: str | None = None,
        notice: str | None = None,
    ) -> None:
        self.pack, self.new, self.learning, self.review, self.done = pack, new, learning, review, done
        self.mode, self.notice = mode, notice
        self._refresh_text()

    def set_interview(self, interview: tuple[int, float, tuple[str, float] | None] | None) -> None:
        self.interview = interview
        self._refresh_text()

    def set_marks(self, flag: int, marked: bool) -> None:
        """The card on screen: its flag and mark (0, False: none, and nothing shown)."""
        self.flag, self.marked = flag, marked
        self._refresh_text()

    @property
    def left(self) -> int:
        return (self.new or 0) + (self.learning or 0) + (self.review or 0)

    def on_resize(self) -> None:
        self._refresh_text()

    def segments(self) -> list[Part]:
        """The header's parts in order, each with its rank — what is dropped first when the line is short
        (higher first: the pack, the session's clock, the weakest skill, the progress bar; the counts and
        the interview's readiness stay) — and what joins it to the part before."""
        parts: list[Part] = []
        if self.mode is not None:
            parts.append(Part(0, " ", Text(self.mode, style="bold reverse")))
        if self.notice is not None:
            parts.append(Part(0, " ", Text(self.notice, style="bold reverse")))
        if self.new is not None:
            counts = Text()
            for name, label, count in (
                ("new", _("new {count}"), self.new),
                ("learning", _("learning {count}"), self.learning),
                ("review", _("review {count}"), self.review),
            ):
                if name != "new":
                    counts.append(" · ")
                counts.append(label.format(count=count), style=COUNT_STYLES[name])
            parts.append(Part(0, " ", counts))
            parts.append(Part(2, "  ", progress_bar(self.done or 0, self.left)))
        if self.flag or self.marked:
            from drill.tui.marks import marks_text

            parts.append(Part(1, SEPARATOR, marks_text(self.flag, self.marked)))
        if self.interview is not None:
            days, ready, weakest = self.interview
            # The figure named: recall on the day if no more reviews (not "if you follow the plan").
            interview = _("interview in {days}d · if you stop now: {ready}%").format(
                days=days, ready=round(100 * ready)
            )
            parts.append(Part(1, SEPARATOR, Text(interview, style="bold")))
            if weakest is not None:
                from drill.content.skills import skill_name

                skill, value = weakest
                text = _(" · weakest {skill} {ready}%").format(
                    skill=skill_name(skill), ready=round(100 * value)
                )
                parts.append(Part(3, "", Text(text)))
        parts.append(
            Part(4, SEPARATOR, Text(_("session {clock}").format(clock=format_clock(self.elapsed()))))
        )
        pack = Text()
        pack.append("drill", style="bold")
        pack.append(" · ")
        pack.append(self.pack)
        parts.append(Part(5, SEPARATOR, pack))
        return parts

    def _refresh_text(self) -> None:
        parts = self.segments()
        width = self.content_size.width
        while width and _joined_width(parts) > width:
            worst = max(range(len(parts)), key=lambda i: (parts[i].rank, i))
            if parts[worst].rank == 0:
                break  # the counts are kept, cut if they must be
            del parts[worst]
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, part in enumerate(parts):
            if index:
                text.append(part.sep)
            text.append_text(part.text)
        self.update(text, layout=False)  # fixed size (CSS): no layout pass for a new text


SEPARATOR = "  │  "


class Part(NamedTuple):
    rank: int  # 0: always shown; the highest is left out first when the line is short
    sep: str  # what joins it to the part before
    text: Text


def _joined_width(parts: list[Part]) -> int:
    return sum(part.text.cell_len + (cell_len(part.sep) if i else 0) for i, part in enumerate(parts))
