"""Named mistakes of the KV-cache decoding step (7.22) and the Noam learning-rate schedule (7.23): the `drill code` tasks' wrong variants (see drill.engine.mistakes)."""

from __future__ import annotations

import numpy as np

from drill.engine.mistakes.common import (
    as_float,
    attend,
)
from drill.engine.mistakes.registry import mistake

# ---------------------------------------------------------------- 11. KV cache step (7.22)


def _kv(x_t, W_Q, W_K, W_V, K_cache, V_cache, *, tril=False, append_after=False):
    x_t = as_float(x_t)
    K_new = np.vstack([as_float(K_cache), x_t @ W_K])
    V_new = np.vstack([as_float(V_cache), x_t @ W_V])
    K, V = (as_float(K_cache), as_float(V_cache)) if append_after else (K_new, V_new)
    mask = np.tril(np.ones((1, K.shape[0]), dtype=bool)) if tril else None
    out, _ = attend(x_t @ W_Q, K, V, mask)
    return out, K_new, V_new


@mistake(
    "kv_cache_step",
    "causal-mask-on-step",
    "7.22",
    "mask",
    "**推理时不用 causal mask，但结果等价**：因为没有未来 token 可看。",
)
def _kv_tril(x_t, W_Q, W_K, W_V, K_cache, V_cache):
    return _kv(x_t, W_Q, W_K, W_V, K_cache, V_cache, tril=True)


@mistake(
    "kv_cache_step",
    "append-after-attend",
    "7.22",
    "attend",
    "第 t 步要先把当前 token 的 k、v 追加进缓存再做注意力：它可以关注自己（j ≤ t）。",
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
    "公式里是 $\\min(\\text{step}^{-0.5},\\ \\text{step} \\cdot \\text{warmup\\_steps}^{-1.5})$：前 warmup 步线性增长，之后按 step^-0.5 衰减。",
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
    "warmup 项是 $\\text{step} \\cdot \\text{warmup\\_steps}^{-1.5}$（指数 −1.5，不是 −0.5），两段在 step = warmup 处相接。",
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
    "别漏了前面的 $d_{model}^{-0.5}$：模型越宽，学习率越小。",
    verbatim=False,
)
def _noam_no_d(step, d_model, warmup):
    s = as_float(step)
    return np.minimum(s**-0.5, s * warmup**-1.5)
