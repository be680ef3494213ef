"""Named mistakes of LayerNorm (7.20) and the FFN (7.21): the `drill code` tasks' wrong variants (see drill.engine.mistakes)."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.mistakes.common import (
    as_float,
)
from drill.engine.mistakes.registry import mistake

# ---------------------------------------------------------------- 8. LayerNorm (7.20)


def _ln(x, gamma, beta, eps, *, ddof=0, eps_outside=False, axis=-1):
    x = as_float(x)
    mu = x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, keepdims=True, ddof=ddof)
    sd = np.sqrt(var) + eps if eps_outside else np.sqrt(var + eps)
    return gamma * (x - mu) / sd + beta


@mistake(
    "layer_norm",
    "unbiased-variance",
    "7.20",
    "variance",
    "LayerNorm 的 $\\sigma^2$ 是有偏方差（除以 d，PyTorch 的 `unbiased=False`），不是除以 d−1 的无偏方差。",
    verbatim=False,
)
def _ln_unbiased(x, gamma, beta, eps=1e-5):
    return _ln(x, gamma, beta, eps, ddof=1)


@mistake(
    "layer_norm",
    "eps-outside-sqrt",
    "7.20",
    "normalize",
    "$\\epsilon$ 在根号里面：$\\sqrt{\\sigma^2 + \\epsilon}$，不是 $\\sqrt{\\sigma^2} + \\epsilon$。",
    verbatim=False,
)
def _ln_eps_outside(x, gamma, beta, eps=1e-5):
    return _ln(x, gamma, beta, eps, eps_outside=True)


@mistake("layer_norm", "wrong-axis", "7.20", "mean", "**不跨 token、不跨 batch**")
def _ln_axis(x, gamma, beta, eps=1e-5):
    return _ln(x, gamma, beta, eps, axis=-2 if np.ndim(x) >= 2 else -1)


# ---------------------------------------------------------------- 9. FFN (7.21)


@mistake(
    "ffn",
    "gelu-tanh",
    "7.21",
    "activation",
    'GELU 是 $x\\Phi(x)$（含 erf），tanh 公式只是它的近似（PyTorch 的 `approximate="tanh"`）。',
    verbatim=False,
)
def _ffn_tanh(x, W_1, b_1, W_2, b_2, activation="relu"):
    act = ops.gelu_tanh if activation == "gelu" else ops.relu
    return act(as_float(x) @ W_1 + b_1) @ W_2 + b_2


@mistake(
    "ffn",
    "activation-after-output",
    "7.21",
    "activation",
    "FFN 是两个线性层夹一个激活：W₂σ(W₁x+b₁)+b₂",
    verbatim=True,
)
def _ffn_act_out(x, W_1, b_1, W_2, b_2, activation="relu"):
    act = ops.gelu if activation == "gelu" else ops.relu
    return act(act(as_float(x) @ W_1 + b_1) @ W_2 + b_2)
