"""transformer-block (7.2): the block as a diagram, encoder and decoder sides; select a module to see its role
in the chapter's words, its shapes (input and output both (B, S, d_model)) and its numbers — its input, its
intermediates (attention weights per head, the FFN's hidden layer, the residual sum) and its output, every
one a step of the engine's `transformer_block` trace. Enter opens the module's own demo.

Controls: the module, the number of heads, the seed of the (random, said so on screen) weights and inputs,
and X's element (1, 1), whose move flows through the encoder into the decoder's cross-attention.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from drill.i18n import N_, _
from drill.tui.demos.base import Control, Demo
from drill.tui.widgets.heatmap import heatmap

if TYPE_CHECKING:
    import numpy as np

    from drill.engine.trace import Trace


@dataclass(frozen=True)
class Module:
    """One box of the diagram: the engine step it outputs, the steps it reads, what else it computes."""

    step: str
    name: str  # the chapter's name for it
    roles: tuple[str, ...]  # the chapter's words for what it does (7.2's tables), never translated
    inputs: tuple[str, ...]
    extras: tuple[str, ...]
    opens: str | None  # the demo enter opens

    @property
    def side(self) -> str:
        return "Encoder" if self.step.startswith("enc") else "Decoder"


EMBED = "输入 tokens [B, S] → Embedding ×√d_model + 位置编码 → [B, S, d_model]"
ADD_NORM = ("每个子层外面", "残差 + LayerNorm")
MODULES = (
    Module("enc_input", "Embedding", (EMBED,), (), (), None),
    Module(
        "enc_self_attn",
        "Multi-Head Self-Attention",
        ("所有位置互相交换信息", "双向（无 mask）"),
        ("enc_input",),
        ("enc_weights",),
        "mha",
    ),
    Module("enc_norm_1", "Add&Norm", ADD_NORM, ("enc_input", "enc_self_attn"), ("enc_add_1",), "layernorm"),
    Module(
        "enc_ffn",
        "Feed-Forward Network",
        ("每个位置独立加工", "无注意力"),
        ("enc_norm_1",),
        ("enc_ffn_hidden",),
        "ffn",
    ),
    Module("enc_norm_2", "Add&Norm", ADD_NORM, ("enc_norm_1", "enc_ffn"), ("enc_add_2",), "layernorm"),
    Module("dec_input", "Embedding", (EMBED,), (), (), None),
    Module(
        "dec_self_attn",
        "Masked Self-Attention",
        ("因果（只看到自己及之前）", "防偷看答案"),
        ("dec_input",),
        ("dec_weights",),
        "causal-mask",
    ),
    Module("dec_norm_1", "Add&Norm", ADD_NORM, ("dec_input", "dec_self_attn"), ("dec_add_1",), "layernorm"),
    Module(
        "dec_cross_attn",
        "Cross-Attention",
        ("Q 来自 Decoder，K/V 来自 Encoder", "看输入句子"),
        ("dec_norm_1", "enc_norm_2"),
        ("dec_cross_weights",),
        "cross-attention",
    ),
    Module("dec_norm_2", "Add&Norm", ADD_NORM, ("dec_norm_1", "dec_cross_attn"), ("dec_add_2",), "layernorm"),
    Module("dec_ffn", "FFN", ("逐位置加工",), ("dec_norm_2",), ("dec_ffn_hidden",), "ffn"),
    Module("dec_norm_3", "Add&Norm", ADD_NORM, ("dec_norm_2", "dec_ffn"), ("dec_add_3",), "layernorm"),
)
HEADS = ("1", "2", "4")


def symbolic(shape: str) -> str:
    """The engine's symbolic shape with the batch axis in front: "[S, d_model]" -> "(B, S, d_model)"."""
    return "(B, " + shape.strip("[]") + ")"


def concrete(value: np.ndarray) -> str:
    """The shape with B = 1 in front, as the chapter writes (B, S, d_model)."""
    return "(" + ", ".join(str(d) for d in (1, *value.shape)) + ")"


