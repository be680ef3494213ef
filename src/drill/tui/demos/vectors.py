"""Demos in the plane: weighted-sum (7.11) and dot-product (7.7). Numbers from drill.engine.demos; vectors
drawn by the plot widget (textual-plot) as segments from the origin; the dot-product demo adds a second plot,
q·k and cos θ as functions of the angle between q and k, with the current angle marked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from drill.engine.notation import format_number
from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo
from drill.tui.demos.rows import row_table

if TYPE_CHECKING:
    import numpy as np

COLOURS = ("red", "blue", "cyan")


def arrow(plot, vector, style: str, label: str) -> None:
    from textual_plot import HiResMode

    plot.plot(
        [0.0, float(vector[0])],
        [0.0, float(vector[1])],
        line_style=style,
        hires_mode=HiResMode.BRAILLE,
        label=label,
    )


class WeightedSum(Demo):
    """Three weight sliders over the worked example's V rows (7.11's V₁, V₂, V₃); the weights are kept
    normalised, so the output is always inside the triangle of the V's."""

    name = "weighted-sum"

    def __init__(self, info) -> None:
        from drill.engine.examples import build_example

        trace = build_example("worked")
        self.v = trace["project_v"].output
        self.first_row = trace["softmax"].output[0]
        super().__init__(info)

    def make_controls(self) -> list[Control]:
        return [
            Control(
                f"w{i}",
                N_("weight V{n}"),
                0,
                1,
                0.05,
                round(float(w), 3),
                decimals=3,
                n=i + 1,
            )
            for i, w in enumerate(self.first_row)
        ]

    def move(self, control: Control, steps: int) -> bool:
        """A move that would leave every weight at 0 is refused (nothing to normalise)."""
        before = control.value
        changed = control.move(steps)
        if all(c.value == 0 for c in self.controls):
            control.value = before
            return False
        return changed

    def numbers(self) -> dict[str, np.ndarray]:
        from drill.engine.demos import weighted_sum

        return weighted_sum([c.value for c in self.controls], self.v)

    def view(self) -> RenderableType:
        n = self.numbers()
        rows = [(f"V{j + 1}", n["values"][j]) for j in range(len(n["values"]))]
        rows += [(_("weights a (normalised)"), n["weights"]), (_("output = Σ a_j V_j"), n["output"])]
        note = Text(
            _("all weight on V1 gives V1; equal weights give the centroid of V1, V2, V3"), style="italic"
        )
        total = Text(_("weights sum to {total}").format(total=format_number(float(n["weights"].sum()), 6)))
        return Group(row_table(rows), Text(""), total, note)

    def plot(self, plot) -> None:
        n = self.numbers()
        plot.clear()
        for j, v in enumerate(n["values"]):
            arrow(plot, v, COLOURS[j], f"V{j + 1}")
        arrow(plot, n["output"], "green", _("output"))
        plot.set_xlimits(-0.2, 1.2)
        plot.set_ylimits(-0.2, 1.2)
        plot.show_legend()


class DotProduct(Demo):
    name = "dot-product"

    def make_controls(self) -> list[Control]:
        return [
            Control("q", N_("angle of q (°)"), 0, 345, 15, 30),
            Control("k", N_("angle of k (°)"), 0, 345, 15, 60),
        ]

    def numbers(self) -> dict[str, np.ndarray]:
        from drill.engine.demos import dot_product

        return dot_product(self.control("q").value, self.control("k").value)

    def view(self) -> RenderableType:
        n = self.numbers()
        dot = float(n["dot"])
        verdict = (
            _("aligned: large")
            if dot > 2.0
            else _("opposite: negative")
            if dot < -2.0
            else (_("perpendicular: ≈ 0") if abs(dot) < 0.5 else _("in between"))
        )
        rows = [
            ("q", n["q"]),
            ("k", n["k"]),
            (_("angle between (°)"), n["angle"]),
            ("q · k", n["dot"]),
            ("cos θ", n["dot"] / 4.0),
        ]
        line = Text(verdict, style="bold")  # one line under the numbers: at 80×24 the plots need the rows
        line.append("  ·  ")
        line.append(_("q · k = |q| |k| cos θ, here |q| = |k| = 2"), style="italic")
        return Group(row_table(rows), line)

    def plot(self, plot) -> None:
        n = self.numbers()
        plot.clear()
        arrow(plot, n["q"], "red", "q")
        arrow(plot, n["k"], "blue", "k")
        plot.set_xlimits(-2.2, 2.2)
        plot.set_ylimits(-2.2, 2.2)
        plot.set_xticks([-2, -1, 0, 1, 2])  # whole numbers: the automatic ticks collide at 40 columns
        plot.set_yticks([-2, -1, 0, 1, 2])
        plot.show_legend()

    def signed_angle(self) -> float:
        """The angle from q to k in (−180°, 180°]: where this setting sits on the curve."""
        between = (self.control("k").value - self.control("q").value) % 360.0
        return between - 360.0 if between > 180.0 else between

    def curve_numbers(self) -> dict[str, np.ndarray]:
        """The curve depends on the angle between q and k alone (|q| and |k| are fixed), not on where q
        points: computed once, for q along the x-axis; the marker is the current q·k, computed from q and k."""
        cached = getattr(self, "_curve", None)
        if cached is None:
            from drill.engine.demos import dot_product_curve

            cached = self._curve = dot_product_curve(0.0)
        return cached

    def curve(self, plot) -> None:
        """q·k and cos θ against the angle θ between q and k, the current θ marked on both."""
        import numpy as np
        from textual_plot import HiResMode

        c = self.curve_numbers()
        theta = self.signed_angle()
        dot = float(self.numbers()["dot"])
        plot.clear()
        plot.plot(c["angle"], c["dot"], line_style="green", hires_mode=HiResMode.BRAILLE, label="q · k")
        plot.plot(c["angle"], c["cos"], line_style="yellow", hires_mode=HiResMode.BRAILLE, label="cos θ")
        plot.scatter(
            np.array([theta, theta]), np.array([dot, dot / 4.0]), marker="●", marker_style="bold white"
        )
        plot.set_xlimits(-180, 180)
        plot.set_ylimits(-4.2, 4.2)
        plot.set_xticks([-180, -90, 0, 90, 180])
        plot.set_yticks([-4, -2, 0, 2, 4])
        plot.set_xlabel(_("angle θ from q to k (°)"))
        plot.show_legend()
