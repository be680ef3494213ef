"""The chapter's demos for `drill demo`: ``DEMO_CLASSES`` maps a demo's name (data/demos.yaml) to its class.

All 15 of the chapter's demos are here; a name in a pack's demos.yaml without a class is listed as not built
yet (see docs/demos.md). A demo's module is imported when its class is first asked for: the list of demos
needs only the names, so `drill demo` starts without the demos' code, numpy or the plotting library, and
opening a demo without a plot never imports textual-plot."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from drill.tui.demos.base import Control, Demo

# name -> "module:Class" under drill.tui.demos
WHERE = {
    "transformer-block": "block:TransformerBlock",
    "qkv-matrix": "steps:QkvMatrix",
    "attn-handcalc": "steps:AttnHandcalc",
    "causal-mask": "steps:CausalMask",
    "softmax": "sliders:Softmax",
    "scaling": "sliders:Scaling",
    "weighted-sum": "vectors:WeightedSum",
    "dot-product": "vectors:DotProduct",
    "mha": "heads:Mha",
    "cross-attention": "cross:CrossAttention",
    "layernorm": "norm:LayerNorm",
    "residual": "residual:Residual",
    "ffn": "ffn:Ffn",
    "train-vs-inference": "decoding:TrainVsInference",
    "attention": "sentence:Attention",
}


class DemoClasses(Mapping[str, type[Demo]]):
    """The demos' classes by name, each module imported on first use."""

    def __getitem__(self, name: str) -> type[Demo]:
        module, cls = WHERE[name].split(":")
        return getattr(import_module(f"{__name__}.{module}"), cls)

    def __iter__(self) -> Iterator[str]:
        return iter(WHERE)

    def __len__(self) -> int:
        return len(WHERE)

    def __contains__(self, name: object) -> bool:
        return name in WHERE


DEMO_CLASSES: Mapping[str, type[Demo]] = DemoClasses()

__all__ = ["DEMO_CLASSES", "Control", "Demo"]
