"""The trace `drill calc`'s options ask for (shared with the calc screen): a named example, typed matrices, or
random inputs of a given size; InputError naming the option and the shapes for anything inconsistent.

Every step's matrix is kept, so the sizes are capped (`MAX_ENTRIES`): a typo like --tokens 100000 is a
message, not the machine swapping until the kernel kills drill.
"""

from __future__ import annotations

import numpy as np

from drill.engine.attention import attention_trace
from drill.engine.examples import build_example
from drill.engine.heads import identity_wo
from drill.engine.parse import parse_mask, parse_matrix
from drill.engine.trace import Trace
from drill.errors import InputError
from drill.i18n import _


def build_trace(
    *,
    example=None,
    x=None,
    wq=None,
    wk=None,
    wv=None,
    wo=None,
    causal=False,
    pad=None,
    heads=None,
    kv_heads=None,
    seed=None,
    tokens=None,
    d_model=None,
) -> Trace:
    """The trace the options ask for; InputError (naming shapes) for anything inconsistent."""
    custom = any(v is not None for v in (x, wq, wk, wv, wo, pad, heads, kv_heads)) or causal
    random = any(v is not None for v in (seed, tokens, d_model))
    if example is not None:
        if custom or random:
            raise InputError(
                _("--example cannot be combined with custom inputs (--x, --wq, …, --seed); choose one")
            )
        return build_example(example)
    if not custom and not random:
        return build_example("worked")
    if random and any(v is not None for v in (x, wq, wk, wv, wo)):
        raise InputError(
            _("--seed/--tokens/--d-model make random inputs; they cannot be combined with --x/--wq/…")
        )
    h = 1 if heads is None else heads
    if h < 1:
        raise InputError(_("--heads must be at least 1, got {value}").format(value=h))
    g = h if kv_heads is None else kv_heads
    if g < 1:
        raise InputError(_("--kv-heads must be at least 1, got {value}").format(value=g))
    if h % g:
        raise InputError(
            _("--kv-heads G = {g} must divide --heads h = {h} (each KV head serves h/G query heads)").format(
                g=g, h=h
            )
        )
    if random:
        xs, wqs, wks, wvs, wos = _random_inputs(seed, tokens, d_model, h, g)
    else:
        xs, wqs, wks, wvs, wos = _typed_inputs(x, wq, wk, wv, wo, h, g)
    check_size(xs.shape[0], xs.shape[1], h)
    mask = None
    if pad is not None:
        mask = parse_mask(pad, xs.shape[0], "--pad")
        if mask.ndim != 1:
            raise InputError(
                _(
                    "--pad has {rows} rows but X is one sequence [{s}, {d}]: give one row of {s} values"
                ).format(rows=mask.shape[0], s=xs.shape[0], d=xs.shape[1])
            )
    return attention_trace(xs, wqs, wks, wvs, wos, heads=h, kv_heads=g, causal=causal, pad=mask)


MAX_ENTRIES = 2**18  # per step: h·S² attention weights; per matrix: max(S, d_model)·d_model values


def check_size(s: int, d: int, h: int) -> None:
    """Typed (--x) and random (--tokens/--d-model) inputs alike."""
    if h * s * s > MAX_ENTRIES:
        raise InputError(
            _(
                "S = {s} tokens with h = {h} head(s) make h·S² = {weights:,} attention weights per step; "
                "drill calc keeps every step, so at most {most:,} (e.g. 512 tokens with one head)"
            ).format(s=s, h=h, weights=h * s * s, most=MAX_ENTRIES)
        )
    if max(s, d) * d > MAX_ENTRIES:
        raise InputError(
            _(
                "d_model = {d} with S = {s} tokens is too large for drill calc: at most {most:,} values "
                "per matrix (e.g. d_model = 512)"
            ).format(d=d, s=s, most=MAX_ENTRIES)
        )


def _random_inputs(seed, tokens, d_model, h, g):
    s = 4 if tokens is None else tokens
    d = 8 if d_model is None else d_model
    if s < 1:
        raise InputError(_("--tokens must be at least 1, got {value}").format(value=s))
    if d < 1:
        raise InputError(_("--d-model must be at least 1, got {value}").format(value=d))
    check_size(s, d, h)
    if d % h:
        raise InputError(
            _("--d-model {d} is not divisible by --heads {h}: each head needs d_model / h columns").format(
                d=d, h=h
            )
        )
    d_k = d // h
    rng = np.random.default_rng(0 if seed is None else seed)
    scale = 1 / np.sqrt(d)
    x = np.round(rng.standard_normal((s, d)), 2)
    wq = np.round(rng.standard_normal((d, d)) * scale, 2)
    wk = np.round(rng.standard_normal((d, g * d_k)) * scale, 2)
    wv = np.round(rng.standard_normal((d, g * d_k)) * scale, 2)
    wo = np.round(rng.standard_normal((h * d_k, d)) * scale, 2) if h > 1 else None
    return x, wq, wk, wv, wo


def _typed_inputs(x, wq, wk, wv, wo, h, g):
    if x is None:
        raise InputError(_("custom inputs need --x (the input matrix X [S, d_model])"))
    xs = parse_matrix(x, "X (--x)")
    d = xs.shape[1]
    if h > 1 and d % h and wq is None:
        raise InputError(
            _("X is [{s}, {d}]: d_model = {d} is not divisible by --heads {h}").format(
                s=xs.shape[0], d=d, h=h
            )
        )

    def weight(text, name, default_cols):
        if text is not None:
            return parse_matrix(text, name)
        if h != g and name in ("W_K (--wk)", "W_V (--wv)"):
            raise InputError(
                _("with --kv-heads {g} < --heads {h}, give {name} explicitly ([d_model, G·d_k])").format(
                    g=g, h=h, name=name
                )
            )
        return np.eye(d, default_cols)

    wqs = weight(wq, "W_Q (--wq)", d)
    wks = weight(wk, "W_K (--wk)", d)
    wvs = weight(wv, "W_V (--wv)", d)
    wos = None if wo is None else parse_matrix(wo, "W_O (--wo)")
    if wos is None and h > 1 and wvs.shape[1] % g == 0:  # multi-head ends with W_O: the identity stands in
        wos = identity_wo(wvs.shape[1], h, g, d)
    return xs, wqs, wks, wvs, wos
