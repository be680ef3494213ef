"""ffn (7.21): d_model and the expansion ratio adjustable; the shape flow and the parameter count; switch
between the ReLU FFN and SwiGLU (drill.engine.demos.ffn_shapes)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo

KINDS = ("ReLU FFN", "SwiGLU")
D_MODELS = (2, 64, 128, 256, 512, 768, 1024, 2048, 4096)


class Ffn(Demo):
    name = "ffn"

    def make_controls(self) -> list[Control]:
        return [
            Control("kind", N_("FFN"), 0, 1, choices=KINDS),
            Control(
                "d_model", "d_model", 0, len(D_MODELS) - 1, choices=tuple(str(d) for d in D_MODELS), value=4
            ),
            Control("ratio", N_("expansion ratio"), 1, 8, 0.5, 4, decimals=1),
        ]

    def setting(self) -> tuple[int, float, str]:
        kind = ("relu", "swiglu")[self.control("kind").index]
        return D_MODELS[self.control("d_model").index], self.control("ratio").value, kind

    def numbers(self) -> dict:
        from drill.engine.demos import ffn_shapes

        return ffn_shapes(*self.setting())

    def view(self) -> RenderableType:
        d_model, ratio, kind = self.setting()
        n = self.numbers()
        d_ff = n["d_ff"]
        if kind == "relu":
            flow = (
                f"x [B, S, {d_model}] × W₁ [{d_model}, {d_ff}] → [B, S, {d_ff}] → ReLU → "
                f"× W₂ [{d_ff}, {d_model}] → [B, S, {d_model}]"
            )
        else:
            flow = (
                f"x [B, S, {d_model}] → SiLU(x W_gate [{d_model}, {d_ff}]) ⊙ (x W_up [{d_model}, {d_ff}]) "
                f"→ [B, S, {d_ff}] × W_down [{d_ff}, {d_model}] → [B, S, {d_model}]"
            )
        table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
        table.add_column(_("matrix"))
        table.add_column(_("shape"), justify="right")
        table.add_column(_("parameters"), justify="right")
        for name, shape in n["shapes"].items():
            count = 1
            for d in shape:
                count *= d
            table.add_row(name, "[" + ", ".join(str(d) for d in shape) + "]", f"{count:,}")
        table.add_row(Text(_("total"), style="bold"), "", Text(f"{n['params']:,}", style="bold"))
        return Group(
            Text(_("d_ff = {ratio} × d_model = {d_ff}").format(ratio=f"{ratio:g}", d_ff=d_ff), style="bold"),
            Text(flow),
            Text(""),
            table,
            Text(""),
            Text(
                _(
                    "input and output are both [B, S, d_model]; SwiGLU has three matrices, so models often take "
                    "d_ff ≈ 8/3 · d_model to keep the count of a 4× ReLU FFN"
                ),
                style="dim",
            ),
        )
