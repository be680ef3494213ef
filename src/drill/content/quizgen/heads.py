"""Templates for 7.14 – 7.18: heads, the KV cache of GQA, the padding and causal masks, cross-attention."""

from __future__ import annotations

from drill.content.quizgen.base import (
    CONCEPT,
    FORMULA,
    SHAPE,
    Draft,
    _wrong,
    count,
    keys,
    mib,
    shape,
    template,
)
from drill.i18n import _


@template("head-dim", "7.14", count, SHAPE)
def _head_dim(rng):
    from drill.engine.sizes import head_dim

    h = rng.choice((4, 8, 12, 16))
    d = h * rng.choice((16, 32, 64))
    return Draft(
        _("Multi-Head Attention: d_model = {d_model}, h = {heads} heads. What is each head's d_k?").format(
            d_model=d, heads=h
        ),
        head_dim(d, h),
        _wrong(["head_dim/full-width", "head_dim/times-heads", "head_dim/half"], d, h),
        _(
            "Each head works in d_model/h = {d_model}/{heads} = {d_k} dimensions; concatenated back to "
            "{d_model}."
        ).format(d_model=d, heads=h, d_k=d // h),
        {"d_model": d, "h": h},
    )


@template("kv-cache-gqa", "7.15", mib, FORMULA)
def _kv_gqa(rng):
    from drill.engine.sizes import kv_cache_bytes

    h = rng.choice((16, 32, 64))
    g = rng.choice([c for c in (2, 4, 8) if c < h])
    layers, d_head, tokens = rng.choice((12, 24, 32)), rng.choice((64, 128)), rng.choice((1024, 2048, 4096))
    args = (layers, g, d_head, tokens, 2)
    return Draft(
        _(
            "GQA: {heads} query heads in {groups} groups, each group sharing one KV head; {layers} layers, head "
            "dimension {d_head}, {tokens} tokens cached, FP16 (2 bytes). How big is the KV cache?"
        ).format(heads=h, groups=g, layers=layers, d_head=d_head, tokens=tokens),
        kv_cache_bytes(*args),
        _wrong(["kv_cache/query-heads", "kv_cache/keys-only", "kv_cache/one-kv-head"], *args, heads=h),
        _(
            "2 (K and V) × {layers} layers × {groups} KV heads × {d_head} × {tokens} × 2 bytes; MHA needs "
            "{ratio} times as much."
        ).format(layers=layers, groups=g, d_head=d_head, tokens=tokens, ratio=h // g),
        {"h": h, "G": g, "layers": layers, "d_head": d_head, "tokens": tokens},
    )


def _mask_trace(s, pad=None, causal=False):
    import numpy as np

    from drill.engine.attention import attention_trace

    eye = np.eye(2)
    return np.isfinite(attention_trace(np.ones((s, 2)), eye, eye, eye, pad=pad, causal=causal)["mask"].output)


def _mask_row(value, i) -> tuple[int, ...]:
    import numpy as np

    allowed = np.asarray(value, dtype=bool)
    allowed = allowed.reshape(allowed.shape[-2:]) if allowed.ndim >= 2 else allowed[None, :]
    row = np.broadcast_to(allowed, (max(allowed.shape[0], i + 1), allowed.shape[-1]))[i]
    return tuple(j for j, ok in enumerate(row) if not ok)


@template("padding-mask", "7.16", keys, CONCEPT)
def _padding(rng):
    s = rng.randint(4, 7)
    length = rng.randint(2, s - 1)
    i = rng.randrange(length)
    right = _mask_row(_mask_trace(s, pad=[1] * length + [0] * (s - length)), i)
    wrong = [
        (mid, _mask_row(v, i))
        for mid, v in _wrong(
            ["padding_mask/masks-queries", "padding_mask/inverted", "padding_mask/off-by-one"], [length], s
        )
    ]
    return Draft(
        _(
            "The sentence has {length} tokens, padded with PAD to S = {size}. The padding mask is applied before "
            "softmax: in the row of token {row} (the query, a real token), which keys are masked (weight 0)?"
        ).format(length=length, size=s, row=i + 1),
        right,
        wrong,
        _(
            "The padding mask masks along the key dimension: positions {first_pad}–{size} are PAD, and no query "
            "may attend to them."
        ).format(first_pad=length + 1, size=s),
        {"S": s, "length": length, "i": i},
    )


@template("causal-mask", "7.17", keys, CONCEPT)
def _causal(rng):
    s = rng.randint(3, 6)
    i = rng.randrange(s)
    right = _mask_row(_mask_trace(s, causal=True), i)
    wrong = [
        (mid, _mask_row(v, i))
        for mid, v in _wrong(
            ["causal_mask/upper-triangle", "causal_mask/masked-convention", "causal_mask/no-diagonal"], s
        )
    ]
    return Draft(
        _(
            "Decoder self-attention, sequence length S = {size}, with a causal mask. In the row of position {row} "
            "(the query), which keys are masked?"
        ).format(size=s, row=i + 1),
        right,
        wrong,
        _(
            "Position {row} may only see j ≤ {row} (itself included); every key to its right (the future) is "
            "masked."
        ).format(row=i + 1),
        {"S": s, "i": i},
    )


@template("cross-shape", "7.18", shape, SHAPE)
def _cross_shape(rng):
    import numpy as np

    from drill.engine.attention import cross_attention_trace

    b, s_dec, s_enc, d_model, d_k = rng.sample(range(2, 10), 5)
    w = np.zeros((d_model, d_k))
    right = tuple(
        cross_attention_trace(np.zeros((b, s_dec, d_model)), np.zeros((b, s_enc, d_model)), w, w, w)[
            "scores"
        ].output.shape
    )
    return Draft(
        _(
            "Cross-Attention: batch = {batch}, Decoder length {s_dec}, Encoder length {s_enc}, d_model = "
            "{d_model}, d_k = {d_k}. What is the shape of the score matrix QKᵀ?"
        ).format(batch=b, s_dec=s_dec, s_enc=s_enc, d_model=d_model, d_k=d_k),
        right,
        _wrong(
            ["cross_shape/decoder-keys", "cross_shape/encoder-self", "cross_shape/q-from-encoder"],
            b,
            s_dec,
            s_enc,
            d_model,
            d_k,
        ),
        _(
            "Q comes from the Decoder [{batch}, {s_dec}, {d_k}], K from the Encoder [{batch}, {s_enc}, {d_k}]: "
            "QKᵀ = {shape}."
        ).format(batch=b, s_dec=s_dec, s_enc=s_enc, d_k=d_k, shape=shape(right)),
        {"B": b, "S_dec": s_dec, "S_enc": s_enc, "d_model": d_model, "d_k": d_k},
    )
