"""Scaled dot-product attention as a trace: self-attention (single- or multi-head, MQA/GQA), masks,
cross-attention and KV-cache decoding.

Shapes follow the chapter: X [B, S, d_model] (or [S, d_model] without a batch), W_Q [d_model, h·d_k],
W_K [d_model, G·d_k], W_V [d_model, G·d_v], W_O [h·d_v, d_model], where h is the number of query heads and
G the number of KV heads (G = h: MHA, G = 1: MQA, otherwise GQA; 0-based, query head i reads KV head
i // (h/G), as PyTorch's repeat_interleave / enable_gqa does). Masks are boolean, True = may attend.

A trace is assembled by small builders, in step order: `make_problem` (validated inputs, drill.engine.problem),
`_input_steps`, `_projections`, `drill.engine.heads.split`, `masking.build` + `_attend` (scores to the weighted
sum, with the numbers from drill.engine.kernels and the mask steps from drill.engine.masking) and `_output`
(concatenation and W_O). Step words are English, marked for the catalogs (`N_`) and translated where shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from drill.engine import kernels, masking, ops
from drill.engine.heads import Heads
from drill.engine.heads import split as split_heads
from drill.engine.problem import Problem, make_problem
from drill.engine.trace import Step, Trace
from drill.i18n import N_, deferred


def _input_steps(p: Problem) -> list[Step]:
    if not p.cross:
        return [
            Step(
                name="x",
                title=N_("Input"),
                formula="X",
                explanation=N_("one row per token (embedding + position)"),
                inputs=("X",),
                output=p.x,
                shape=f"[{p.b}S, d_model]",
            )
        ]
    x_name, kv_name = p.names
    return [
        Step(
            name="x_dec",
            title=N_("Decoder states"),
            formula="X_{dec}",
            explanation=N_("queries come from the decoder"),
            inputs=(x_name,),
            output=p.x,
            shape=f"[{p.b}{p.sq}, d_model]",
        ),
        Step(
            name="x_enc",
            title=N_("Encoder output"),
            formula="X_{enc}",
            explanation=N_("keys and values come from the encoder"),
            inputs=(kv_name,),
            output=p.x_kv,
            shape=f"[{p.b}{p.sk}, d_model]",
        ),
    ]


def _projections(p: Problem, steps: list[Step]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q = X W_Q, K = X W_K, V = X W_V, each [B, S, width]."""
    q, k, v = kernels.project([(p.x3, p.wq), (p.xkv3, p.wk), (p.xkv3, p.wv)], p.big)
    src_q, src_kv = ("x_dec", "x_enc") if p.cross else ("x", "x")
    shared = p.dims.kv_heads < p.dims.heads
    dk_sym = "h·d_k" if p.multi else "d_k"
    dkv_sym = ("G·d_k" if shared else "h·d_k") if p.multi else "d_k"
    dvv_sym = ("G·d_v" if shared else "h·d_v") if p.multi else "d_v"
    steps += [
        Step(
            name="project_q",
            title=N_("Query projection"),
            formula="Q = X W_Q",
            explanation=N_("what each token is looking for"),
            inputs=(src_q, "W_Q"),
            output=p.out(q),
            shape=f"[{p.b}{p.sq}, {dk_sym}]",
        ),
        Step(
            name="project_k",
            title=N_("Key projection"),
            formula="K = X W_K",
            explanation=N_("what each token offers to be matched on"),
            inputs=(src_kv, "W_K"),
            output=p.out(k),
            shape=f"[{p.b}{p.sk}, {dkv_sym}]",
        ),
        Step(
            name="project_v",
            title=N_("Value projection"),
            formula="V = X W_V",
            explanation=N_("the content each token hands over"),
            inputs=(src_kv, "W_V"),
            output=p.out(v),
            shape=f"[{p.b}{p.sk}, {dvv_sym}]",
        ),
    ]
    return q, k, v


