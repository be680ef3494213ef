"""Named mistakes of the chapter's counts (path lengths, parameters, head sizes, KV-cache bytes, growth, ...),
LayerNorm's value and the Noam peak: wrong options of `drill quiz`'s generated questions. Each ``wrong`` takes
the arguments of the right computation (drill.engine.sizes) and gives the value the mistake produces."""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops
from drill.engine.mistakes.common import FFN_ONE_MATRIX
from drill.engine.mistakes.registry import mistake
from drill.i18n import N_

# ---------------------------------------------------------------- counts (7.1, 7.2, 7.4, 7.8, 7.14, 7.15, 7.19, 7.21, 7.22)


@mistake(
    "path_length",
    "rnn",
    "7.1",
    "path",
    "RNN 的两个致命问题：① 串行计算，无法利用 GPU 并行；② 长距离依赖需要 O(S) 步传递，梯度连乘易消失。",
    pitfall=False,
)
def _path_rnn(kind, distance, kernel=3):
    return distance


@mistake("path_length", "cnn", "7.1", "path", "CNN 感受野有限，要堆很多层才能覆盖长距离", pitfall=False)
def _path_cnn(kind, distance, kernel=3):
    return -(-distance // (kernel - 1))


@mistake(
    "path_length",
    "log-depth",
    "7.1",
    "path",
    N_(
        "Thinking attention also passes information layer by layer (log S layers, like a tree): in self-attention any two positions are connected directly within one layer, so the path is O(1)."
    ),
    verbatim=False,
)
def _path_log(kind, distance, kernel=3):
    return max(1, math.ceil(math.log2(distance)))


@mistake(
    "layer_params",
    "no-output-projection",
    "7.2",
    "attention",
    N_("Leaving out $W_O$: attention has four $d \\times d$ matrices, $W_Q, W_K, W_V, W_O$, $4d^2$ in all."),
    verbatim=False,
)
def _layer_no_wo(d_model, d_ff):
    return 3 * d_model * d_model + 2 * d_model * d_ff


@mistake(
    "layer_params",
    "output-projection-twice",
    "7.2",
    "attention",
    N_(
        "Counting $W_O$ twice (once per head, then again after the concatenation): $W_O$ is a single $d \\times d$ matrix."
    ),
    verbatim=False,
)
def _layer_wo_twice(d_model, d_ff):
    return 5 * d_model * d_model + 2 * d_model * d_ff


@mistake(
    "layer_params",
    "ffn-one-matrix",
    "7.2",
    "ffn",
    FFN_ONE_MATRIX,
    verbatim=False,
)
def _layer_ffn_one(d_model, d_ff):
    return 4 * d_model * d_model + d_model * d_ff


@mistake(
    "ffn_params",
    "one-matrix",
    "7.21",
    "ffn",
    FFN_ONE_MATRIX,
    verbatim=False,
)
def _ffn_one(d_model, d_ff):
    return d_model * d_ff


@mistake(
    "ffn_params",
    "d-ff-as-d-model",
    "7.21",
    "ffn",
    N_("The FFN's hidden layer is $d_{ff} = 4d_{model}$, not $d_{model}$: it widens, then narrows back."),
    verbatim=False,
)
def _ffn_narrow(d_model, d_ff):
    return 2 * d_model * d_model


@mistake(
    "ffn_params",
    "swiglu-three-matrices",
    "7.21",
    "swiglu",
    N_(
        "Applying SwiGLU's three matrices to $d_{ff} = 4d$: SwiGLU takes $\\tfrac{8}{3}d$ to keep the parameter count, and the original FFN has only two matrices."
    ),
    verbatim=False,
)
def _ffn_three(d_model, d_ff):
    return 3 * d_model * d_ff


@mistake(
    "head_dim",
    "full-width",
    "7.14",
    "split_heads",
    N_(
        "Thinking every head uses all $d_{model}$ dimensions: that would cost h times the parameters and compute; each head is cut down to $d_{model}/h$."
    ),
    verbatim=False,
)
def _head_full(d_model, heads):
    return d_model


@mistake(
    "head_dim",
    "times-heads",
    "7.14",
    "split_heads",
    N_(
        "Multiplying by h: the concatenated width is $h \\cdot d_k = d_{model}$, so each head is $d_{model}/h$."
    ),
    verbatim=False,
)
def _head_times(d_model, heads):
    return d_model * heads


@mistake(
    "head_dim",
    "half",
    "7.14",
    "split_heads",
    N_("Halving again on top of the Q/K/V split ($d_{model}/2h$): each head's $d_k = d_{model}/h$."),
    verbatim=False,
)
def _head_half(d_model, heads):
    return d_model / (2 * heads)


@mistake(
    "kv_cache",
    "query-heads",
    "7.15",
    "repeat_k",
    N_(
        "Sizing the cache by the number of query heads: GQA/MQA cache only the shared KV heads, and that is exactly the memory they save."
    ),
    verbatim=False,
)
def _kv_query_heads(layers, kv_heads, d_head, tokens, bytes_per_value=2, *, heads=None):
    return 2 * layers * (heads or kv_heads) * d_head * tokens * bytes_per_value


@mistake(
    "kv_cache",
    "keys-only",
    "7.22",
    "cache",
    N_("Counting only K: the cache holds one copy each of K and V, hence the factor 2."),
    verbatim=False,
)
def _kv_keys(layers, kv_heads, d_head, tokens, bytes_per_value=2, *, heads=None):
    return layers * kv_heads * d_head * tokens * bytes_per_value


@mistake(
    "kv_cache",
    "one-layer",
    "7.22",
    "cache",
    N_("Counting only one layer: every layer has its own K and V cache."),
    verbatim=False,
)
def _kv_one_layer(layers, kv_heads, d_head, tokens, bytes_per_value=2, *, heads=None):
    return 2 * kv_heads * d_head * tokens * bytes_per_value


@mistake(
    "kv_cache",
    "one-kv-head",
    "7.15",
    "repeat_k",
    N_("Treating GQA as MQA: GQA has G KV heads (one per group); only MQA has just 1."),
    verbatim=False,
)
def _kv_mqa(layers, kv_heads, d_head, tokens, bytes_per_value=2, *, heads=None):
    return 2 * layers * d_head * tokens * bytes_per_value


@mistake(
    "score_growth",
    "linear",
    "7.4",
    "elements",
    N_(
        "Thinking attention grows linearly with length: the score matrix is $S \\times S$, so doubling the length makes compute and memory 4 times as large."
    ),
    verbatim=False,
)
def _growth_linear(length, factor):
    return float(factor)


@mistake(
    "score_growth",
    "cubic",
    "7.4",
    "flops",
    N_("Treating the $d$ in $O(S^2 d)$ as growing with S too: $d$ is fixed, and the growth is $S^2$-fold."),
    verbatim=False,
)
def _growth_cubic(length, factor):
    return float(factor**3)


@mistake(
    "score_growth",
    "doubling",
    "7.4",
    "elements",
    N_(
        "Thinking each multiplication of the length doubles the cost: quadratic growth is factor², not 2×factor."
    ),
    verbatim=False,
)
def _growth_double(length, factor):
    return float(2 * factor)


@mistake(
    "additive_cost",
    "same-cost",
    "7.8",
    "scores",
    N_(
        "Thinking additive and dot-product scoring are equally cheap: additive scoring also projects every query and key ($2 S d^2$ multiply-adds)."
    ),
    verbatim=False,
)
def _additive_same(d, length):
    return 1.0


@mistake(
    "additive_cost",
    "per-pair-projection",
    "7.8",
    "scores",
    N_(
        "Projecting q and k again for every pair ($2d^2 + d$ per score, $2d + 1$ times a dot product): $W_q q$ depends on the query alone and $W_k k$ on the key alone, so each is computed once per token."
    ),
    verbatim=False,
)
def _additive_per_pair(d, length):
    return (2.0 * d * d + d) / d


@mistake(
    "additive_cost",
    "chapter-factor-d",
    "7.8",
    "scores",
    N_(
        "Taking the ratio of $O(S^2 d^2)$ to $O(S^2 d)$, a factor of d: additive attention is $O(S d^2 + S^2 d)$, its projections are per token, not per pair."
    ),
    verbatim=False,
)
def _additive_factor_d(d, length):
    return float(d)


@mistake(
    "residual_gradient",
    "no-residual",
    "7.19",
    "without_residual",
    "无残差时 24 层后梯度几乎为 0；有残差时始终有 **1** 打底——这就是「梯度高速公路」。",
    pitfall=False,
)
def _res_none(factor, layers):
    return factor**layers


@mistake(
    "residual_gradient",
    "sum",
    "7.19",
    "with_residual",
    N_(
        "Adding the layers' gradient factors ($1 + n f$): the sublayers are in series, so the factors multiply."
    ),
    verbatim=False,
)
def _res_sum(factor, layers):
    return 1.0 + layers * factor


@mistake(
    "residual_gradient",
    "one-layer",
    "7.19",
    "with_residual",
    N_(
        "Counting only one layer ($1 + f$): for a skip connection across n layers, the path off the shortcut is $f^n$."
    ),
    verbatim=False,
)
def _res_one(factor, layers):
    return 1.0 + factor


# ---------------------------------------------------------------- LayerNorm as RMSNorm (7.20)


@mistake(
    "layer_norm_value",
    "rms-norm",
    "7.20",
    "mean",
    N_(
        "Not subtracting the mean: that is RMSNorm (dividing by the root mean square only); LayerNorm subtracts the mean, then divides by the standard deviation."
    ),
    verbatim=False,
)
def _ln_rms(x, gamma, beta, eps=1e-5):
    return ops.rms_norm(np.asarray(x, dtype=np.float64), eps=eps) * gamma + beta


@mistake(
    "noam_value",
    "constant-peak",
    "7.23",
    "lr",
    N_(
        "Thinking the learning rate stays at its peak $d_{model}^{-0.5} \\cdot \\text{warmup\\_steps}^{-0.5}$: it warms up linearly for the first warmup steps, then decays as $\\text{step}^{-0.5}$."
    ),
    verbatim=False,
)
def _noam_peak(step, d_model, warmup):
    return d_model**-0.5 * warmup**-0.5


@mistake(
    "rope_value",
    "angle-without-position",
    "7.3",
    "rotate",
    N_(
        "The rotation angle is $m\\theta_i$: position $m$ times the frequency $\\theta_i = 10000^{-2i/d}$; rotating by $\\theta_i$ alone treats every token as position 1."
    ),
    verbatim=False,
)
def _rope_no_position(x, positions):
    return ops.rope(np.asarray(x, dtype=np.float64), np.ones(len(positions)))
