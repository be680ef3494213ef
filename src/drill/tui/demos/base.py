"""What every demo shares: its controls (a value in a range, moved by keys) and a view built from the engine.

A demo is plain Python over the engine (numpy) and Rich renderables; the screen (screens/demo.py) owns keys
and focus. ``numbers()`` returns the engine's arrays for the current setting: the view shows exactly these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text

from drill.i18n import _

if TYPE_CHECKING:
    import numpy as np
    from rich.console import RenderableType

    from drill.content.demos import DemoInfo


@dataclass
class Control:
    """A value between ``low`` and ``high`` moved by ``step``; with ``choices``, an index into them."""

    key: str
    label: str  # drill's word for it, marked with N_() by the demo; translated when shown
    low: float
    high: float
    step: float = 1.0
    value: float = 0.0
    choices: tuple[str, ...] | None = None
    decimals: int = 0
    n: int | None = None  # fills ``{n}`` in the label once it is translated ("logit {n}" -> "logit 2")

    def move(self, steps: int) -> bool:
        """Move by ``steps`` steps, kept in range; True if the value changed."""
        new = min(self.high, max(self.low, round(self.value + steps * self.step, 9)))
        changed = new != self.value
        self.value = new
        return changed

    @property
    def index(self) -> int:
        return int(self.value)

    def name(self) -> str:
        """The label in the user's language."""
        label = _(self.label)
        return label.format(n=self.n) if self.n is not None else label

    def shown(self) -> str:
        if self.choices:
            return self.choices[self.index]
        return f"{self.value:.{self.decimals}f}".replace("-", "−")

    def range_text(self) -> str:
        if self.choices:
            return f"{self.index + 1}/{len(self.choices)}"
        return f"{self.low:.{self.decimals}f}…{self.high:.{self.decimals}f}".replace("-", "−")

    def text(self, focused: bool) -> Text:
        out = Text()
        out.append("▶ " if focused else "  ", style="bold")
        out.append(self.name() + " ", style="bold" if focused else "")
        out.append(self.shown(), style="reverse" if focused else "bold")
        out.append(f" [{self.range_text()}]", style="dim")
        return out


class Demo:
    """One of the chapter's demos. Subclasses set ``name``, make their controls and build ``view()``."""

    name: ClassVar[str]
    # What enter does (moves this control one step, wrapping): "next" in the chapter's step-through demos.
    enter_control: ClassVar[str | None] = None

    def __init__(self, info: DemoInfo) -> None:
        self.info = info
        self.controls: list[Control] = self.make_controls()

    def make_controls(self) -> list[Control]:
        return []

    def control(self, key: str) -> Control:
        return next(c for c in self.controls if c.key == key)

    def move(self, control: Control, steps: int) -> bool:
        """Move ``control`` by ``steps`` steps; True if its value changed."""
        return control.move(steps)

    def opens(self) -> str | None:
        """The demo enter opens instead of stepping (a diagram's selected module), or None."""
        return None

    def has_next(self) -> bool:
        """Whether enter does something here (the chapter's "next", or opening a linked demo): a slider demo
        has no "next", and its footer does not offer one."""
        return self.enter_control is not None or type(self).opens is not Demo.opens

    def enter(self) -> bool:
        if self.enter_control is None:
            return False
        control = self.control(self.enter_control)
        if not control.move(1):
            control.value = control.low
        return True

    def numbers(self) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def view(self) -> RenderableType | list:
        """The view: a renderable, a Group or list of parts; a matrix part is a HeatmapSpec
        (``widgets.heatmap.heatmap(values, ...)``), which the screen updates cell by cell."""
        raise NotImplementedError

    # A demo with a plot defines ``plot(self, plot: textual_plot.PlotWidget) -> None``.
