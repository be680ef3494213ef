"""Heads (7.14, 7.15, 7.18): multi-head attention, concatenation, GQA / MQA and cross-attention."""

from __future__ import annotations

import numpy as np

from drill.engine.attention import attention_trace, cross_attention_trace
from drill.engine.examples.common import W_K, W_Q, W_V, X, arr
from drill.engine.examples.registry import example
from drill.engine.trace import Step, Trace
from drill.i18n import N_

MHA_X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])


MHA_WQ = np.array([[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, -1.0]])


MHA_WK = np.array([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0], [1.0, 0.0, 0.0, 0.0]])


MHA_WV = np.eye(4)


@example("mha", section="7.14", summary=N_("multi-head: split, attend, concat, W_O"))
def mha() -> Trace:
    return attention_trace(
        MHA_X,
        MHA_WQ,
        MHA_WK,
        MHA_WV,
        np.eye(4),
        heads=2,
        title=N_("7.14 Multi-head attention: d_model = 4, h = 2 (W_O = I)"),
    )


@example("mha_concat", section="7.14", summary=N_("the chapter's two-head concatenation"))
def mha_concat() -> Trace:
    h1, h2 = arr([0.6, 0.8]), arr([0.2, 0.5])
    cat = np.concatenate([h1, h2])
    steps = (
        Step(
            name="head_1",
            title=N_("Head 1's output for one token"),
            formula=r"\mathrm{head}_1",
            explanation=N_("d_v = d_model / h = 2"),
            inputs=(),
            output=h1,
            shape="[d_v]",
        ),
        Step(
            name="head_2",
            title=N_("Head 2's output"),
            formula=r"\mathrm{head}_2",
            explanation="d_v = 2",
            inputs=(),
            output=h2,
            shape="[d_v]",
        ),
        Step(
            name="concat_heads",
            title=N_("Concatenate"),
            formula=r"\mathrm{Concat}(\mathrm{head}_1, \mathrm{head}_2)",
            explanation=N_("back to d_model = 4"),
            inputs=("head_1", "head_2"),
            output=cat,
            shape="[h·d_v]",
        ),
        Step(
            name="output_proj",
            title=N_("Times W_O = I"),
            formula=r"\mathrm{Concat}(\ldots) W_O",
            explanation=N_("the identity keeps it unchanged"),
            inputs=("concat_heads", "W_O"),
            output=cat @ np.eye(4),
            shape="[d_model]",
        ),
    )
    return Trace(N_("7.14 Concatenating two heads"), steps, {"W_O": np.eye(4)})


def _gqa_weights(kv_heads: int):
    rng = np.random.default_rng(7)
    x = np.round(rng.uniform(-1, 1, (3, 8)), 1)
    wq = np.round(rng.uniform(-1, 1, (8, 8)), 1)
    wk = np.round(rng.uniform(-1, 1, (8, 2 * kv_heads)), 1)
    wv = np.round(rng.uniform(-1, 1, (8, 2 * kv_heads)), 1)
    wo = np.round(rng.uniform(-1, 1, (8, 8)), 1)
    return x, wq, wk, wv, wo


def _shared_kv(kv_heads: int, title: str) -> Trace:
    """4 query heads over ``kv_heads`` shared key/value heads (GQA; MQA when there is one)."""
    return attention_trace(*_gqa_weights(kv_heads), heads=4, kv_heads=kv_heads, title=title)


@example("gqa", section="7.15", summary=N_("grouped-query attention: 4 Q heads, 2 KV heads"))
def gqa() -> Trace:
    return _shared_kv(2, N_("GQA: 4 query heads share 2 KV heads (d_model = 8, d_k = 2)"))


@example("mqa", section="7.15", summary=N_("multi-query attention: 4 Q heads, 1 KV head"))
def mqa() -> Trace:
    return _shared_kv(1, N_("MQA: 4 query heads share 1 KV head (d_model = 8, d_k = 2)"))


@example("cross", section="7.18", summary=N_("decoder queries over encoder keys"))
def cross() -> Trace:
    x_dec = np.array([[1.0, 0.0], [0.5, 1.0]])
    return cross_attention_trace(
        x_dec, X, W_Q, W_K, W_V, title=N_("7.18 Cross-attention: 2 decoder queries over 3 encoder tokens")
    )
