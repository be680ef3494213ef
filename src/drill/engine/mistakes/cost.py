"""Named mistakes of the KV-cache decoding step (7.22) and the Noam learning-rate schedule (7.23): the `drill code` tasks' wrong variants (see drill.engine.mistakes)."""

from __future__ import annotations

import numpy as np

from drill.engine.mistakes.common import (
    as_float,
    attend,
)
from drill.engine.mistakes.registry import mistake
from drill.i18n import N_

# ---------------------------------------------------------------- 11. KV cache step (7.22)


def _kv(x_t, W_Q, W_K, W_V, K_cache, V_cache, *, tril=False, append_after=False):
    x_t = as_float(x_t)
    K_new = np.vstack([as_float(K_cache), x_t @ W_K])
    V_new = np.vstack([as_float(V_cache), x_t @ W_V])
    K, V = (as_float(K_cache), as_float(V_cache)) if append_after else (K_new, V_new)
    if K.shape[0] == 0:  # attending before appending at step 1: nothing to attend to, an output of zeros
        return np.zeros((1, V.shape[1])), K_new, V_new
    mask = np.tril(np.ones((1, K.shape[0]), dtype=bool)) if tril else None
    out, _ = attend(x_t @ W_Q, K, V, mask)
    return out, K_new, V_new


@mistake(
    "kv_cache_step",
    "causal-mask-on-step",
    "7.22",
    "mask",
    N_(
        "A causal mask built for the step's single score row (np.tril of a 1 × (t+1) matrix) keeps only the first cached key: at a decoding step the one query is the newest token and attends to every cached key (j ≤ t), so the step needs no mask (a prompt's prefill, many tokens in one pass, does)."
    ),
    verbatim=False,
)
def _kv_tril(x_t, W_Q, W_K, W_V, K_cache, V_cache):
    return _kv(x_t, W_Q, W_K, W_V, K_cache, V_cache, tril=True)


@mistake(
    "kv_cache_step",
    "append-after-attend",
    "7.22",
    "attend",
    N_(
        "At step t, append the current token's k and v to the cache before attending: the token may attend to itself (j ≤ t)."
    ),
    verbatim=False,
)
def _kv_after(x_t, W_Q, W_K, W_V, K_cache, V_cache):
    return _kv(x_t, W_Q, W_K, W_V, K_cache, V_cache, append_after=True)


# ---------------------------------------------------------------- 12. Noam schedule (7.23)


@mistake(
    "noam_lr",
    "max-not-min",
    "7.23",
    "lr",
    N_(
        "The formula takes $\\min(\\text{step}^{-0.5},\\ \\text{step} \\cdot \\text{warmup\\_steps}^{-1.5})$: the rate grows linearly for the first warmup steps, then decays as step^-0.5."
    ),
    verbatim=False,
)
def _noam_max(step, d_model, warmup):
    s = as_float(step)
    return d_model**-0.5 * np.maximum(s**-0.5, s * warmup**-1.5)


@mistake(
    "noam_lr",
    "warmup-exponent",
    "7.23",
    "lr",
    N_(
        "The warmup term is $\\text{step} \\cdot \\text{warmup\\_steps}^{-1.5}$ (exponent −1.5, not −0.5); the two pieces meet at step = warmup."
    ),
    verbatim=False,
)
def _noam_exp(step, d_model, warmup):
    s = as_float(step)
    return d_model**-0.5 * np.minimum(s**-0.5, s * warmup**-0.5)


@mistake(
    "noam_lr",
    "no-d-model-factor",
    "7.23",
    "lr",
    N_("Don't drop the leading $d_{model}^{-0.5}$: the wider the model, the smaller the learning rate."),
    verbatim=False,
)
def _noam_no_d(step, d_model, warmup):
    s = as_float(step)
    return np.minimum(s**-0.5, s * warmup**-1.5)
