"""Named mistakes of the chapter's counts (path lengths, parameters, head sizes, KV-cache bytes, growth, ...),
LayerNorm's value and the Noam peak: wrong options of `drill quiz`'s generated questions. Each ``wrong`` takes
the arguments of the right computation (drill.engine.sizes) and gives the value the mistake produces."""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops
from drill.engine.mistakes.registry import mistake

# ---------------------------------------------------------------- counts (7.1, 7.2, 7.4, 7.8, 7.14, 7.15, 7.19, 7.21, 7.22)


@mistake(
    "path_length",
    "rnn",
    "7.1",
    "path",
    "RNN 的两个致命问题：① 串行计算，无法利用 GPU 并行；② 长距离依赖需要 O(S) 步传递，梯度连乘易消失。",
)
def _path_rnn(kind, distance, kernel=3):
    return distance


@mistake("path_length", "cnn", "7.1", "path", "CNN 感受野有限，要堆很多层才能覆盖长距离", verbatim=False)
def _path_cnn(kind, distance, kernel=3):
    return -(-distance // (kernel - 1))


@mistake(
    "path_length",
    "log-depth",
    "7.1",
    "path",
    "以为注意力也要逐层传递（像树一样 log S 层）：自注意力中任意两个位置在一层内直接相连，路径是 O(1)。",
    verbatim=False,
)
def _path_log(kind, distance, kernel=3):
    return max(1, math.ceil(math.log2(distance)))


@mistake(
    "layer_params",
    "no-output-projection",
    "7.2",
    "attention",
    "漏算 $W_O$：注意力有 $W_Q, W_K, W_V, W_O$ 四个 $d \\times d$ 矩阵，共 $4d^2$。",
    verbatim=False,
)
def _layer_no_wo(d_model, d_ff):
    return 3 * d_model * d_model + 2 * d_model * d_ff


@mistake(
    "layer_params",
    "output-projection-twice",
    "7.2",
    "attention",
    "把 $W_O$ 算了两次（每个 head 一次、拼接后又一次）：$W_O$ 只有一个 $d \\times d$ 矩阵。",
    verbatim=False,
)
def _layer_wo_twice(d_model, d_ff):
    return 5 * d_model * d_model + 2 * d_model * d_ff


@mistake(
    "layer_params",
    "ffn-one-matrix",
    "7.2",
    "ffn",
    "FFN 只算了一个矩阵：它有 $W_1 [d, d_{ff}]$ 和 $W_2 [d_{ff}, d]$ 两个。",
    verbatim=False,
)
def _layer_ffn_one(d_model, d_ff):
    return 4 * d_model * d_model + d_model * d_ff


@mistake(
    "ffn_params",
    "one-matrix",
    "7.21",
    "ffn",
    "FFN 只算了一个矩阵：它有 $W_1 [d, d_{ff}]$ 和 $W_2 [d_{ff}, d]$ 两个。",
    verbatim=False,
)
def _ffn_one(d_model, d_ff):
    return d_model * d_ff


@mistake(
    "ffn_params",
    "d-ff-as-d-model",
    "7.21",
    "ffn",
    "FFN 的中间层是 $d_{ff} = 4d_{model}$，不是 $d_{model}$：先升维再降维。",
    verbatim=False,
)
def _ffn_narrow(d_model, d_ff):
    return 2 * d_model * d_model


@mistake(
    "ffn_params",
    "swiglu-three-matrices",
    "7.21",
    "swiglu",
    "把 SwiGLU 的三个矩阵套到 $d_{ff} = 4d$ 上：SwiGLU 用 $\\tfrac{8}{3}d$ 才保持参数量，原始 FFN 只有两个矩阵。",
    verbatim=False,
)
def _ffn_three(d_model, d_ff):
    return 3 * d_model * d_ff


@mistake(
    "head_dim",
    "full-width",
    "7.14",
    "split_heads",
    "以为每个 head 都用满 $d_{model}$ 维：那样参数和计算都是 h 倍；每个 head 降到 $d_{model}/h$。",
    verbatim=False,
)
def _head_full(d_model, heads):
    return d_model


@mistake(
    "head_dim",
    "times-heads",
    "7.14",
    "split_heads",
    "把 h 乘上去了：拼接后的宽度是 $h \\cdot d_k = d_{model}$，每个 head 是 $d_{model}/h$。",
    verbatim=False,
)
def _head_times(d_model, heads):
    return d_model * heads


@mistake(
    "head_dim",
    "half",
    "7.14",
    "split_heads",
    "以为 Q/K/V 三份之外再平分（$d_{model}/2h$）：每个 head 的 $d_k = d_{model}/h$。",
    verbatim=False,
)
def _head_half(d_model, heads):
    return d_model / (2 * heads)


@mistake(
    "kv_cache",
    "query-heads",
    "7.15",
    "repeat_k",
    "按 query 的 head 数算缓存：GQA/MQA 只缓存共享的 KV head，省的正是这部分显存。",
    verbatim=False,
)
def _kv_query_heads(layers, kv_heads, d_head, tokens, bytes_per_value=2, *, heads=None):
    return 2 * layers * (heads or kv_heads) * d_head * tokens * bytes_per_value


@mistake(
    "kv_cache", "keys-only", "7.22", "cache", "只算了 K：缓存里 K 和 V 各一份，所以有系数 2。", verbatim=False
)
def _kv_keys(layers, kv_heads, d_head, tokens, bytes_per_value=2, *, heads=None):
    return layers * kv_heads * d_head * tokens * bytes_per_value


@mistake("kv_cache", "one-layer", "7.22", "cache", "只算了一层：每一层都有自己的 K、V 缓存。", verbatim=False)
def _kv_one_layer(layers, kv_heads, d_head, tokens, bytes_per_value=2, *, heads=None):
    return 2 * kv_heads * d_head * tokens * bytes_per_value


@mistake(
    "kv_cache",
    "one-kv-head",
    "7.15",
    "repeat_k",
    "把 GQA 当成 MQA：GQA 有 G 个 KV head（每组一个），MQA 才只有 1 个。",
    verbatim=False,
)
def _kv_mqa(layers, kv_heads, d_head, tokens, bytes_per_value=2, *, heads=None):
    return 2 * layers * d_head * tokens * bytes_per_value


@mistake(
    "score_growth",
    "linear",
    "7.4",
    "elements",
    "以为注意力随长度线性增长：分数矩阵是 $S \\times S$，长度翻倍、计算和显存变 4 倍。",
    verbatim=False,
)
def _growth_linear(length, factor):
    return float(factor)


@mistake(
    "score_growth",
    "cubic",
    "7.4",
    "flops",
    "把 $O(S^2 d)$ 里的 $d$ 也当成随 S 变：$d$ 是固定的，增长是 $S^2$ 倍。",
    verbatim=False,
)
def _growth_cubic(length, factor):
    return float(factor**3)


@mistake(
    "score_growth",
    "doubling",
    "7.4",
    "elements",
    "以为长度每乘一次就翻倍：平方增长是 factor² 倍，不是 2×factor。",
    verbatim=False,
)
def _growth_double(length, factor):
    return float(2 * factor)


@mistake(
    "additive_cost",
    "same-cost",
    "7.8",
    "scores",
    "以为加性和点乘的打分一样便宜：加性要 $d \\times d$ 的投影和 tanh，逐元素操作多。",
    verbatim=False,
)
def _additive_same(d):
    return 1.0


@mistake(
    "additive_cost",
    "squared",
    "7.8",
    "scores",
    "把 $O(S^2 d^2)$ 对 $O(S^2 d)$ 的比当成 $d^2$：两者只差一个 $d$。",
    verbatim=False,
)
def _additive_sq(d):
    return float(d * d)


@mistake(
    "additive_cost",
    "sqrt",
    "7.8",
    "scale",
    "把点乘的 $\\sqrt{d_k}$ 缩放当成代价差：缩放只是一个常数除法。",
    verbatim=False,
)
def _additive_sqrt(d):
    return math.sqrt(d)


@mistake(
    "residual_gradient",
    "no-residual",
    "7.19",
    "without_residual",
    "无残差时 24 层后梯度几乎为 0；有残差时始终有 **1** 打底——这就是「梯度高速公路」。",
)
def _res_none(factor, layers):
    return factor**layers


@mistake(
    "residual_gradient",
    "sum",
    "7.19",
    "with_residual",
    "把各层的梯度因子相加（$1 + n f$）：子层是串联的，因子要连乘。",
    verbatim=False,
)
def _res_sum(factor, layers):
    return 1.0 + layers * factor


@mistake(
    "residual_gradient",
    "one-layer",
    "7.19",
    "with_residual",
    "只算了一层（$1 + f$）：跨过 n 层的跳连，捷径外的那条路径是 $f^n$。",
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
    "没减均值：那是 RMSNorm（只除以均方根），LayerNorm 先减均值再除以标准差。",
    verbatim=False,
)
def _ln_rms(x, gamma, beta, eps=1e-5):
    return ops.rms_norm(np.asarray(x, dtype=np.float64), eps=eps) * gamma + beta


@mistake(
    "noam_value",
    "constant-peak",
    "7.23",
    "lr",
    "以为学习率一直是峰值 $d_{model}^{-0.5} \\cdot \\text{warmup\\_steps}^{-0.5}$：前 warmup 步线性升温，之后按 $\\text{step}^{-0.5}$ 衰减。",
    verbatim=False,
)
def _noam_peak(step, d_model, warmup):
    return d_model**-0.5 * warmup**-0.5


@mistake(
    "rope_value",
    "angle-without-position",
    "7.3",
    "rotate",
    "旋转角是 $m\\theta_i$：位置 $m$ 乘上频率 $\\theta_i = 10000^{-2i/d}$；只转 $\\theta_i$ 等于把每个 token 都当作位置 1。",
    verbatim=False,
)
def _rope_no_position(x, positions):
    return ops.rope(np.asarray(x, dtype=np.float64), np.ones(len(positions)))
