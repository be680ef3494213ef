"""mha (7.14): four heads with the chapter's four patterns, each a heatmap of the weights the engine computes
from constructed W_Q / W_K (drill.engine.demos.constructed_heads); the screen says they are constructed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo
from drill.tui.widgets.heatmap import heatmap

if TYPE_CHECKING:
    import numpy as np

# The chapter's names of the four patterns (7.14's demo text), word for word: content, not translated.
PATTERN_NAMES = ("局部邻域", "前一个词", "自己", "句首聚合")


class Mha(Demo):
    name = "mha"

    def __init__(self, info) -> None:
        from drill.engine.demos import constructed_heads

        self.trace = constructed_heads()
        super().__init__(info)

    def make_controls(self) -> list[Control]:
        return [Control("head", N_("Head"), 0, len(PATTERN_NAMES) - 1, choices=PATTERN_NAMES)]

    enter_control = "head"

    def numbers(self) -> dict[str, np.ndarray]:
        return {"weights": self.trace["softmax"].output[self.control("head").index]}

    def view(self) -> RenderableType:
        head = self.control("head").index
        weights = self.numbers()["weights"]
        title = _("head {n}: {pattern}").format(n=head + 1, pattern=PATTERN_NAMES[head])
        parts: list[RenderableType] = [
            Text(
                _(
                    "constructed weights: W_Q and W_K are built so that each head shows one pattern; the engine "
                    "runs them (softmax(QKᵀ/√d_k) per head). Real heads learn subtler patterns."
                ),
                style="italic",
            ),
            Text(""),
            heatmap(weights, title=title),
            Text(""),
            Text(_("rows: queries, columns: keys (tokens 1…{s})").format(s=len(weights)), style="dim"),
        ]
        return Group(*parts)
