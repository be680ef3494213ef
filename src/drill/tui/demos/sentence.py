"""attention (7.1): a sentence; select any token and see its attention distribution. The weights are the
pack's illustrative data (data/demos.yaml `attention:`), labelled 示意 on screen, as on the chapter's page."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo
from drill.tui.text import visible
from drill.tui.widgets.heatmap import heatmap

ILLUSTRATIVE = "示意"  # the chapter's own label for illustrative figures


class Attention(Demo):
    name = "attention"
    enter_control = "token"

    def __init__(self, info, data) -> None:
        self.data = data
        super().__init__(info)

    def make_controls(self) -> list[Control]:
        tokens = self.data.tokens
        start = tokens.index("it") if "it" in tokens else 0
        return [Control("token", N_("Token"), 0, len(tokens) - 1, choices=tokens, value=start)]

    def numbers(self) -> dict:
        return {"weights": self.data.weights[self.control("token").index]}

    def view(self) -> RenderableType:
        i = self.control("token").index
        weights = self.numbers()["weights"]
        tokens = self.data.tokens
        sentence = Text()
        for j, token in enumerate(tokens):
            if j:
                sentence.append(" ")
            sentence.append(visible(token), style="bold reverse" if j == i else "")
        top = max(range(len(weights)), key=weights.__getitem__)
        return Group(
            Text.assemble(
                (f"[{ILLUSTRATIVE}] ", "bold"),
                (_("illustrative weights from the pack, not computed"), "italic"),
            ),
            Text(""),
            sentence,
            Text(""),
            heatmap(
                [weights],
                row_labels=[tokens[i]],
                col_labels=list(tokens),
                decimals=2,
                title=_("attention of {token} over the sentence").format(token=tokens[i]),
            ),
            Text(""),
            Text(
                _("most weight: {token} ({weight})").format(token=tokens[top], weight=f"{weights[top]:.2f}"),
                style="bold",
            ),
        )
