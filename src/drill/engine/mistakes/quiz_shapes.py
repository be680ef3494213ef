"""Named mistakes of the chapter's shapes and scores: wrong options of `drill quiz`'s generated questions.

Their tasks are quantities, not coding tasks: each ``wrong`` takes the arguments of the right computation (the
shapes and scores named in the task) and gives the value the mistake produces."""

from __future__ import annotations

import math

import numpy as np

from drill.engine.mistakes.common import (
    NO_SCALE,
    SCALE_BY_DK,
)
from drill.engine.mistakes.registry import mistake

# ---------------------------------------------------------------- shapes (7.5, 7.7, 7.18)
# arguments: the sizes B, S (S_dec), d_model, d_k, and S_enc for cross-attention


@mistake(
    "q_shape",
    "keeps-d-model",
    "7.5",
    "project_q",
    "投影 $Q = XW_Q$ 把最后一维从 $d_{model}$ 变成 $d_k$：以为 Q 仍是 $[B, S, d_{model}]$。",
    verbatim=False,
)
def _q_keeps(b, s, d_model, d_k):
    return (b, s, d_model)


@mistake(
    "q_shape",
    "transposed",
    "7.5",
    "project_q",
    "把 $Q$ 写成 $[B, d_k, S]$：转置的是打分时的 $K$，不是 $Q$ 本身。",
    verbatim=False,
)
def _q_transposed(b, s, d_model, d_k):
    return (b, d_k, s)


@mistake(
    "q_shape",
    "no-batch",
    "7.5",
    "project_q",
    "忘了 batch 维：每个样本各自投影，形状前面还有 $B$。",
    verbatim=False,
)
def _q_no_batch(b, s, d_model, d_k):
    return (s, d_k)


@mistake(
    "score_shape",
    "q-shape",
    "7.7",
    "scores",
    "把打分矩阵当成 $Q$ 的形状 $[B, S, d_k]$：$QK^\\top$ 是每个 query 对每个 key 的分数。",
    verbatim=False,
)
def _scores_as_q(b, s, d_model, d_k):
    return (b, s, d_k)


@mistake(
    "score_shape",
    "qt-k",
    "7.7",
    "scores",
    "转置错了因子：$Q^\\top K$ 得到 $[B, d_k, d_k]$（维度之间的相关），不是 token 之间的匹配。",
    verbatim=False,
)
def _scores_qtk(b, s, d_model, d_k):
    return tuple((np.zeros((b, s, d_k)).swapaxes(-1, -2) @ np.zeros((b, s, d_k))).shape)


@mistake(
    "score_shape",
    "no-batch",
    "7.7",
    "scores",
    "忘了 batch 维：批量输入的打分矩阵是 $[B, S, S]$。",
    verbatim=False,
)
def _scores_no_batch(b, s, d_model, d_k):
    return (s, s)


@mistake(
    "cross_shape",
    "decoder-keys",
    "7.18",
    "project_k",
    "把 Cross-Attention 当成 Decoder 自注意力：K 来自 Encoder，分数矩阵是 $[B, S_{dec}, S_{enc}]$。",
    verbatim=False,
)
def _cross_self(b, s_dec, s_enc, d_model, d_k):
    return (b, s_dec, s_dec)


@mistake(
    "cross_shape",
    "encoder-self",
    "7.18",
    "project_q",
    "Q 和 K 都取自 Encoder：那是 Encoder 自注意力 $[B, S_{enc}, S_{enc}]$。",
    verbatim=False,
)
def _cross_enc(b, s_dec, s_enc, d_model, d_k):
    return (b, s_enc, s_enc)


@mistake(
    "cross_shape",
    "q-from-encoder",
    "7.18",
    "project_q",
    "**Q 来自 Decoder，K/V 来自 Encoder**——记反是最常见的错误。",
)
def _cross_swapped(b, s_dec, s_enc, d_model, d_k):
    return (b, s_enc, s_dec)


# ---------------------------------------------------------------- scores (7.6, 7.9)
# raw_score(x, W_Q, W_K, i, j) = (X W_Q)(X W_K)ᵀ[i, j]; scaled_score(q, k, d_k) = q·k / √d_k


@mistake(
    "raw_score",
    "no-projection",
    "7.6",
    "xxt",
    "直接用 $XX^\\top$ 打分：没有投影，分数只看 embedding 本身的相似度，而且矩阵对称。",
    verbatim=False,
)
def _raw_xxt(x, wq, wk, i, j):
    x = np.asarray(x, dtype=np.float64)
    return float(x[i] @ x[j])


@mistake(
    "raw_score",
    "shared-projection",
    "7.6",
    "shared_scores",
    "Q 和 K 共用一个投影 $W$：$XWW^\\top X^\\top$ 仍是对称的，分不出「谁在查询、谁被查询」。",
    verbatim=False,
)
def _raw_shared(x, wq, wk, i, j):
    x, wq = np.asarray(x, dtype=np.float64), np.asarray(wq, dtype=np.float64)
    return float((x[i] @ wq) @ (x[j] @ wq))


@mistake(
    "raw_score",
    "swapped-roles",
    "7.6",
    "separate_scores",
    "读反了行列：$S_{ij} = q_i \\cdot k_j$（第 i 个 token 查询第 j 个），独立投影下 $S_{ij} \\ne S_{ji}$。",
    verbatim=False,
)
def _raw_swapped(x, wq, wk, i, j):
    x = np.asarray(x, dtype=np.float64)
    return float((x[j] @ np.asarray(wq)) @ (x[i] @ np.asarray(wk)))


@mistake(
    "scaled_score",
    "scale-by-dk",
    "7.9",
    "scale",
    SCALE_BY_DK,
)
def _scaled_dk(raw, d_k):
    return raw / d_k


@mistake(
    "scaled_score",
    "no-scale",
    "7.9",
    "scale",
    NO_SCALE,
    verbatim=False,
)
def _scaled_none(raw, d_k):
    return float(raw)


@mistake(
    "scaled_score",
    "multiply",
    "7.9",
    "scale",
    "乘以 $\\sqrt{d_k}$ 而不是除以：分数反而更大，softmax 更饱和。",
    verbatim=False,
)
def _scaled_times(raw, d_k):
    return raw * math.sqrt(d_k)
