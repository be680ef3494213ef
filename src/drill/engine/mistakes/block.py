"""Named mistakes of LayerNorm (7.20) and the FFN (7.21): the `drill code` tasks' wrong variants (see drill.engine.mistakes)."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.mistakes.common import (
    as_float,
)
from drill.engine.mistakes.registry import mistake
from drill.i18n import N_

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
    N_(
        "LayerNorm's $\\sigma^2$ is the biased variance (divided by d, PyTorch's `unbiased=False`), not the unbiased one divided by d−1."
    ),
    verbatim=False,
)
def _ln_unbiased(x, gamma, beta, eps=1e-5):
    return _ln(x, gamma, beta, eps, ddof=1)


@mistake(
    "layer_norm",
    "eps-outside-sqrt",
    "7.20",
    "normalize",
    N_(
        "$\\epsilon$ goes inside the square root: $\\sqrt{\\sigma^2 + \\epsilon}$, not $\\sqrt{\\sigma^2} + \\epsilon$."
    ),
    verbatim=False,
)
def _ln_eps_outside(x, gamma, beta, eps=1e-5):
    return _ln(x, gamma, beta, eps, eps_outside=True)


@mistake("layer_norm", "wrong-axis", "7.20", "mean", "**不跨 token、不跨 batch**", pitfall=False)
def _ln_axis(x, gamma, beta, eps=1e-5):
    return _ln(x, gamma, beta, eps, axis=-2 if np.ndim(x) >= 2 else -1)


# ---------------------------------------------------------------- 9. FFN (7.21)


@mistake(
    "ffn",
    "gelu-tanh",
    "7.21",
    "activation",
    N_(
        'GELU is $x\\Phi(x)$ (with erf); the tanh formula is only an approximation of it (PyTorch\'s `approximate="tanh"`).'
    ),
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
    pitfall=False,
)
def _ffn_act_out(x, W_1, b_1, W_2, b_2, activation="relu"):
    act = ops.gelu if activation == "gelu" else ops.relu
    return act(act(as_float(x) @ W_1 + b_1) @ W_2 + b_2)
