"""The chapter's computations as named, reproducible traces: `build_example("worked")` etc.

Every number here is computed, never copied from the chapter; data/checks.yaml holds what the chapter printed
and drill.engine.verify compares the two. Step names are listed in drill.engine.catalog (stable). One module
per topic (`TOPICS`); importing them registers their examples (drill.engine.examples.registry) in this
order:

- basics: the worked example, X Xᵀ, scaling by √d_k, softmax (7.5–7.12)
- masks: causal and padding masks (7.16, 7.17)
- heads: multi-head, GQA / MQA, cross-attention (7.14, 7.15, 7.18)
- block: residual, LayerNorm, FFN (7.19–7.21)
- position: sinusoidal encoding and RoPE (7.3)
- cost: KV cache, the Noam schedule, parameter counts, O(S²) (7.4, 7.21–7.23)
"""

from __future__ import annotations

from importlib import import_module

from drill.engine.examples.common import W_K, W_Q, W_V, X
from drill.engine.examples.registry import EXAMPLES, Example, build_example

TOPICS = ("basics", "masks", "heads", "block", "position", "cost")  # the order of `drill calc --list`
for _topic in TOPICS:
    import_module(f"{__name__}.{_topic}")

__all__ = ["EXAMPLES", "Example", "W_K", "W_Q", "W_V", "X", "build_example"]
