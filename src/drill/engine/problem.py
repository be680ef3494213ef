"""One attention problem: the validated inputs and what their shapes imply.

Every matrix finite and non-empty, the shapes consistent with the heads, the padding mask 0/1 of the right
length; each refusal is an InputError naming the matrix and its shape. `make_problem` returns a `Problem`: the
inputs with a batch axis added when X has none, the dims, and the symbols the steps' shapes are written in."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from drill.engine import parallel
from drill.engine.parse import shape_str
from drill.errors import InputError
from drill.i18n import _


def matrix(value, name: str) -> np.ndarray:
    """``value`` as a float64 array, copied (later changes to the caller's array cannot reach the trace)."""
    try:
        arr = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(_("{name}: not a numeric matrix").format(name=name)) from None
    if arr.size == 0:
        raise InputError(_("{name} is empty ({shape})").format(name=name, shape=shape_str(arr)))
    if not np.isfinite(arr).all():
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
        where = ", ".join(str(i + 1) for i in bad)  # named from 1, as the chapter counts rows and columns
        raise InputError(
            _(
                "{name} {shape} holds {value} at element ({where}), counted from 1; values must be finite"
            ).format(name=name, shape=shape_str(arr), value=arr[bad], where=where)
        )
    return arr


@dataclass(frozen=True)
class Dims:
    """What the shapes say: h query heads, G KV heads, d_k and d_v per head; X with or without a batch axis."""

    batched: bool
    heads: int
    kv_heads: int
    d_k: int
    d_v: int


def check_dims(x, x_kv, wq, wk, wv, wo, heads, kv_heads, x_name, kv_name) -> Dims:
    """The heads and per-head widths the matrices imply, or an InputError naming the shapes that disagree."""
    if x.ndim not in (2, 3):
        raise InputError(
            _("{name} must be [S, d_model] or [B, S, d_model], got {shape}").format(
                name=x_name, shape=shape_str(x)
            )
        )
    if x_kv.ndim != x.ndim or (x.ndim == 3 and x_kv.shape[0] != x.shape[0]):
        raise InputError(
            _("{kv_name} {kv_shape} and {x_name} {x_shape} need the same batch layout").format(
                kv_name=kv_name, kv_shape=shape_str(x_kv), x_name=x_name, x_shape=shape_str(x)
            )
        )
    for w, name in ((wq, "W_Q"), (wk, "W_K"), (wv, "W_V")):
        if w.ndim != 2:
            raise InputError(
                _("{name} must be a matrix [d_model, d], got {shape}").format(name=name, shape=shape_str(w))
            )
    d_model = x.shape[-1]
    if wq.shape[0] != d_model:
        raise InputError(
            _(
                "{x_name} is {x_shape} (d_model = {d_model}) but W_Q is {wq_shape}: "
                "W_Q's height must equal {x_name}'s width ({d_model})"
            ).format(x_name=x_name, x_shape=shape_str(x), d_model=d_model, wq_shape=shape_str(wq))
        )
    for w, name in ((wk, "W_K"), (wv, "W_V")):
        if w.shape[0] != x_kv.shape[-1]:
            raise InputError(
                _(
                    "{kv_name} is {kv_shape} (width {width}) but {name} is {shape}: "
                    "{name}'s height must equal {kv_name}'s width ({width})"
                ).format(
                    kv_name=kv_name,
                    kv_shape=shape_str(x_kv),
                    width=x_kv.shape[-1],
                    name=name,
                    shape=shape_str(w),
                )
            )
    if not isinstance(heads, int) or heads < 1:
        raise InputError(_("heads must be a positive whole number, got {value!r}").format(value=heads))
    kv_heads = heads if kv_heads is None else kv_heads
    if not isinstance(kv_heads, int) or kv_heads < 1:
        raise InputError(_("kv heads must be a positive whole number, got {value!r}").format(value=kv_heads))
    if heads % kv_heads:
        raise InputError(
            _("kv heads G = {g} must divide the query heads h = {h} (each KV head serves h/G)").format(
                g=kv_heads, h=heads
            )
        )
    if wq.shape[1] % heads:
        raise InputError(
            _("W_Q is {shape}: its width {width} (= h · d_k) is not divisible by heads h = {h}").format(
                shape=shape_str(wq), width=wq.shape[1], h=heads
            )
        )
    d_k = wq.shape[1] // heads
    if wk.shape[1] != kv_heads * d_k:
        raise InputError(
            _(
                "W_K is {wk_shape} but W_Q is {wq_shape}: with h = {h} query heads of d_k = {d_k} "
                "and G = {g} KV heads, W_K must be [{rows}, {cols}]"
            ).format(
                wk_shape=shape_str(wk),
                wq_shape=shape_str(wq),
                h=heads,
                d_k=d_k,
                g=kv_heads,
                rows=wk.shape[0],
                cols=kv_heads * d_k,
            )
        )
    if wv.shape[1] % kv_heads:
        raise InputError(
            _("W_V is {shape}: its width {width} (= G · d_v) is not divisible by G = {g} KV heads").format(
                shape=shape_str(wv), width=wv.shape[1], g=kv_heads
            )
        )
    d_v = wv.shape[1] // kv_heads
    if wo is not None:
        if wo.ndim != 2 or wo.shape[0] != heads * d_v:
            raise InputError(
                _(
                    "W_O is {shape} but the concatenated heads are h · d_v = {h} · {d_v} = {width} wide: "
                    "W_O must be [{width}, d_out]"
                ).format(shape=shape_str(wo), h=heads, d_v=d_v, width=heads * d_v)
            )
    return Dims(batched=x.ndim == 3, heads=heads, kv_heads=kv_heads, d_k=d_k, d_v=d_v)


def pad_mask(pad, batch: int, s_k: int, batched: bool) -> np.ndarray:
    """The key mask as bool [B, S_k] (True = real token) from a 0/1 [S_k] or [B, S_k] array."""
    arr = np.asarray(pad)
    if arr.size == 0:
        raise InputError(_("pad mask is empty"))
    try:
        keep = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError(_("pad mask must hold 1 (keep) and 0 (padding)")) from None
    if not np.isin(keep, (0.0, 1.0)).all():
        raise InputError(
            _("pad mask {shape} must hold only 1 (keep) and 0 (padding)").format(shape=shape_str(arr))
        )
    keep = keep.astype(bool)
    if keep.ndim == 1:
        keep = keep[None, :]
    if keep.ndim != 2 or keep.shape[1] != s_k:
        raise InputError(
            _(
                "pad mask is {shape} but the sequence has {s} key tokens: it must be [S] or [B, S] with S = {s}"
            ).format(shape=shape_str(arr), s=s_k)
        )
    if not batched and keep.shape[0] != 1:
        raise InputError(
            _("pad mask is {shape} but X has no batch axis: give one row of {s} values").format(
                shape=shape_str(arr), s=s_k
            )
        )
    if keep.shape[0] not in (1, batch):
        raise InputError(
            _("pad mask is {shape} but the batch has B = {b} sequences").format(shape=shape_str(arr), b=batch)
        )
    return np.broadcast_to(keep, (batch, s_k))


@dataclass(frozen=True)
class Problem:
    """The validated inputs of one trace, with a batch axis added when X has none, and the symbols of its shapes."""

    x: np.ndarray  # as given: [S, d_model] or [B, S, d_model]
    x_kv: np.ndarray  # keys/values come from here (X itself, or the encoder output for cross-attention)
    x3: np.ndarray  # [B, S_q, d_model]
    xkv3: np.ndarray  # [B, S_k, d_model]
    wq: np.ndarray
    wk: np.ndarray
    wv: np.ndarray
    wo: np.ndarray | None
    dims: Dims
    cross: bool
    batch: int
    s_q: int
    s_k: int
    multi: bool  # more than one query head
    big: bool  # worth splitting into blocks on the thread pool (drill.engine.parallel)
    names: tuple[str, str]  # the query-side and key/value-side input names
    b: str  # shape symbols: "B, " when batched, "h, " when multi-head, the sequence lengths' names
    hh: str
    sq: str
    sk: str

    def out(self, arr: np.ndarray) -> np.ndarray:
        """Drop the batch axis added for an unbatched X."""
        return arr if self.dims.batched else arr[0]


def make_problem(x, x_kv, wq, wk, wv, wo, heads, kv_heads, cross: bool) -> Problem:
    x_name, kv_name = ("X_dec", "X_enc") if cross else ("X", "X")
    x = matrix(x, x_name)
    x_kv = x if x_kv is None else matrix(x_kv, kv_name)
    wq, wk, wv = matrix(wq, "W_Q"), matrix(wk, "W_K"), matrix(wv, "W_V")
    wo = None if wo is None else matrix(wo, "W_O")
    dims = check_dims(x, x_kv, wq, wk, wv, wo, heads, kv_heads, x_name, kv_name)
    x3, xkv3 = (x, x_kv) if dims.batched else (x[None], x_kv[None])
    batch, s_q, s_k = x3.shape[0], x3.shape[1], xkv3.shape[1]
    return Problem(
        x=x,
        x_kv=x_kv,
        x3=x3,
        xkv3=xkv3,
        wq=wq,
        wk=wk,
        wv=wv,
        wo=wo,
        dims=dims,
        cross=cross,
        batch=batch,
        s_q=s_q,
        s_k=s_k,
        multi=dims.heads > 1,
        big=parallel.worth_it(batch * dims.heads * s_q * s_k),
        names=(x_name, kv_name),
        b="B, " if dims.batched else "",
        hh="h, " if dims.heads > 1 else "",
        sq="S_dec" if cross else "S",
        sk="S_enc" if cross else "S",
    )