class TransformerBlock(Demo):
    name = "transformer-block"

    def __init__(self, info) -> None:
        from drill.engine.demos import block_inputs

        self.start_x11 = float(block_inputs(0)["X"][0, 0])
        self._diagrams: dict[int, RenderableType] = {}
        self._trace: tuple[tuple, Trace] | None = None
        super().__init__(info)

    def make_controls(self) -> list[Control]:
        names = tuple(f"{m.side} · {m.name}" for m in MODULES)
        return [
            Control("module", N_("Module"), 0, len(MODULES) - 1, choices=names, value=1),
            Control("heads", N_("heads h"), 0, len(HEADS) - 1, choices=HEADS, value=1),
            Control("seed", N_("seed of the weights"), 0, 9),
            Control("x11", "X[1,1]", -3, 3, 0.5, round(self.start_x11 * 2) / 2, decimals=1),
        ]

    @property
    def module(self) -> Module:
        return MODULES[self.control("module").index]

    def opens(self) -> str | None:
        return self.module.opens

    def trace(self) -> Trace:
        """The engine's trace for the current inputs (kept while only the module changes)."""
        from drill.engine.demos import transformer_block

        key = (
            int(HEADS[self.control("heads").index]),
            int(self.control("seed").value),
            self.control("x11").value,
        )
        if self._trace is None or self._trace[0] != key:
            self._trace = (key, transformer_block(key[1], key[0], key[2]))
        return self._trace[1]

    def numbers(self) -> dict[str, np.ndarray]:
        trace = self.trace()
        module = self.module
        return {name: trace[name].output for name in (*module.inputs, *module.extras, module.step)}

    # --- the view -----------------------------------------------------------------------------------------

    def diagram(self) -> RenderableType:
        """Encoder and decoder side by side, the selected module marked (one per selection, built once)."""
        index = self.control("module").index
        if index not in self._diagrams:
            table = Table(
                box=None, show_header=True, header_style="bold", pad_edge=False, padding=(0, 4, 0, 0)
            )
            table.add_column(Text(_("Encoder (× N)")), no_wrap=True)
            table.add_column(Text(_("Decoder (× N)")), no_wrap=True)
            sides = [[m for m in MODULES if m.side == side] for side in ("Encoder", "Decoder")]
            for row in range(max(len(side) for side in sides)):
                cells = []
                for side in sides:
                    if row >= len(side):
                        cells.append(Text(""))
                        continue
                    chosen = side[row] is self.module
                    cell = Text("▶ " if chosen else "  ", style="bold")
                    cell.append(
                        ("↓ " if row else "  ") + side[row].name, style="bold reverse" if chosen else ""
                    )
                    cells.append(cell)
                table.add_row(*cells)
            self._diagrams[index] = table
        return self._diagrams[index]

    def view(self) -> list:
        trace = self.trace()
        module = self.module
        parts: list = [self.diagram(), Text("")]
        head = Text()
        head.append(f"{module.side} · {module.name}", style="bold")
        if module.opens:
            head.append("   " + _("enter opens the demo {name}").format(name=module.opens), style="dim")
        parts.append(head)
        parts.append(
            Text("\n".join(module.roles), style="italic")
        )  # one part: the same layout for every module
        out = trace[module.step]
        shapes = Text()
        if module.inputs:
            shown_in = ", ".join(f"{name} {concrete(trace[name].output)}" for name in module.inputs)
            shapes.append(_("in: {shapes}").format(shapes=shown_in) + "  →  ")
        shapes.append(
            _("out: {name} {symbolic} = {shape}").format(
                name=module.step, symbolic=symbolic(out.shape), shape=concrete(out.output)
            )
        )
        parts += [shapes, Text("")]
        for name in module.inputs:
            parts += self.matrix(trace, name, _("in: {name}"))
        for name in module.extras:
            parts += self.matrix(trace, name, _("inside: {name}"))
        parts += self.matrix(trace, module.step, _("out: {name}"))
        parts.append(
            Text(
                _(
                    "weights and inputs drawn at random from the seed (σ = 0.5), biases 0, LayerNorm γ = 1, "
                    "β = 0, d_model = 4, d_ff = 8, B = 1: the engine computes every number; a trained model's "
                    "differ, the flow and the shapes are the same"
                ),
                style="dim",
            )
        )
        return parts

    def matrix(self, trace: Trace, name: str, role: str) -> list:
        """``role``: the translated label, "in: {name}" and the like."""
        step = trace[name]
        label = Text()
        label.append(role.format(name=name), style="bold")
        label.append(" · " + _(step.title), style="bold")
        label.append(f"  {symbolic(step.shape)} = {concrete(step.output)}", style="dim")
        if step.output.ndim == 3:  # attention weights, one matrix per head
            label.append("  " + _("rows: queries, columns: keys"), style="dim")
            out: list = [label]
            for h, weights in enumerate(step.output):
                out.append(heatmap(weights, title=_("head {n}").format(n=h + 1)))
            return [*out, Text("")]
        return [label, heatmap(step.output), Text("")]
