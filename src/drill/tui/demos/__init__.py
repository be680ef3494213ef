"""The chapter's demos for `drill demo`: ``DEMO_CLASSES`` maps a demo's name (data/demos.yaml) to its class.

All 15 of the chapter's demos are here; a name in a pack's demos.yaml without a class is listed as not built
yet (see docs/demos.md)."""

from __future__ import annotations

from drill.tui.demos.base import Control, Demo
from drill.tui.demos.block import TransformerBlock
from drill.tui.demos.cross import CrossAttention
from drill.tui.demos.decoding import TrainVsInference
from drill.tui.demos.ffn import Ffn
from drill.tui.demos.heads import Mha
from drill.tui.demos.norm import LayerNorm
from drill.tui.demos.residual import Residual
from drill.tui.demos.sentence import Attention
from drill.tui.demos.sliders import Scaling, Softmax
from drill.tui.demos.steps import AttnHandcalc, CausalMask, QkvMatrix
from drill.tui.demos.vectors import DotProduct, WeightedSum

DEMO_CLASSES: dict[str, type[Demo]] = {
    cls.name: cls
    for cls in (
        TransformerBlock,
        QkvMatrix,
        AttnHandcalc,
        CausalMask,
        Softmax,
        Scaling,
        WeightedSum,
        DotProduct,
        Mha,
        CrossAttention,
        LayerNorm,
        Residual,
        Ffn,
        TrainVsInference,
        Attention,
    )
}

__all__ = ["DEMO_CLASSES", "Control", "Demo"]
