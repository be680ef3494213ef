"""Masks as steps: which keys each query may see (causal, padding or both), the additive mask, the masked
scores, and the note for a query that sees no key at all (softmax gives it zeros, as PyTorch's SDPA does)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from drill.engine import ops
from drill.engine.problem import Problem, pad_mask
from drill.engine.trace import Step
from drill.i18n import N_


@dataclass(frozen=True)
class Mask:
    """Which keys each query may see: ``allowed`` [B, S_q, S_k], its additive form (0 / -inf), the pad mask."""

    allowed: np.ndarray
    add: np.ndarray
    keep: np.ndarray | None  # [B, S_k] bool, True = real token; None without a padding mask
    causal: bool


def build(p: Problem, pad, causal: bool) -> Mask | None:
    keep = pad_mask(pad, p.batch, p.s_k, p.dims.batched) if pad is not None else None
    if not causal and keep is None:
        return None
    allowed = np.ones((p.batch, p.s_q, p.s_k), dtype=bool)
    if keep is not None:
        allowed &= keep[:, None, :]
    if causal:
        allowed &= ops.causal_allowed(p.s_q, p.s_k)[None]
    return Mask(allowed=allowed, add=ops.additive_mask(allowed), keep=keep, causal=causal)


_MASK_TEXT = {  # (formula, explanation) by which masks are on: (padding, causal)
    (True, False): (
        r"M_{ij} = 0 \text{ if } m_j = 1 \text{ else } -\infty",
        N_("PAD keys get -inf so softmax gives them weight 0"),
    ),
    (False, True): (
        r"M_{ij} = 0 \text{ if } j \le i \text{ else } -\infty",
        N_("future keys (j > i) get -inf so no token sees ahead"),
    ),
    (True, True): (
        r"M_{ij} = 0 \text{ if } j \le i \wedge m_j = 1 \text{ else } -\infty",
        N_("future keys and PAD keys both get -inf"),
    ),
}


def steps(p: Problem, mask: Mask, logits: np.ndarray) -> list[Step]:
    steps = []
    if mask.keep is not None:
        steps.append(
            Step(
                name="pad_mask",
                title=N_("Padding mask (keys)"),
                formula=r"m_j \in \{0, 1\}",
                explanation=N_("1 = real token, 0 = PAD; one row per sequence, broadcast over queries"),
                inputs=("pad",),
                output=p.out(mask.keep.astype(np.float64)),
                shape=f"[{p.b}{p.sk}]",
            )
        )
    formula, explanation = _MASK_TEXT[(mask.keep is not None, mask.causal)]
    steps += [
        Step(
            name="mask",
            title=N_("Additive mask"),
            formula=formula,
            explanation=explanation,
            inputs=("pad_mask",) if mask.keep is not None else (),
            output=p.out(mask.add),
            shape=f"[{p.b}{p.sq}, {p.sk}]",
            note=N_("the same mask is broadcast over all heads") if p.multi else None,
        ),
        Step(
            name="masked",
            title=N_("Masked scores"),
            formula=r"\frac{Q K^\top}{\sqrt{d_k}} + M",
            explanation=N_("added before softmax: masked entries are -inf"),
            inputs=("scale", "mask"),
            output=p.out(logits),
            shape=f"[{p.b}{p.hh}{p.sq}, {p.sk}]",
        ),
    ]
    return steps


def dead_rows_note(p: Problem, mask: Mask | None) -> str | None:
    """A note naming the queries that see no key at all (softmax gives them zeros), if there are any."""
    if mask is None:
        return None
    dead = np.argwhere(~mask.allowed.any(axis=-1))  # (sequence, query) pairs with no visible key
    if not len(dead):
        return None
    # named from 1, as the chapter counts tokens ("第 1 个 token"); the arrays stay 0-based
    where = tuple(
        N_("query {q} of sequence {b}", q=int(q_i) + 1, b=int(b_i) + 1)
        if p.dims.batched
        else N_("query {q}", q=int(q_i) + 1)
        for b_i, q_i in dead[:6]
    ) + (("…",) if len(dead) > 6 else ())
    return N_(
        "fully masked row ({where}): every key is masked, so softmax would be 0/0 = NaN; "
        "drill returns zeros there, as PyTorch's scaled_dot_product_attention does, so the row's output is 0",
        where=where,
    )
