"""A per-question countdown: seconds left as a number and a bar, never colour alone.

The clock is injected (``timer``: a monotonic seconds function) so tests can move time and call `check()`
instead of sleeping; on screen an interval calls `check()` a few times a second.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from drill.i18n import _

BAR_WIDTH = 10
TICK_SECONDS = 0.2


def clock(seconds: int) -> str:
    """Seconds left as read at a glance, five cells wide: " 45 s" under a minute, " 5:00" from a minute on."""
    if seconds < 60:
        return f"{seconds:>3d} s"
    return f"{seconds // 60}:{seconds % 60:02d}".rjust(5)


def countdown_text(remaining: float, total: float, *, stopped: bool = False) -> Text:
    left = max(0, math.ceil(remaining))
    filled = 0 if total <= 0 else round(BAR_WIDTH * max(0.0, remaining) / total)
    low = remaining <= min(5.0, total / 3)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(_("time left") + " ")  # it counts down: not "用时" (time used)
    text.append(clock(left), style="bold")
    text.append(" ")
    text.append("█" * filled, style="bold" if low and not stopped else "")
    text.append("░" * (BAR_WIDTH - filled), style="dim")
    if left == 0:
        text.append(" " + _("time is up"), style="bold")  # never "0 s … hurry!" once the time has run out
    elif stopped:
        text.append(" " + _("(stopped)"), style="dim")
    elif low:
        text.append(" " + _("hurry!"), style="bold")
    return text


class Countdown(Static):
    """Counts down from ``seconds``; posts `Countdown.Expired` once when it reaches zero.

    The colour (class ``low`` in the last seconds) comes from CSS theme variables; the words carry the meaning.
    """

    class Expired(Message):
        pass

    def __init__(self, timer: Callable[[], float], **kwargs) -> None:
        super().__init__("", **kwargs)
        self._timer = timer
        self.total = 0.0
        self._started: float | None = None
        self._stopped_at: float | None = None
        self.expired = False

    def on_mount(self) -> None:
        self.set_interval(TICK_SECONDS, self.check)

    def start(self, seconds: float) -> None:
        self.total = float(seconds)
        self._started = self._timer()
        self._stopped_at = None
        self.expired = False
        self.set_class(False, "low")
        self._paint()

    def stop(self) -> None:
        if self._started is not None and self._stopped_at is None:
            self._stopped_at = self._timer()
            self._paint()

    @property
    def running(self) -> bool:
        return self._started is not None and self._stopped_at is None and not self.expired

    def elapsed(self) -> float:
        if self._started is None:
            return 0.0
        end = self._stopped_at if self._stopped_at is not None else self._timer()
        return max(0.0, end - self._started)

    def remaining(self) -> float:
        return max(0.0, self.total - self.elapsed())

    def check(self) -> None:
        """Repaint; on reaching zero, stop and post `Expired` (once)."""
        if self._started is None:
            return
        if self.running and self.remaining() <= 0:
            self.expired = True
            self._stopped_at = self._started + self.total
            self._paint()
            self.post_message(self.Expired())
            return
        self._paint()

    def _paint(self) -> None:
        remaining = self.remaining()
        self.set_class(remaining <= min(5.0, self.total / 3), "low")
        self.update(countdown_text(remaining, self.total, stopped=not self.running and not self.expired))
