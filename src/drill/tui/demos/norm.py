"""layernorm (7.20): edit the vector and γ, β — one of each per dimension, as LayerNorm learns them; enter
("next") walks mean → standard deviation → normalise → scale and shift. Starts on the chapter's example
x = [1, 2, 3, 4], γ = 1, β = 0."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo
from drill.tui.demos.rows import row_table

if TYPE_CHECKING:
    import numpy as np

DIMS = 4  # the chapter's example vector has four dimensions
STAGES = (N_("mean"), N_("standard deviation"), N_("normalise"), N_("scale and shift"))


class LayerNorm(Demo):
    name = "layernorm"
    enter_control = "stage"

    def make_controls(self) -> list[Control]:
        controls = [Control("stage", N_("Step"), 0, len(STAGES) - 1, choices=tuple(_(s) for s in STAGES))]
        controls += [
            Control(f"x{i}", f"x{i + 1}", -10, 10, 0.5, float(i + 1), decimals=1) for i in range(DIMS)
        ]
        controls += [Control(f"gamma{i}", f"γ{i + 1}", -3, 3, 0.1, 1.0, decimals=1) for i in range(DIMS)]
        controls += [Control(f"beta{i}", f"β{i + 1}", -3, 3, 0.1, 0.0, decimals=1) for i in range(DIMS)]
        return controls

    def affine(self) -> tuple[list[float], list[float]]:
        """γ and β, one value per dimension."""
        gamma = [self.control(f"gamma{i}").value for i in range(DIMS)]
        return gamma, [self.control(f"beta{i}").value for i in range(DIMS)]

    def numbers(self) -> dict[str, np.ndarray]:
        from drill.engine.demos import layernorm_steps

        x = [self.control(f"x{i}").value for i in range(DIMS)]
        return layernorm_steps(x, *self.affine())

    def view(self) -> RenderableType:
        n = self.numbers()
        stage = self.control("stage").index
        rows = [("x", n["x"]), ("μ = mean(x)", n["mean"])]
        if stage >= 1:
            rows += [("σ² = mean((x − μ)²)", n["var"]), ("σ", n["std"])]
        if stage >= 2:
            rows += [("x̂ = (x − μ) / √(σ² + ε)", n["normalised"])]
        if stage >= 3:
            rows += [("γ", n["gamma"]), ("β", n["beta"]), ("γ ⊙ x̂ + β", n["output"])]
        flow = Text()
        for i, name in enumerate(STAGES):
            if i:
                flow.append(" → ", style="dim")
            flow.append(_(name), style="bold reverse" if i == stage else "")
        return Group(
            flow,
            Text(""),
            row_table(rows),
            Text(""),
            Text(
                _("ε = 1e-5; the variance is over this token's own vector (not across tokens or the batch)"),
                style="dim",
            ),
        )
