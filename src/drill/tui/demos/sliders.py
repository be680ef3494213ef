"""Demos driven by sliders: softmax (7.10) and scaling (7.9). Numbers from drill.engine.demos; the bars are
drawn by the plot widget (textual-plot) the screen passes to ``plot``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from drill.engine.notation import format_number
from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo
from drill.tui.demos.rows import row_table
from drill.tui.widgets.heatmap import heatmap

if TYPE_CHECKING:
    import numpy as np

    from drill.content.models import Check


def _row_text(values) -> str:
    """A row as the chapter writes it: [0.375, 0.25, 0.125]."""
    return "[" + ", ".join(f"{float(v):.3f}".rstrip("0").rstrip(".") for v in values) + "]"


def _percent(value: float) -> str:
    return f"{format_number(float(value) * 100, 2 if value > 0.999 else 1)}%"


def halfblock():
    """Bars to half a cell, so a weight of 0 draws nothing (textual-plot is imported when a plot is drawn)."""
    from textual_plot import HiResMode

    return HiResMode.HALFBLOCK


class Softmax(Demo):
    name = "softmax"

    def make_controls(self) -> list[Control]:
        return [
            Control(f"z{i}", N_("logit {n}"), -20, 100, 0.5, value, decimals=1, n=i + 1)
            for i, value in enumerate((2.0, 1.0, 0.1))
        ]

    def numbers(self) -> dict[str, np.ndarray]:
        from drill.engine.demos import softmax_pipeline

        return softmax_pipeline([c.value for c in self.controls])

    def view(self) -> RenderableType:
        n = self.numbers()
        table = row_table(
            [
                (_("logits z"), n["logits"]),
                (_("max(z)"), n["max"]),
                (_("z − max"), n["shifted"]),
                (_("exp(z − max)"), n["exp"]),
                (_("sum"), n["sum"]),
                (_("softmax = exp / sum"), n["softmax"]),
            ]
        )
        total = float(n["softmax"].sum())
        check = Text(
            _("every output > 0: {positive} · outputs sum to {total}").format(
                positive=_("yes") if bool((n["softmax"] > 0).all()) else _("no"),
                total=format_number(total, 6),
            )
        )
        note = Text(
            _("subtracting the maximum first keeps exp from overflowing, whatever the logits"), style="italic"
        )
        return Group(Text(_("exp → sum → normalise"), style="bold"), table, Text(""), check, note)

    def plot(self, plot) -> None:
        n = self.numbers()
        plot.clear()
        plot.bar(
            [1, 2, 3], n["softmax"], width=0.5, bar_style="blue", hires_mode=halfblock(), label="softmax"
        )
        plot.set_xticks([1, 2, 3])
        plot.set_ylimits(0, 1)
        plot.show_legend()


class Scaling(Demo):
    name = "scaling"

    def make_controls(self) -> list[Control]:
        return [Control("d_k", N_("d_k"), 1, 1024, 1, 64)]

    def move(self, control: Control, steps: int) -> bool:
        """d_k moves by doubling and halving (1, 2, 4 ... 1024), as the chapter's table does."""
        value = control.value * (2**steps) if steps > 0 else control.value / (2**-steps)
        new = min(control.high, max(control.low, value))
        changed = new != control.value
        control.value = new
        return changed

    def numbers(self) -> dict[str, np.ndarray]:
        from drill.engine.demos import scaling_compare

        return scaling_compare(int(self.control("d_k").value))

    def view(self) -> RenderableType:
        n = self.numbers()
        d_k = int(self.control("d_k").value)
        labels = ["1", "2", "3"]
        left = heatmap(
            n["unscaled_softmax"],
            col_labels=labels,
            row_labels=[_("unscaled")],
            title=_("softmax(s), s = [3, 2, 1]·√{d_k}").format(d_k=d_k),
        )
        right = heatmap(
            n["scaled_softmax"], col_labels=labels, row_labels=[_("scaled")], title=_("softmax(s / √d_k)")
        )
        raw = row_table([(_("raw scores s"), n["raw"]), (_("s / √d_k"), n["scaled"])])
        table = self.table()
        return Group(raw, Text(""), left, Text(""), right, Text(""), table)

    def __init__(self, info, checks=()) -> None:
        super().__init__(info)
        # what the chapter printed for its table (data/checks.yaml), by step and index
        self.claims: dict[tuple[str, tuple[int, ...]], Check] = {}
        for check in checks:
            if check.example == "scaling":
                self.claims.setdefault((check.step, tuple(check.index)), check)

    def table(self) -> RenderableType:
        """The chapter's 7.9 table, recomputed by the engine (the named example `scaling`) beside what the
        chapter printed, then drill's own table and why it differs. Neither depends on the slider, so they
        are built once and the screen, given the same object, leaves them alone."""
        cached = getattr(self, "_table", None)
        if cached is None:
            cached = self._table = Group(self._chapter_table(), Text(""), self._own_table())
        return cached

    def _claimed(self, step: str, index: tuple[int, ...], value: float) -> Text:
        """The chapter's figure as a percentage, marked ✗ where it is wrong (a check with an erratum)."""
        check = self.claims.get((step, index))
        if check is None:
            return Text("")
        text = Text(f"{format_number(check.claimed * 100, max(0, check.decimals - 2))}%")
        if check.erratum:
            text.append(" ✗", style="bold")
        return text

    def _chapter_table(self) -> RenderableType:
        from drill.content.errata import check_text
        from drill.engine.examples import build_example

        trace = build_example("scaling")
        dks = (1, 16, 64)
        table = Table(
            title=Text(_("7.9 the chapter's table: a row [3, 2, 1] divided by √d_k"), style="bold"),
            title_justify="left",
            box=None,
            pad_edge=False,
        )
        for head in ("d_k", _("scaled"), _("largest probability"), _("the chapter printed")):
            table.add_column(Text(head), justify="right")
        rows = trace["scaled_rows"].output
        probs = trace["max_prob"].output
        for i, d_k in enumerate(dks):
            table.add_row(
                str(d_k), _row_text(rows[i]), _percent(probs[i]), self._claimed("max_prob", (i,), probs[i])
            )
        unscaled = float(trace["unscaled_max_prob"].output)
        table.add_row(
            _("unscaled (d_k = 64)"),
            _row_text(trace["unscaled_row"].output),
            _percent(unscaled),
            self._claimed("unscaled_max_prob", (), unscaled),
        )
        notes = [Text("✗ " + check_text(c), style="italic") for c in self.claims.values() if c.erratum]
        return Group(table, *notes)

    def _own_table(self) -> RenderableType:
        from drill.engine.examples import build_example

        rows = build_example("scaling")["table"].output
        table = Table(
            title=Text(_("drill's own table: raw scores that grow like √d_k"), style="bold"),
            title_justify="left",
            box=None,
            pad_edge=False,
        )
        for head in ("d_k", _("with scaling"), _("without scaling")):
            table.add_column(Text(head), justify="right")
        for d_k, with_s, without in rows:
            table.add_row(str(int(d_k)), format_number(with_s, 3), format_number(without, 3))
        why = Text(
            _(
                "not the chapter's: a dot product of d_k unit-variance terms has standard deviation √d_k, so real "
                "raw scores grow with d_k (the chapter's own [24, 16, 8] at d_k = 64 is [3, 2, 1]·8). drill "
                "models them as [3, 2, 1]·√d_k, as the slider does: divided by √d_k they are [3, 2, 1] again "
                "whatever d_k, and unscaled the softmax saturates."
            ),
            style="italic",
        )
        return Group(table, why)

    def plot(self, plot) -> None:
        n = self.numbers()
        plot.clear()
        plot.bar(
            [0.8, 1.8, 2.8],
            n["unscaled_softmax"],
            width=0.35,
            bar_style="red",
            hires_mode=halfblock(),
            label=_("unscaled"),
        )
        plot.bar(
            [1.2, 2.2, 3.2],
            n["scaled_softmax"],
            width=0.35,
            bar_style="blue",
            hires_mode=halfblock(),
            label=_("scaled"),
        )
        plot.set_xticks([1, 2, 3])
        plot.set_ylimits(0, 1)
        plot.show_legend()
