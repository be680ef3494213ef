"""PyTorch's own result for a hidden test, shown beside the learner's and the engine's (when torch is installed).

For the tasks PyTorch has a building block for (softmax, scaled dot-product attention, LayerNorm, GELU/ReLU,
nn.MultiheadAttention...), `reference(task, case)` computes the case in float64 with that block and returns the
outputs in the task's order (None for an output PyTorch does not give, e.g. SDPA's weights). The tasks without
one (positional encodings, the KV-cache step, the Noam schedule) have no entry. PyTorch is imported only here,
in the worker that shows it, never on the way to a run's results.

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
