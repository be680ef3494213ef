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


@template("head-dim", "7.14", count, SHAPE)
def _head_dim(rng):
    from drill.engine.sizes import head_dim

    h = rng.choice((4, 8, 12, 16))
    d = h * rng.choice((16, 32, 64))
    return Draft(
        f"Multi-Head Attention：d_model = {d}，h = {h} 个 head。每个 head 的 d_k 是多少？",
        head_dim(d, h),
        _wrong(["head_dim/full-width", "head_dim/times-heads", "head_dim/half"], d, h),
        f"每个 head 降维到 d_model/h = {d}/{h} = {d // h}，拼接回 {d} 维。",
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
        f"GQA：{h} 个 query head 分成 {g} 组，每组共享一个 KV head；{layers} 层，每个 head 维度 {d_head}，"
        f"缓存 {tokens} 个 token，FP16（2 字节）。KV cache 有多大？",
        kv_cache_bytes(*args),
        _wrong(["kv_cache/query-heads", "kv_cache/keys-only", "kv_cache/one-kv-head"], *args, heads=h),
        f"2（K 和 V）× {layers} 层 × {g} 个 KV head × {d_head} × {tokens} × 2 字节；MHA 要 {h // g} 倍。",
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
        f"一句话长 {length} 个 token，补 PAD 到 S = {s}。padding mask 加在 softmax 之前：第 {i + 1} 个 token（query，"
        "真实 token）的那一行，哪些 key 被遮住（权重为 0）？",
        right,
        wrong,
        f"padding mask 遮的是 key 维度：位置 {length + 1}–{s} 是 PAD，每个 query 都不能关注它们。",
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
        f"Decoder 自注意力，序列长度 S = {s}，加 causal mask。第 {i + 1} 个位置（query）的那一行，哪些 key 被遮住？",
        right,
        wrong,
        f"位置 {i + 1} 只能看 j ≤ {i + 1}（包括自己），右边（未来）的 key 都被遮住。",
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
        f"Cross-Attention：batch = {b}，Decoder 长度 {s_dec}，Encoder 长度 {s_enc}，d_model = {d_model}，"
        f"d_k = {d_k}。分数矩阵 QKᵀ 的形状是？",
        right,
        _wrong(
            ["cross_shape/decoder-keys", "cross_shape/encoder-self", "cross_shape/q-from-encoder"],
            b,
            s_dec,
            s_enc,
            d_model,
            d_k,
        ),
        f"Q 来自 Decoder [{b}, {s_dec}, {d_k}]，K 来自 Encoder [{b}, {s_enc}, {d_k}]：QKᵀ = {shape(right)}。",
        {"B": b, "S_dec": s_dec, "S_enc": s_enc, "d_model": d_model, "d_k": d_k},
    )
