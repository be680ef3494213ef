"""Masks (7.16, 7.17): causal, padding, both, and a query left with no visible key."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.attention import attention_trace
from drill.engine.examples.common import W_K, W_Q, W_V, X, arr
from drill.engine.examples.registry import example
from drill.engine.trace import Step, Trace
from drill.i18n import N_


@example("causal", section="7.17", summary=N_("causal mask on the worked example"))
def causal() -> Trace:
    return attention_trace(X, W_Q, W_K, W_V, causal=True, title=N_("7.17 Causal mask on the worked example"))


@example("padding", section="7.16", summary=N_("one row with two PAD keys"))
def padding() -> Trace:
    scores = arr([[2, 1, 3, 2, 4, 5]])
    keep = arr([1, 1, 1, 1, 0, 0])
    add = ops.additive_mask(keep.astype(bool))[None, :]
    masked = scores + add
    steps = (
        Step(
            name="scores",
            title=N_("One row of raw scores"),
            formula="s",
            explanation=N_("[CLS] my dog [SEP] PAD PAD"),
            inputs=(),
            output=scores,
            shape="[1, S]",
        ),
        Step(
            name="pad_mask",
            title=N_("Padding mask"),
            formula=r"m_j \in \{0, 1\}",
            explanation=N_("1 = real token, 0 = PAD"),
            inputs=(),
            output=keep,
            shape="[S]",
        ),
        Step(
            name="softmax_unmasked",
            title=N_("Softmax without the mask"),
            formula=r"\mathrm{softmax}(s)",
            explanation=N_("the PADs take most weight"),
            inputs=("scores",),
            output=ops.softmax(scores),
            shape="[1, S]",
        ),
        Step(
            name="mask",
            title=N_("Additive mask"),
            formula=r"M_j = 0 \text{ if } m_j = 1 \text{ else } -\infty",
            explanation=N_("PAD → -inf"),
            inputs=("pad_mask",),
            output=add,
            shape="[1, S]",
        ),
        Step(
            name="masked",
            title=N_("Masked scores"),
            formula="s + M",
            explanation=N_("PAD scores become -inf"),
            inputs=("scores", "mask"),
            output=masked,
            shape="[1, S]",
        ),
        Step(
            name="softmax",
            title=N_("Softmax with the mask"),
            formula=r"\mathrm{softmax}(s + M)",
            explanation=N_("weights only on real tokens, still summing to 1"),
            inputs=("masked",),
            output=ops.softmax(masked),
            shape="[1, S]",
        ),
    )
    return Trace(N_("7.16 Padding mask on one row"), steps, {"pad": keep})


@example("padding_batch", section="7.16", summary=N_("a [B, S] key mask broadcast over a batch"))
def padding_batch() -> Trace:
    xb = np.stack([X, np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])])
    return attention_trace(
        xb,
        W_Q,
        W_K,
        W_V,
        pad=[[1, 1, 1], [1, 1, 0]],
        title=N_("7.16 A [B, S] padding mask broadcast over a batch"),
    )


@example("causal_padding", section="7.16", summary=N_("causal and padding masks together"))
def causal_padding() -> Trace:
    return attention_trace(
        X, W_Q, W_K, W_V, causal=True, pad=[1, 1, 0], title=N_("Causal and padding masks together")
    )


@example("fully_masked", section="7.16", summary=N_("a query whose every key is masked → zeros"))
def fully_masked() -> Trace:
    return attention_trace(
        X,
        W_Q,
        W_K,
        W_V,
        causal=True,
        pad=[0, 1, 1],
        title=N_("Left padding + causal: a query with no visible key"),
    )
