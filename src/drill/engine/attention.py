"""Scaled dot-product attention as a trace: self-attention (single- or multi-head, MQA/GQA), masks,
cross-attention and KV-cache decoding.

Shapes follow the chapter: X [B, S, d_model] (or [S, d_model] without a batch), W_Q [d_model, h·d_k],
W_K [d_model, G·d_k], W_V [d_model, G·d_v], W_O [h·d_v, d_model], where h is the number of query heads and
G the number of KV heads (G = h: MHA, G = 1: MQA, otherwise GQA; query head i reads KV head i // (h/G), as
PyTorch's repeat_interleave / enable_gqa does). Masks are boolean, True = may attend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from drill.engine import ops, parallel
from drill.engine.parse import shape_str
from drill.engine.trace import Step, Trace
from drill.errors import InputError


def _matrix(value, name: str) -> np.ndarray:
    try:
        arr = np.array(
            value, dtype=np.float64
        )  # a copy: later changes to the caller's array cannot reach the trace
    except (TypeError, ValueError):
        raise InputError(f"{name}: not a numeric matrix") from None
    if arr.size == 0:
        raise InputError(f"{name} is empty ({shape_str(arr)})")
    if not np.isfinite(arr).all():
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
        raise InputError(f"{name} {shape_str(arr)} holds {arr[bad]} at {list(bad)}; values must be finite")
    return arr


@dataclass(frozen=True)
class _Dims:
    batched: bool
    heads: int
    kv_heads: int
    d_k: int
    d_v: int


def _check(x, x_kv, wq, wk, wv, wo, heads, kv_heads, x_name, kv_name) -> _Dims:
    if x.ndim not in (2, 3):
        raise InputError(f"{x_name} must be [S, d_model] or [B, S, d_model], got {shape_str(x)}")
    if x_kv.ndim != x.ndim or (x.ndim == 3 and x_kv.shape[0] != x.shape[0]):
        raise InputError(
            f"{kv_name} {shape_str(x_kv)} and {x_name} {shape_str(x)} need the same batch layout"
        )
    for w, name in ((wq, "W_Q"), (wk, "W_K"), (wv, "W_V")):
        if w.ndim != 2:
            raise InputError(f"{name} must be a matrix [d_model, d], got {shape_str(w)}")
    d_model = x.shape[-1]
    if wq.shape[0] != d_model:
        raise InputError(
            f"{x_name} is {shape_str(x)} (d_model = {d_model}) but W_Q is {shape_str(wq)}: "
            f"W_Q's height must equal {x_name}'s width ({d_model})"
        )
    for w, name in ((wk, "W_K"), (wv, "W_V")):
        if w.shape[0] != x_kv.shape[-1]:
            raise InputError(
                f"{kv_name} is {shape_str(x_kv)} (width {x_kv.shape[-1]}) but {name} is {shape_str(w)}: "
                f"{name}'s height must equal {kv_name}'s width ({x_kv.shape[-1]})"
            )
    if not isinstance(heads, int) or heads < 1:
        raise InputError(f"heads must be a positive whole number, got {heads!r}")
    kv_heads = heads if kv_heads is None else kv_heads
    if not isinstance(kv_heads, int) or kv_heads < 1:
        raise InputError(f"kv heads must be a positive whole number, got {kv_heads!r}")
    if heads % kv_heads:
        raise InputError(
            f"kv heads G = {kv_heads} must divide the query heads h = {heads} (each KV head serves h/G)"
        )
    if wq.shape[1] % heads:
        raise InputError(
            f"W_Q is {shape_str(wq)}: its width {wq.shape[1]} (= h · d_k) is not divisible by heads h = {heads}"
        )
    d_k = wq.shape[1] // heads
    if wk.shape[1] != kv_heads * d_k:
        raise InputError(
            f"W_K is {shape_str(wk)} but W_Q is {shape_str(wq)}: with h = {heads} query heads of d_k = {d_k} "
            f"and G = {kv_heads} KV heads, W_K must be [{wk.shape[0]}, {kv_heads * d_k}]"
        )
    if wv.shape[1] % kv_heads:
        raise InputError(
            f"W_V is {shape_str(wv)}: its width {wv.shape[1]} (= G · d_v) is not divisible by G = {kv_heads} KV heads"
        )
    d_v = wv.shape[1] // kv_heads
    if wo is not None:
        if wo.ndim != 2 or wo.shape[0] != heads * d_v:
            raise InputError(
                f"W_O is {shape_str(wo)} but the concatenated heads are h · d_v = {heads} · {d_v} = {heads * d_v} "
                f"wide: W_O must be [{heads * d_v}, d_out]"
            )
    return _Dims(batched=x.ndim == 3, heads=heads, kv_heads=kv_heads, d_k=d_k, d_v=d_v)


def _pad_mask(pad, batch: int, s_k: int, batched: bool) -> np.ndarray:
    arr = np.asarray(pad)
    if arr.size == 0:
        raise InputError("pad mask is empty")
    try:
        keep = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError("pad mask must hold 1 (keep) and 0 (padding)") from None
    if not np.isin(keep, (0.0, 1.0)).all():
        raise InputError(f"pad mask {shape_str(arr)} must hold only 1 (keep) and 0 (padding)")
    keep = keep.astype(bool)
    if keep.ndim == 1:
        keep = keep[None, :]
    if keep.ndim != 2 or keep.shape[1] != s_k:
        raise InputError(
            f"pad mask is {shape_str(arr)} but the sequence has {s_k} key tokens: it must be [S] or [B, S] with S = {s_k}"
        )
    if not batched and keep.shape[0] != 1:
        raise InputError(
            f"pad mask is {shape_str(arr)} but X has no batch axis: give one row of {s_k} values"
        )
    if keep.shape[0] not in (1, batch):
        raise InputError(f"pad mask is {shape_str(arr)} but the batch has B = {batch} sequences")
    return np.broadcast_to(keep, (batch, s_k))


def _attention(x, x_kv, wq, wk, wv, wo, *, heads, kv_heads, causal, pad, cross: bool, title: str) -> Trace:
    x_name, kv_name = ("X_dec", "X_enc") if cross else ("X", "X")
    x = _matrix(x, x_name)
    x_kv = x if x_kv is None else _matrix(x_kv, kv_name)
    wq, wk, wv = _matrix(wq, "W_Q"), _matrix(wk, "W_K"), _matrix(wv, "W_V")
    wo = None if wo is None else _matrix(wo, "W_O")
    dims = _check(x, x_kv, wq, wk, wv, wo, heads, kv_heads, x_name, kv_name)
    h, g, d_k, d_v = dims.heads, dims.kv_heads, dims.d_k, dims.d_v
    multi = h > 1
    x3 = x if dims.batched else x[None]
    xkv3 = x_kv if dims.batched else x_kv[None]
    batch, s_q, _ = x3.shape
    s_k = xkv3.shape[1]

    sq, sk = ("S_dec", "S_enc") if cross else ("S", "S")
    b = "B, " if dims.batched else ""
    hh = "h, " if multi else ""
    dk_sym = "h·d_k" if multi else "d_k"
    dkv_sym = ("G·d_k" if g < h else "h·d_k") if multi else "d_k"
    dvv_sym = ("G·d_v" if g < h else "h·d_v") if multi else "d_v"

    def out(arr):  # drop the batch axis we added for an unbatched X
        return arr if dims.batched else arr[0]

    steps: list[Step] = []
    inputs = {x_name: x, "W_Q": wq, "W_K": wk, "W_V": wv}
    if cross:
        inputs[kv_name] = x_kv
        steps.append(
            Step(
                name="x_dec",
                title="Decoder states",
                formula="X_{dec}",
                explanation="queries come from the decoder",
                inputs=(x_name,),
                output=x,
                shape=f"[{b}{sq}, d_model]",
            )
        )
        steps.append(
            Step(
                name="x_enc",
                title="Encoder output",
                formula="X_{enc}",
                explanation="keys and values come from the encoder",
                inputs=(kv_name,),
                output=x_kv,
                shape=f"[{b}{sk}, d_model]",
            )
        )
    else:
        steps.append(
            Step(
                name="x",
                title="Input",
                formula="X",
                explanation="one row per token (embedding + position)",
                inputs=("X",),
                output=x,
                shape=f"[{b}S, d_model]",
            )
        )
    src_q, src_kv = ("x_dec", "x_enc") if cross else ("x", "x")

    big = parallel.worth_it(batch * h * s_q * s_k)
    q, k, v = _project([(x3, wq), (xkv3, wk), (xkv3, wv)], big)
    steps.append(
        Step(
            name="project_q",
            title="Query projection",
            formula="Q = X W_Q",
            explanation="what each token is looking for",
            inputs=(src_q, "W_Q"),
            output=out(q),
            shape=f"[{b}{sq}, {dk_sym}]",
        )
    )
    steps.append(
        Step(
            name="project_k",
            title="Key projection",
            formula="K = X W_K",
            explanation="what each token offers to be matched on",
            inputs=(src_kv, "W_K"),
            output=out(k),
            shape=f"[{b}{sk}, {dkv_sym}]",
        )
    )
    steps.append(
        Step(
            name="project_v",
            title="Value projection",
            formula="V = X W_V",
            explanation="the content each token hands over",
            inputs=(src_kv, "W_V"),
            output=out(v),
            shape=f"[{b}{sk}, {dvv_sym}]",
        )
    )
    if wo is not None:
        inputs["W_O"] = wo

    if multi:
        # contiguous per-head blocks, so the batched matmuls below go straight to BLAS
        qh = np.ascontiguousarray(q.reshape(batch, s_q, h, d_k).transpose(0, 2, 1, 3))
        kh = np.ascontiguousarray(k.reshape(batch, s_k, g, d_k).transpose(0, 2, 1, 3))
        vh = np.ascontiguousarray(v.reshape(batch, s_k, g, d_v).transpose(0, 2, 1, 3))
        gg = "G" if g < h else "h"
        steps.append(
            Step(
                name="split_heads",
                title="Split Q into heads",
                formula=r"Q_i = Q[:, i d_k:(i+1) d_k]",
                explanation=f"h = {h} query heads of d_k = {d_k} columns each",
                inputs=("project_q",),
                output=out(qh),
                shape=f"[{b}h, {sq}, d_k]",
            )
        )
        steps.append(
            Step(
                name="split_k",
                title="Split K into heads",
                formula=r"K_j = K[:, j d_k:(j+1) d_k]",
                explanation=f"{g} key head(s) of d_k = {d_k}",
                inputs=("project_k",),
                output=out(kh),
                shape=f"[{b}{gg}, {sk}, d_k]",
            )
        )
        steps.append(
            Step(
                name="split_v",
                title="Split V into heads",
                formula=r"V_j = V[:, j d_v:(j+1) d_v]",
                explanation=f"{g} value head(s) of d_v = {d_v}",
                inputs=("project_v",),
                output=out(vh),
                shape=f"[{b}{gg}, {sk}, d_v]",
            )
        )
        if g < h:
            group = h // g
            kind = (
                "MQA: every query head shares the one KV head"
                if g == 1
                else (f"GQA: query heads {group} at a time share one KV head")
            )
            kh = np.repeat(kh, group, axis=1)
            vh = np.repeat(vh, group, axis=1)
            steps.append(
                Step(
                    name="repeat_k",
                    title="Share K across query heads",
                    formula=r"K'_i = K_{\lfloor i / (h/G) \rfloor}",
                    explanation=kind,
                    inputs=("split_k",),
                    output=out(kh),
                    shape=f"[{b}h, {sk}, d_k]",
                    note=f"the KV cache stores only {g} of {h} heads ({g / h:.3g} of the MHA size)",
                )
            )
            steps.append(
                Step(
                    name="repeat_v",
                    title="Share V across query heads",
                    formula=r"V'_i = V_{\lfloor i / (h/G) \rfloor}",
                    explanation=kind,
                    inputs=("split_v",),
                    output=out(vh),
                    shape=f"[{b}h, {sk}, d_v]",
                )
            )
        q_in, k_in = "split_heads", ("repeat_k" if g < h else "split_k")
        v_in = "repeat_v" if g < h else "split_v"
    else:
        qh, kh, vh = q, k, v
        q_in, k_in, v_in = "project_q", "project_k", "project_v"

    keep = _pad_mask(pad, batch, s_k, dims.batched) if pad is not None else None
    add = None
    if causal or keep is not None:
        allowed = np.ones((batch, s_q, s_k), dtype=bool)
        if keep is not None:
            allowed &= keep[:, None, :]
        if causal:
            allowed &= ops.causal_allowed(s_q, s_k)[None]
        add = ops.additive_mask(allowed)
    scores, scaled, logits, weights, context = _attend(qh, kh, vh, add, d_k, h if multi else 1, big)
    steps.append(
        Step(
            name="scores",
            title="Match scores",
            formula=r"S = Q K^\top",
            explanation="S_ij = q_i · k_j: how well query i matches key j",
            inputs=(q_in, k_in),
            output=out(scores),
            shape=f"[{b}{hh}{sq}, {sk}]",
        )
    )
    steps.append(
        Step(
            name="scale",
            title="Scale by √d_k",
            formula=r"\frac{Q K^\top}{\sqrt{d_k}}",
            explanation=f"divide by √d_k = √{d_k} ≈ {math.sqrt(d_k):.3f} so the variance stays near 1",
            inputs=("scores",),
            output=out(scaled),
            shape=f"[{b}{hh}{sq}, {sk}]",
        )
    )

    logits_name = "scale"
    if add is not None:
        parts = []
        if keep is not None:
            steps.append(
                Step(
                    name="pad_mask",
                    title="Padding mask (keys)",
                    formula=r"m_j \in \{0, 1\}",
                    explanation="1 = real token, 0 = PAD; one row per sequence, broadcast over queries",
                    inputs=("pad",),
                    output=out(keep.astype(np.float64)),
                    shape=f"[{b}{sk}]",
                )
            )
            inputs["pad"] = keep.astype(np.float64) if dims.batched else keep[0].astype(np.float64)
            parts.append("padding")
        if causal:
            parts.append("causal")
        formula = {
            ("padding",): r"M_{ij} = 0 \text{ if } m_j = 1 \text{ else } -\infty",
            ("causal",): r"M_{ij} = 0 \text{ if } j \le i \text{ else } -\infty",
            ("padding", "causal"): r"M_{ij} = 0 \text{ if } j \le i \wedge m_j = 1 \text{ else } -\infty",
        }[tuple(parts)]
        expl = {
            ("padding",): "PAD keys get -inf so softmax gives them weight 0",
            ("causal",): "future keys (j > i) get -inf so no token sees ahead",
            ("padding", "causal"): "future keys and PAD keys both get -inf",
        }[tuple(parts)]
        steps.append(
            Step(
                name="mask",
                title="Additive mask",
                formula=formula,
                explanation=expl,
                inputs=("pad_mask",) if pad is not None else (),
                output=out(add),
                shape=f"[{b}{sq}, {sk}]",
                note="the same mask is broadcast over all heads" if multi else None,
            )
        )
        logits_name = "masked"
        steps.append(
            Step(
                name="masked",
                title="Masked scores",
                formula=r"\frac{Q K^\top}{\sqrt{d_k}} + M",
                explanation="added before softmax: masked entries are -inf",
                inputs=("scale", "mask"),
                output=out(logits),
                shape=f"[{b}{hh}{sq}, {sk}]",
            )
        )

    note = None
    if logits_name == "masked":
        dead = np.argwhere(~allowed.any(axis=-1))  # (sequence, query) pairs with no visible key
        if len(dead):
            where = ", ".join(
                f"query {int(q_i)}" + (f" of sequence {int(b_i)}" if dims.batched else "")
                for b_i, q_i in dead[:6]
            ) + (" …" if len(dead) > 6 else "")
            note = (
                f"fully masked row ({where}): every key is masked, so softmax would be 0/0 = NaN; "
                "drill returns zeros there, as PyTorch's scaled_dot_product_attention does, so the row's output is 0"
            )
    steps.append(
        Step(
            name="softmax",
            title="Row-wise softmax",
            formula=r"A_{ij} = \frac{e^{s_{ij} - m_i}}{\sum_{j'} e^{s_{ij'} - m_i}}",
            explanation="each query's weights over the keys: non-negative, summing to 1 (m_i = row max, for stability)",
            inputs=(logits_name,),
            output=out(weights),
            shape=f"[{b}{hh}{sq}, {sk}]",
            note=note,
        )
    )
    steps.append(
        Step(
            name="weighted_sum",
            title="Weighted sum of values",
            formula=r"O = A V",
            explanation="each output row is a convex combination of the value rows",
            inputs=("softmax", v_in),
            output=out(context),
            shape=f"[{b}{hh}{sq}, d_v]",
        )
    )
    result = context
    if multi:
        result = context.transpose(0, 2, 1, 3).reshape(batch, s_q, h * d_v)
        steps.append(
            Step(
                name="concat_heads",
                title="Concatenate heads",
                formula=r"\mathrm{Concat}(\mathrm{head}_1, \ldots, \mathrm{head}_h)",
                explanation=f"{h} heads of d_v = {d_v} side by side",
                inputs=("weighted_sum",),
                output=out(result),
                shape=f"[{b}{sq}, h·d_v]",
            )
        )
    if wo is not None:
        (result,) = _project([(result, wo)], big)
        steps.append(
            Step(
                name="output_proj",
                title="Output projection",
                formula=r"\mathrm{Concat}(\ldots) W_O" if multi else "O W_O",
                explanation="W_O mixes what the heads found",
                inputs=("concat_heads" if multi else "weighted_sum", "W_O"),
                output=out(result),
                shape=f"[{b}{sq}, d_model]",
            )
        )
    return Trace(title=title, steps=tuple(steps), inputs=inputs)


def _project(pairs, parallel_ok: bool) -> list[np.ndarray]:
    """x @ w for each (x [B, S, d_in], w [d_in, d_out]), split into row blocks when the problem is big."""
    outs = [np.empty(x.shape[:-1] + (w.shape[1],)) for x, w in pairs]
    if not parallel_ok:
        for (x, w), o in zip(pairs, outs, strict=True):
            np.matmul(x, w, out=o)
        return outs
    tasks = []
    for (x, w), o in zip(pairs, outs, strict=True):
        for bi in range(x.shape[0]):
            for rows in parallel.row_blocks(x.shape[1], parallel.workers()):
                tasks.append(
                    lambda x=x, w=w, o=o, bi=bi, rows=rows: np.matmul(x[bi, rows], w, out=o[bi, rows])
                )
    parallel.run_blocks(tasks, True)
    return outs


def _attend(qh, kh, vh, add, d_k: int, heads_per_mask: int, parallel_ok: bool):
    """scores, scaled scores, masked logits, softmax weights and A·V, block by block.

    qh [..., S_q, d_k], kh [..., S_k, d_k], vh [..., S_k, d_v] with the same leading axes ([B] or [B, h]);
    ``add`` is the additive mask [B, S_q, S_k] (shared by the heads of a sequence) or None.
    """
    lead = qh.shape[:-2]
    s_q, s_k, d_v = qh.shape[-2], kh.shape[-2], vh.shape[-1]
    q3, k3, v3 = (a.reshape((-1,) + a.shape[-2:]) for a in (qh, kh, vh))
    n = q3.shape[0]
    scores = np.empty((n, s_q, s_k))
    scaled = np.empty_like(scores)
    logits = scaled if add is None else np.empty_like(scores)
    weights = np.empty_like(scores)
    context = np.empty((n, s_q, d_v))
    root = math.sqrt(d_k)

    def block(i: int, rows: slice) -> None:
        np.matmul(q3[i, rows], k3[i].T, out=scores[i, rows])
        np.divide(scores[i, rows], root, out=scaled[i, rows])
        if add is not None:
            np.add(scaled[i, rows], add[i // heads_per_mask, rows], out=logits[i, rows])
        ops.softmax_into(logits[i, rows], weights[i, rows])
        np.matmul(weights[i, rows], v3[i], out=context[i, rows])

    parts = parallel.workers() if parallel_ok else 1
    per_item = max(1, parts // n) if n < parts else 1
    tasks = [
        (lambda i=i, rows=rows: block(i, rows))
        for i in range(n)
        for rows in parallel.row_blocks(s_q, per_item)
    ]
    parallel.run_blocks(tasks, parallel_ok)
    shape = lead + (s_q, s_k)
    return (
        scores.reshape(shape),
        scaled.reshape(shape),
        logits.reshape(shape),
        weights.reshape(shape),
        context.reshape(lead + (s_q, d_v)),
    )


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
        kind = (
            "Self-attention"
            if heads == 1
            else f"Multi-head attention (h = {heads}"
            + (
                f", {kv_heads} KV head{'s' if kv_heads != 1 else ''})"
                if kv_heads not in (None, heads)
                else ")"
            )
        )
        title = kind + (", causal" if causal else "") + (", padding mask" if pad is not None else "")
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
    title: str = "Cross-attention",
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
