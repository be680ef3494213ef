"""PyTorch's own result for a hidden test, shown beside the learner's and the engine's (when torch is installed).

Every task has one: `reference(task, case)` computes the case in float64 and returns the outputs in the task's
order (None for an output PyTorch does not give, e.g. SDPA's weights). Where PyTorch has a building block
(softmax, scaled dot-product attention — with ``enable_gqa`` for GQA/MQA —, LayerNorm, GELU/ReLU,
nn.MultiheadAttention, LambdaLR) it is that block. PyTorch has no positional encoding: the sinusoidal one is the
chapter's formula recomputed in torch (``10000 ** (2i/d)`` as written, even columns sin, odd cos), RoPE is the
complex-number form of LLaMA's reference ``apply_rotary_emb`` (interleaved pairs as complex numbers times
``torch.polar(1, pos·θ_i)``), a formulation independent of the engine's rotation matrices. The KV-cache step is
the last row of SDPA over the whole causal sequence (``is_causal=True``). PyTorch is imported only here, in the
worker that shows it, never on the way to a run's results.

Conventions bridged here, not in the learner's view: drill's boolean masks say True = may attend (SDPA's
convention); nn.MultiheadAttention's ``attn_mask`` says True = masked, so it gets the negation.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

import numpy as np


def available() -> bool:
    return importlib.util.find_spec("torch") is not None


def _t(a):
    import torch

    return torch.as_tensor(np.asarray(a, dtype=np.float64))


def _np(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def _softmax(x):
    import torch

    return (_np(torch.softmax(_t(x), dim=-1)),)


def _attention(Q, K, V, mask=None):
    import torch.nn.functional as F

    m = None if mask is None else _t(mask).bool()
    return (_np(F.scaled_dot_product_attention(_t(Q), _t(K), _t(V), attn_mask=m)), None)


def _causal(S):
    import torch

    return (_np(torch.ones(int(S), int(S), dtype=torch.bool).tril()),)


def _padding(lengths, S):
    import torch

    lengths = torch.as_tensor(np.asarray(lengths).reshape(-1))
    return (_np((torch.arange(int(S))[None, :] < lengths[:, None])[:, None, :]),)


def _layer_norm(x, gamma, beta, eps=1e-5):
    import torch.nn.functional as F

    x = _t(x)
    return (_np(F.layer_norm(x, (x.shape[-1],), _t(gamma), _t(beta), eps)),)


def _ffn(x, W_1, b_1, W_2, b_2, activation="relu"):
    import torch.nn.functional as F

    act = {"relu": F.relu, "gelu": F.gelu}[activation]  # F.gelu: the exact erf form by default
    return (_np(F.linear(act(F.linear(_t(x), _t(W_1).T, _t(b_1))), _t(W_2).T, _t(b_2))),)


def _mha(X, W_Q, W_K, W_V, W_O, h, mask=None):
    import torch
    from torch import nn

    X = _t(X)
    d_model = X.shape[-1]
    if d_model % h:
        raise ValueError(f"d_model = {d_model} is not a multiple of h = {h}")
    layer = nn.MultiheadAttention(d_model, h, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():  # drill's weights act on rows (X @ W); nn.Linear's on columns: transpose
        layer.in_proj_weight.copy_(torch.cat([_t(W_Q).T, _t(W_K).T, _t(W_V).T]))
        layer.out_proj.weight.copy_(_t(W_O).T)
    lead = X.shape[:-2]
    x = X.reshape(-1, *X.shape[-2:])
    attn_mask = None
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        if m.ndim != 2:  # per-batch masks: nn.MultiheadAttention wants them per head; not worth it here
            return None
        attn_mask = ~torch.as_tensor(m)  # nn.MultiheadAttention: True = masked
    out, _ = layer(x, x, x, attn_mask=attn_mask, need_weights=False)
    return (_np(out.reshape(*lead, *out.shape[-2:])),)


def _cross(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    import torch.nn.functional as F

    Q, K, V = _t(X_dec) @ _t(W_Q), _t(X_enc) @ _t(W_K), _t(X_enc) @ _t(W_V)
    m = None if enc_mask is None else _t(enc_mask).bool()[..., None, :]
    return (_np(F.scaled_dot_product_attention(Q, K, V, attn_mask=m)), None)


def _gqa(X, W_Q, W_K, W_V, W_O, h, g, mask=None):
    import torch.nn.functional as F

    X = _t(X)
    h, g = int(h), int(g)
    lead, S = X.shape[:-2], X.shape[-2]
    x = X.reshape(-1, S, X.shape[-1])  # one batch axis: SDPA's GQA wants [B, heads, S, d]
    d_model = _t(W_Q).shape[1]
    if d_model % h:
        raise ValueError(f"d_model = {d_model} is not a multiple of h = {h}")
    d_k = d_model // h

    def heads(w, n):  # [B, S, n·d_k] -> [B, n, S, d_k]
        return (x @ _t(w)).reshape(x.shape[0], S, n, d_k).transpose(1, 2)

    m = None
    if mask is not None:  # the same mask for every head: broadcast over the batch, add the head axis
        m = _t(np.broadcast_to(np.asarray(mask, dtype=bool), (*lead, S, S)).reshape(-1, 1, S, S)).bool()
    # enable_gqa: query head i uses key/value head i // (h/g) (repeat_interleave); h % g != 0 is refused
    out = F.scaled_dot_product_attention(
        heads(W_Q, h), heads(W_K, g), heads(W_V, g), attn_mask=m, enable_gqa=True
    )
    out = out.transpose(1, 2).reshape(x.shape[0], S, d_model) @ _t(W_O)
    return (_np(out.reshape(*lead, S, d_model)),)


def _sinusoidal(S, d_model):
    import torch

    S, d = int(S), int(d_model)
    if d % 2:
        raise ValueError(f"d_model = {d} is odd")
    pos = torch.arange(S, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d, 2, dtype=torch.float64)
    angle = pos / torch.pow(torch.tensor(10000.0, dtype=torch.float64), two_i / d)  # pos / 10000^(2i/d)
    pe = torch.zeros(S, d, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return (_np(pe),)


def _rope(x, positions):
    import torch

    x = _t(x)
    d = x.shape[-1]
    if d % 2:
        raise ValueError(f"d = {d} is odd")
    theta = torch.pow(
        torch.tensor(10000.0, dtype=torch.float64), -torch.arange(0, d, 2, dtype=torch.float64) / d
    )
    angles = torch.as_tensor(np.asarray(positions), dtype=torch.float64)[:, None] * theta[None, :]
    rotations = torch.polar(torch.ones_like(angles), angles)  # e^{i·pos·θ_i}, [S, d/2]
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())  # x_2i + i·x_2i+1
    return (_np(torch.view_as_real(pairs * rotations).reshape(x.shape)),)


def _kv_step(x_t, W_Q, W_K, W_V, K_cache, V_cache):
    import torch
    import torch.nn.functional as F

    x_t = _t(x_t)
    K = torch.cat([_t(K_cache), x_t @ _t(W_K)])
    V = torch.cat([_t(V_cache), x_t @ _t(W_V)])
    # The whole causal sequence's pass; only its last row is this step's. The earlier positions' queries
    # never reach the last row (the case carries the cache, not their inputs): zeros stand in for them.
    Q = torch.cat([torch.zeros(K.shape[0] - 1, K.shape[1], dtype=torch.float64), x_t @ _t(W_Q)])
    out = F.scaled_dot_product_attention(Q, K, V, is_causal=True)
    return (_np(out[-1:]), _np(K), _np(V))


def _noam(step, d_model, warmup):
    import torch

    d_model, warmup = int(d_model), int(warmup)

    def noam(s: int) -> float:
        return d_model**-0.5 * min(s**-0.5, s * warmup**-1.5)

    def lr_at(s: int) -> float:
        if s < 1:
            raise ValueError(f"step = {s}: steps count from 1")
        optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        optimizer.param_groups[0]["initial_lr"] = 1.0
        # Resumed at step s - 1, the constructor's own step() makes it step s: lr = 1.0 · noam(s)
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, noam, last_epoch=s - 1)
        return scheduler.get_last_lr()[0]

    steps = np.asarray(step)
    lrs = np.array([lr_at(int(s)) for s in steps.reshape(-1)], dtype=np.float64)
    return (lrs.reshape(steps.shape),)


# task name -> (the PyTorch call, as shown, and how to compute it)
REFERENCES: dict[str, tuple[str, Callable]] = {
    "softmax": ("torch.softmax(x, dim=-1)", _softmax),
    "attention": ("F.scaled_dot_product_attention", _attention),
    "causal_mask": ("torch.ones(S, S).tril()", _causal),
    "padding_mask": ("torch.arange(S) < lengths", _padding),
    "layer_norm": ("F.layer_norm", _layer_norm),
    "ffn": ("F.linear + F.relu / F.gelu", _ffn),
    "multi_head_attention": ("nn.MultiheadAttention", _mha),
    "cross_attention": ("F.scaled_dot_product_attention", _cross),
    "grouped_query_attention": ("F.scaled_dot_product_attention(..., enable_gqa=True)", _gqa),
    "sinusoidal_pe": ("torch.sin / torch.cos of pos / 10000^(2i/d)", _sinusoidal),
    "rope": ("torch.view_as_complex(x) * torch.polar(1, pos·θ)", _rope),
    "kv_cache_step": ("F.scaled_dot_product_attention(..., is_causal=True)[-1]", _kv_step),
    "noam_lr": ("torch.optim.lr_scheduler.LambdaLR", _noam),
}


def reference(task_name: str, case) -> tuple | None:
    """PyTorch's outputs for ``case`` (a `drill.engine.codetasks.Case`), or None when there is no PyTorch
    counterpart, torch is missing, or PyTorch refuses the inputs (a case the function must refuse)."""
    entry = REFERENCES.get(task_name)
    if entry is None or not available():
        return None
    try:
        return entry[1](*case.args, **case.kwargs)
    except (ValueError, RuntimeError):
        return None


def call(task_name: str) -> str | None:
    entry = REFERENCES.get(task_name)
    return None if entry is None else entry[0]


__all__ = ["REFERENCES", "available", "call", "reference"]