def _attend(p: Problem, steps: list[Step], heads: Heads, mask: masking.Mask | None) -> np.ndarray:
    """Scores, scaling, the mask, softmax and the weighted sum; returns A·V ([B, h, S_q, d_v] or [B, S_q, d_v])."""
    d_k = p.dims.d_k
    add = None if mask is None else mask.add
    scores, scaled, logits, weights, context = kernels.attend(
        heads.q, heads.k, heads.v, add, d_k, p.dims.heads if p.multi else 1, p.big
    )
    score_shape = f"[{p.b}{p.hh}{p.sq}, {p.sk}]"
    steps += [
        Step(
            name="scores",
            title=N_("Match scores"),
            formula=r"S = Q K^\top",
            explanation=N_("S_ij = q_i · k_j: how well query i matches key j"),
            inputs=(heads.q_step, heads.k_step),
            output=p.out(scores),
            shape=score_shape,
        ),
        Step(
            name="scale",
            title=N_("Scale by √d_k"),
            formula=r"\frac{Q K^\top}{\sqrt{d_k}}",
            explanation=N_(
                "divide by √d_k = √{d_k} ≈ {root:.3f} so the variance stays near 1",
                d_k=d_k,
                root=math.sqrt(d_k),
            ),
            inputs=("scores",),
            output=p.out(scaled),
            shape=score_shape,
        ),
    ]
    if mask is not None:
        steps += masking.steps(p, mask, logits)
    steps += [
        Step(
            name="softmax",
            title=N_("Row-wise softmax"),
            formula=r"A_{ij} = \frac{e^{s_{ij} - m_i}}{\sum_{j'} e^{s_{ij'} - m_i}}",
            explanation=N_(
                "each query's weights over the keys: non-negative, summing to 1 (m_i = row max, for stability)"
            ),
            inputs=("masked" if mask is not None else "scale",),
            output=p.out(weights),
            shape=score_shape,
            note=masking.dead_rows_note(p, mask),
        ),
        Step(
            name="weighted_sum",
            title=N_("Weighted sum of values"),
            formula=r"O = A V",
            explanation=N_("each output row is a convex combination of the value rows"),
            inputs=("softmax", heads.v_step),
            output=p.out(context),
            shape=f"[{p.b}{p.hh}{p.sq}, d_v]",
        ),
    ]
    return context


def _output(p: Problem, steps: list[Step], context: np.ndarray) -> None:
    """Concatenate the heads (multi-head) and apply W_O (when given)."""
    h, d_v = p.dims.heads, p.dims.d_v
    result = context
    if p.multi:
        result = context.transpose(0, 2, 1, 3).reshape(p.batch, p.s_q, h * d_v)
        steps.append(
            Step(
                name="concat_heads",
                title=N_("Concatenate heads"),
                formula=r"\mathrm{Concat}(\mathrm{head}_1, \ldots, \mathrm{head}_h)",
                explanation=N_("{h} heads of d_v = {d_v} side by side", h=h, d_v=d_v),
                inputs=("weighted_sum",),
                output=p.out(result),
                shape=f"[{p.b}{p.sq}, h·d_v]",
            )
        )
    if p.wo is None:
        return
    (result,) = kernels.project([(result, p.wo)], p.big)
    steps.append(
        Step(
            name="output_proj",
            title=N_("Output projection"),
            formula=r"\mathrm{Concat}(\ldots) W_O" if p.multi else "O W_O",
            explanation=N_("W_O mixes what the heads found"),
            inputs=("concat_heads" if p.multi else "weighted_sum", "W_O"),
            output=p.out(result),
            shape=f"[{p.b}{p.sq}, d_model]",
            note=_identity_note(p.wo),
        )
    )


def _identity_note(wo: np.ndarray) -> str | None:
    if wo.shape[0] == wo.shape[1] and np.array_equal(wo, np.eye(wo.shape[0])):
        return N_("W_O is the identity here, so the output equals the concatenated heads")
    return None


def _trace_inputs(p: Problem, mask: masking.Mask | None) -> dict[str, np.ndarray]:
    x_name, kv_name = p.names
    inputs = {x_name: p.x, "W_Q": p.wq, "W_K": p.wk, "W_V": p.wv}
    if p.cross:
        inputs[kv_name] = p.x_kv
    if p.wo is not None:
        inputs["W_O"] = p.wo
    if mask is not None and mask.keep is not None:
        keep = mask.keep.astype(np.float64)
        inputs["pad"] = keep if p.dims.batched else keep[0]
    return inputs


