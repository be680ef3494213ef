"""The step-through demos over the engine's worked example (7.12's X, W_Q, W_K, W_V):
qkv-matrix (7.5), attn-handcalc (7.12) and causal-mask (7.17). Enter is the chapter's "next"."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text

from drill.engine.notation import dims, format_number
from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo
from drill.tui.widgets.heatmap import heatmap

if TYPE_CHECKING:
    import numpy as np

    from drill.content.models import Check
    from drill.engine.trace import Trace


def matrix_block(trace: Trace, step_name: str, label: str, *, decimals: int = 3) -> RenderableType:
    """One engine step as a heatmap with numbers, under its label and shape."""
    step = trace[step_name]
    head = Text()
    head.append(label, style="bold")
    head.append(f"  {step.shape} = {dims(step.output)}", style="dim")
    return Group(head, heatmap(step.output, decimals=decimals), Text(""))


class TraceStepsDemo(Demo):
    """A demo walking a fixed list of stages; each stage shows some of the trace's steps."""

    example: ClassVar[str] = "worked"
    # (stage label, step names shown); the labels are drill's words (N_) unless a subclass says otherwise.
    stages: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]]
    enter_control = "step"

    def __init__(self, info) -> None:
        super().__init__(info)
        from drill.engine.examples import build_example

        self.trace = build_example(self.example)

    def make_controls(self) -> list[Control]:
        labels = tuple(self.stage_label(i) for i in range(len(self.stages)))
        return [Control("step", N_("Step"), 0, len(self.stages) - 1, choices=labels)]

    def stage_label(self, index: int) -> str:
        return _(self.stages[index][0])

    @property
    def stage(self) -> int:
        return self.control("step").index

    def numbers(self) -> dict[str, np.ndarray]:
        return {name: self.trace[name].output for name in self.stages[self.stage][1]}

    def stage_notes(self) -> list[Text]:
        return []

    def view(self) -> RenderableType:
        label, names = self.stages[self.stage]
        parts: list[RenderableType] = []
        flow = Text()
        for i in range(len(self.stages)):
            if i:
                flow.append(" → ", style="dim")
            flow.append(self.stage_label(i), style="bold reverse" if i == self.stage else "")
        parts += [flow, Text("")]
        for name in names:
            step = self.trace[name]
            parts.append(matrix_block(self.trace, name, f"{step.name}: {_(step.title)}"))
            if step.explanation:
                parts.append(Text(_(step.explanation), style="italic"))
            if step.note:
                parts.append(Text(_("note: {note}").format(note=_(step.note)), style="bold"))
        parts += self.stage_notes()
        return Group(*parts)


class QkvMatrix(TraceStepsDemo):
    name = "qkv-matrix"
    stages = (
        (N_("X"), ("x",)),
        (N_("Q/K/V"), ("project_q", "project_k", "project_v")),
        (N_("QKᵀ"), ("scores",)),
        (N_("scale"), ("scale",)),
        (N_("softmax"), ("softmax",)),
        (N_("output"), ("weighted_sum",)),
    )


class AttnHandcalc(TraceStepsDemo):
    """7.12's steps 0–5 under the chapter's own headings, with the chapter's printed numbers beside drill's
    where they differ (the pack's checks that carry an erratum)."""

    name = "attn-handcalc"
    # The chapter's headings, word for word (content: not translated).
    stages = (
        ("第 0 步：输入", ("x",)),
        ("第 1 步：三个投影", ("project_q", "project_k", "project_v")),
        ("第 2 步：QKᵀ 打分", ("scores",)),
        ("第 3 步：除以 √d_k", ("scale",)),
        ("第 4 步：逐行 softmax", ("softmax",)),
        ("第 5 步：乘 V 得到输出", ("weighted_sum",)),
    )

    def __init__(self, info, checks=()) -> None:
        super().__init__(info)
        errata: dict[tuple, Check] = {}
        for check in checks:  # one note per number (two packs may check the same one)
            if check.example == self.example and check.erratum:
                errata.setdefault((check.step, tuple(check.index)), check)
        self.errata = list(errata.values())

    def stage_label(self, index: int) -> str:
        return self.stages[index][0]

    def stage_notes(self) -> list[Text]:
        from drill.content.errata import check_text

        names = self.stages[self.stage][1]
        notes = []
        for check in self.errata:
            if check.step not in names:
                continue
            value = self.trace[check.step].output[tuple(check.index)]
            line = Text()
            line.append(
                _("chapter prints {claimed}, drill computes {value}").format(
                    claimed=format_number(check.claimed, check.decimals),
                    value=format_number(value, check.decimals + 2),
                ),
                style="bold",
            )
            line.append(f"  {check.step}{[i + 1 for i in check.index]}  ", style="dim")
            line.append(check_text(check))  # drill's words, in the UI language
            notes.append(line)
        return notes


class CausalMask(TraceStepsDemo):
    name = "causal-mask"
    example = "causal"
    stages = (
        (N_("scaled scores"), ("scale",)),
        (N_("+ mask"), ("masked",)),
        (N_("softmax"), ("softmax",)),
    )
