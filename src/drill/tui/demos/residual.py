"""residual (7.19): sliders for depth and the per-layer factor; the gradient curves without residuals, with
the chapter's model (one skip: 1 + fⁿ, its f = 0.7) and with a residual in every layer ((1 + f)ⁿ), each
labelled, with the erratum note where the chapter's model and the per-layer product differ (its numbers follow
the slider; the chapter's own 1 + 0.7ⁿ is quoted as printed). Curves on a log₁₀ axis."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from drill.engine.notation import format_number
from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo
from drill.tui.demos.rows import row_table

if TYPE_CHECKING:
    import numpy as np


class Residual(Demo):
    name = "residual"

    def make_controls(self) -> list[Control]:
        return [
            Control("depth", N_("depth n"), 1, 48, 1, 24),
            Control("factor", N_("per-layer factor"), 0.05, 1.5, 0.05, 0.7, decimals=2),
        ]

    def numbers(self) -> dict[str, np.ndarray]:
        from drill.engine.demos import residual_gradients

        return residual_gradients(int(self.control("depth").value), self.control("factor").value)

    def view(self) -> RenderableType:
        n = self.numbers()
        depth = int(self.control("depth").value)
        f = format_number(self.control("factor").value, 2)
        last = {key: n[key][-1] for key in ("without_residual", "single_skip", "per_layer")}
        rows = [
            (_("no residual: {f}ⁿ").format(f=f), last["without_residual"]),
            (_("chapter's model, one skip: 1 + {f}ⁿ").format(f=f), last["single_skip"]),
            (_("a residual in every layer: (1 + {f})ⁿ").format(f=f), last["per_layer"]),
        ]
        parts: list[RenderableType] = [
            Text(_("gradient at n = {n} layers").format(n=depth), style="bold"),
            row_table(rows, decimals=4),
            Text(""),
        ]
        if not math.isclose(float(last["single_skip"]), float(last["per_layer"])):
            total = format_number(1 + self.control("factor").value, 2)
            parts.append(
                Text(
                    _(
                        "erratum: the chapter's 1 + 0.7ⁿ models a single skip around n plain layers; with a "
                        "residual around every layer, as in a Transformer, the gradient is the product "
                        "(1 + {f})ⁿ = {total}ⁿ. Either way the identity path keeps it from vanishing."
                    ).format(f=f, total=total),
                    style="bold",
                )
            )
        parts.append(Text(_("plot: log₁₀ of the gradient against n"), style="dim"))
        return Group(*parts)

    def plot(self, plot) -> None:
        import numpy as np
        from textual_plot import HiResMode

        n = self.numbers()
        plot.clear()
        for key, style, label in (
            ("without_residual", "red", _("no residual")),
            ("single_skip", "yellow", _("one skip (chapter)")),
            ("per_layer", "green", _("every layer")),
        ):
            plot.plot(
                n["layers"], np.log10(n[key]), line_style=style, hires_mode=HiResMode.BRAILLE, label=label
            )
        plot.show_legend()
