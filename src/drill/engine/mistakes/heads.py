"""Named mistakes of multi-head, grouped-query (7.14) and cross-attention (7.18): the `drill code` tasks' wrong variants (see drill.engine.mistakes)."""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops
from drill.engine.mistakes.common import (
    HEADS_NO_TRANSPOSE,
    PAD_KEYS,
    as_float,
    attend,
)
from drill.engine.mistakes.registry import mistake
from drill.i18n import N_

# ---------------------------------------------------------------- 5-6. multi-head and grouped-query attention (7.14)


def _heads(x, h):
    """[..., S, h*d] -> [..., h, S, d] (split the last axis, then move heads before the sequence)."""
    return np.swapaxes(x.reshape(x.shape[:-1] + (h, x.shape[-1] // h)), -2, -3)


def _merge(x):
    """[..., h, S, d] -> [..., S, h*d]."""
    x = np.swapaxes(x, -2, -3)
    return x.reshape(x.shape[:-2] + (-1,))


def _heads_no_transpose(x, h):
    """The bug: reshape [..., S, h*d] straight to [..., h, S, d], which mixes tokens and heads."""
    return x.reshape(x.shape[:-2] + (h, x.shape[-2], x.shape[-1] // h))


def _mha(
    X,
    W_Q,
    W_K,
    W_V,
    W_O,
    h,
    g=None,
    mask=None,
    *,
    split=_heads,
    merge=_merge,
    proj=True,
    scale=None,
    repeat="repeat",
):
    X = as_float(X)
    g = h if g is None else g
    d_model = W_Q.shape[1]
    if d_model % h or h % g:
        raise ValueError("heads do not divide")
    q, k, v = split(X @ W_Q, h), split(X @ W_K, g), split(X @ W_V, g)
    if g < h:
        k, v = (
            np.repeat(a, h // g, axis=-3) if repeat == "repeat" else np.tile(a, (h // g, 1, 1))
            for a in (k, v)
        )
    m = None if mask is None else np.asarray(mask, dtype=bool)[..., None, :, :]
    out, _ = attend(q, k, v, m, scale=scale)
    out = merge(out)
    return out @ W_O if proj else out


def _mha_merge_no_transpose(x):
    return x.reshape(x.shape[:-3] + (x.shape[-2], -1))


@mistake(
    "multi_head_attention",
    "heads-no-transpose",
    "7.14",
    "split_heads",
    HEADS_NO_TRANSPOSE,
    verbatim=False,
)
def _mha_no_transpose(X, W_Q, W_K, W_V, W_O, h, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, mask=mask, split=_heads_no_transpose, merge=_mha_merge_no_transpose)


@mistake(
    "multi_head_attention",
    "no-output-projection",
    "7.14",
    "output_proj",
    "**必须拼接后再过 $W_O$**：$W_O$ 负责融合各头信息，不能省。",
)
def _mha_no_wo(X, W_Q, W_K, W_V, W_O, h, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, mask=mask, proj=False)


@mistake(
    "multi_head_attention",
    "scale-by-d-model",
    "7.14",
    "scale",
    N_(
        "Each head has dimension $d_k = d_{model}/h$: the scaling divides by $\\sqrt{d_k}$, not $\\sqrt{d_{model}}$."
    ),
    verbatim=False,
)
def _mha_scale_dmodel(X, W_Q, W_K, W_V, W_O, h, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, mask=mask, scale=lambda d: math.sqrt(d * h))


@mistake(
    "grouped_query_attention",
    "kv-heads-tiled",
    "7.14",
    "repeat_k",
    N_(
        "GQA shares by group: h/g adjacent query heads share one group of K/V (repeat_interleave); tile would pair query head i with group i mod g."
    ),
    verbatim=False,
)
def _gqa_tiled(X, W_Q, W_K, W_V, W_O, h, g, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, g, mask, repeat="tile")


@mistake(
    "grouped_query_attention",
    "heads-no-transpose",
    "7.14",
    "split_heads",
    HEADS_NO_TRANSPOSE,
    verbatim=False,
)
def _gqa_no_transpose(X, W_Q, W_K, W_V, W_O, h, g, mask=None):
    return _mha(X, W_Q, W_K, W_V, W_O, h, g, mask, split=_heads_no_transpose, merge=_mha_merge_no_transpose)


# ---------------------------------------------------------------- 7. cross-attention (7.18)


def _cross(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None, *, swap=False, causal=False, on_queries=False):
    q_src, kv_src = (X_enc, X_dec) if swap else (X_dec, X_enc)
    Q, K, V = as_float(q_src) @ W_Q, as_float(kv_src) @ W_K, as_float(kv_src) @ W_V
    mask = None
    if enc_mask is not None:
        m = np.asarray(enc_mask, dtype=bool)
        mask = m[..., :, None] if on_queries else m[..., None, :]
    if causal:
        c = ops.causal_allowed(Q.shape[-2], K.shape[-2])
        mask = c if mask is None else mask & c
    return attend(Q, K, V, mask)


@mistake(
    "cross_attention",
    "q-from-encoder",
    "7.18",
    "project_q",
    "**Q 来自 Decoder，K/V 来自 Encoder**——记反是最常见的错误。",
)
def _cross_swapped(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    return _cross(X_dec, X_enc, W_Q, W_K, W_V, enc_mask, swap=True)


@mistake(
    "cross_attention",
    "causal-mask",
    "7.18",
    "mask",
    "**Cross-Attention 不需要 causal mask**：Encoder 是双向可见的，遮的是「输入」而不是「未来」。",
)
def _cross_causal(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    return _cross(X_dec, X_enc, W_Q, W_K, W_V, enc_mask, causal=True)


@mistake(
    "cross_attention",
    "mask-on-queries",
    "7.16",
    "mask",
    PAD_KEYS,
)
def _cross_mask_queries(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    return _cross(X_dec, X_enc, W_Q, W_K, W_V, enc_mask, on_queries=True)