def _attention(x, x_kv, wq, wk, wv, wo, *, heads, kv_heads, causal, pad, cross: bool, title: str) -> Trace:
    p = make_problem(x, x_kv, wq, wk, wv, wo, heads, kv_heads, cross)
    steps = _input_steps(p)
    q, k, v = _projections(p, steps)
    split = split_heads(p, steps, q, k, v)
    mask = masking.build(p, pad, causal)
    context = _attend(p, steps, split, mask)
    _output(p, steps, context)
    return Trace(title=title, steps=tuple(steps), inputs=_trace_inputs(p, mask))


def _default_title(heads: int, kv_heads: int | None, causal: bool, padded: bool) -> str:
    """The title of a trace built from typed or random inputs, e.g. "Multi-head attention (h = 4, 2 KV heads)"."""
    if heads == 1:
        kind = deferred(N_("Self-attention"))
    elif kv_heads in (None, heads):
        kind = N_("Multi-head attention (h = {h})", h=heads)
    elif kv_heads == 1:
        kind = N_("Multi-head attention (h = {h}, 1 KV head)", h=heads)
    else:
        kind = N_("Multi-head attention (h = {h}, {g} KV heads)", h=heads, g=kv_heads)
    if causal and padded:
        return N_("{kind}, causal, padding mask", kind=kind)
    if causal:
        return N_("{kind}, causal", kind=kind)
    if padded:
        return N_("{kind}, padding mask", kind=kind)
    return kind


def attention_trace(
    x,
    wq,
    wk,
    wv,
    wo=None,
    *,
    heads: int = 1,
    kv_heads: int | None = None,
    causal: bool = False,
    pad=None,
    title: str | None = None,
) -> Trace:
    """Self-attention on X with separate W_Q, W_K, W_V (and optional W_O), as a trace of named steps.

    ``pad`` is a key mask of 1 (real token) / 0 (PAD), shape [S] or [B, S]; ``causal`` hides future keys.
    Bad shapes raise InputError naming them.
    """
    if title is None:
        title = _default_title(heads, kv_heads, causal, pad is not None)
    return _attention(
        x,
        None,
        wq,
        wk,
        wv,
        wo,
        heads=heads,
        kv_heads=kv_heads,
        causal=causal,
        pad=pad,
        cross=False,
        title=title,
    )


def cross_attention_trace(
    x_dec,
    x_enc,
    wq,
    wk,
    wv,
    wo=None,
    *,
    heads: int = 1,
    kv_heads: int | None = None,
    pad=None,
    title: str = N_("Cross-attention"),
) -> Trace:
    """Queries from the decoder, keys and values from the encoder: scores are [S_dec, S_enc]."""
    return _attention(
        x_dec,
        x_enc,
        wq,
        wk,
        wv,
        wo,
        heads=heads,
        kv_heads=kv_heads,
        causal=False,
        pad=pad,
        cross=True,
        title=title,
    )


@dataclass
class KVCache:
    """Keys and values of the tokens decoded so far (one sequence, single head)."""

    k: np.ndarray
    v: np.ndarray


def decode_with_cache(x: np.ndarray, wq, wk, wv) -> tuple[np.ndarray, KVCache, int]:
    """Autoregressive decoding of X [S, d_model] one token at a time with a KV cache.

    Step t projects only token t (appending its k, v to the cache) and attends over the cache, which holds
    exactly the tokens ≤ t, so no mask is needed. Returns the stacked outputs [S, d_v], the final cache and
    the number of K/V projections computed (S, against S(S+1)/2 when every step recomputes the prefix).
    """
    d_k = wq.shape[1]
    cache = KVCache(np.zeros((0, wk.shape[1])), np.zeros((0, wv.shape[1])))
    outputs = []
    for t in range(x.shape[0]):
        xt = x[t : t + 1]
        cache.k = np.vstack([cache.k, xt @ wk])
        cache.v = np.vstack([cache.v, xt @ wv])
        scores = (xt @ wq) @ cache.k.T / math.sqrt(d_k)
        outputs.append(ops.softmax(scores) @ cache.v)
    return np.vstack(outputs), cache, x.shape[0]
