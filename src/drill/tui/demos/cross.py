"""cross-attention (7.18): the chapter's 我/爱/你 over I/love/you example; select a decoder token to see its
weights over the encoder positions. The engine's cross-attention runs on inputs constructed to give the
chapter's (illustrative) alignment table, and the screen says so."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo
from drill.tui.demos.rows import row_table
from drill.tui.widgets.heatmap import heatmap

if TYPE_CHECKING:
    import numpy as np

# The chapter's example (7.18), word for word and number for number.
DECODER = ("我", "爱", "你")
ENCODER = ("I", "love", "you")
TABLE = ((0.85, 0.10, 0.05), (0.05, 0.90, 0.05), (0.05, 0.10, 0.85))


class CrossAttention(Demo):
    name = "cross-attention"
    enter_control = "token"

    def __init__(self, info) -> None:
        from drill.engine.demos import cross_alignment

        self.trace = cross_alignment(TABLE)
        super().__init__(info)

    def make_controls(self) -> list[Control]:
        return [Control("token", N_("Decoder token"), 0, len(DECODER) - 1, choices=DECODER)]

    def numbers(self) -> dict[str, np.ndarray]:
        i = self.control("token").index
        return {"weights": self.trace["softmax"].output[i], "all": self.trace["softmax"].output}

    def view(self) -> RenderableType:
        i = self.control("token").index
        n = self.numbers()
        return Group(
            Text(
                _(
                    "the chapter's alignment table is illustrative; drill builds decoder and encoder states that "
                    "give it and runs its cross-attention on them: Q from the decoder, K and V from the encoder"
                ),
                style="italic",
            ),
            Text(""),
            heatmap(
                n["all"],
                row_labels=DECODER,
                col_labels=ENCODER,
                highlight_row=i,
                title=_("Decoder \\ Encoder"),
            ),
            Text(""),
            Text(_("{token} attends over the encoder:").format(token=DECODER[i]), style="bold"),
            row_table([(name, n["weights"][j]) for j, name in enumerate(ENCODER)], decimals=2),
            Text(""),
            Text(_("near-diagonal: each decoder token looks mostly at the word it translates"), style="dim"),
        )
