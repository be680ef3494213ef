"""Heads as steps: Q, K and V split into per-head blocks and, for GQA / MQA, each KV head repeated for the
query heads that share it (query head i, counted from 1, reads KV head ⌈i / (h/G)⌉, as PyTorch's
repeat_interleave / enable_gqa does)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from drill.engine.problem import Problem
from drill.engine.trace import Step
from drill.i18n import N_


@dataclass(frozen=True)
class Heads:
    """Q, K, V per head ([B, h, S, d] when multi-head, else the projections) and the steps they come from."""

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    q_step: str
    k_step: str
    v_step: str


def identity_wo(wv_width: int, heads: int, kv_heads: int, d_model: int) -> np.ndarray:
    """The W_O that stands in when multi-head attention is given none: the identity [h·d_v, d_model] (d_v =
    W_V's width / G), so the output projection is a step of its own and leaves the concatenation as it is."""
    d_v = wv_width // kv_heads
    return np.eye(heads * d_v, d_model)


def split(p: Problem, steps: list[Step], q, k, v) -> Heads:
    """Split Q, K, V into heads and, for GQA/MQA, repeat each KV head for the query heads that share it."""
    if not p.multi:
        return Heads(q, k, v, "project_q", "project_k", "project_v")
    h, g, d_k, d_v = p.dims.heads, p.dims.kv_heads, p.dims.d_k, p.dims.d_v
    batch, s_q, s_k, b, sq, sk = p.batch, p.s_q, p.s_k, p.b, p.sq, p.sk
    # contiguous per-head blocks, so the batched matmuls in drill.engine.kernels go straight to BLAS
    qh = np.ascontiguousarray(q.reshape(batch, s_q, h, d_k).transpose(0, 2, 1, 3))
    kh = np.ascontiguousarray(k.reshape(batch, s_k, g, d_k).transpose(0, 2, 1, 3))
    vh = np.ascontiguousarray(v.reshape(batch, s_k, g, d_v).transpose(0, 2, 1, 3))
    gg = "G" if g < h else "h"
    steps += [
        Step(
            name="split_heads",
            title=N_("Split Q into heads"),
            formula=r"Q_i = Q[:, (i-1) d_k : i\, d_k]",
            explanation=N_("h = {h} query heads of d_k = {d_k} columns each", h=h, d_k=d_k),
            inputs=("project_q",),
            output=p.out(qh),
            shape=f"[{b}h, {sq}, d_k]",
        ),
        Step(
            name="split_k",
            title=N_("Split K into heads"),
            formula=r"K_j = K[:, (j-1) d_k : j\, d_k]",
            explanation=N_("{g} key head(s) of d_k = {d_k}", g=g, d_k=d_k),
            inputs=("project_k",),
            output=p.out(kh),
            shape=f"[{b}{gg}, {sk}, d_k]",
        ),
        Step(
            name="split_v",
            title=N_("Split V into heads"),
            formula=r"V_j = V[:, (j-1) d_v : j\, d_v]",
            explanation=N_("{g} value head(s) of d_v = {d_v}", g=g, d_v=d_v),
            inputs=("project_v",),
            output=p.out(vh),
            shape=f"[{b}{gg}, {sk}, d_v]",
        ),
    ]
    if g == h:
        return Heads(qh, kh, vh, "split_heads", "split_k", "split_v")
    group = h // g
    kind = (
        N_("MQA: every query head shares the one KV head")
        if g == 1
        else N_("GQA: query heads {group} at a time share one KV head", group=group)
    )
    kh = np.repeat(kh, group, axis=1)
    vh = np.repeat(vh, group, axis=1)
    steps += [
        Step(
            name="repeat_k",
            title=N_("Share K across query heads"),
            formula=r"K'_i = K_{\lceil i / (h/G) \rceil}",
            explanation=kind,
            inputs=("split_k",),
            output=p.out(kh),
            shape=f"[{b}h, {sk}, d_k]",
            note=N_(
                "the KV cache stores only {g} of {h} heads ({fraction:.3g} of the MHA size)",
                g=g,
                h=h,
                fraction=g / h,
            ),
        ),
        Step(
            name="repeat_v",
            title=N_("Share V across query heads"),
            formula=r"V'_i = V_{\lceil i / (h/G) \rceil}",
            explanation=kind,
            inputs=("split_v",),
            output=p.out(vh),
            shape=f"[{b}h, {sk}, d_v]",
        ),
    ]
    return Heads(qh, kh, vh, "split_heads", "repeat_k", "repeat_v")
