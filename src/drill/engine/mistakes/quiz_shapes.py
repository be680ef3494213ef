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
from drill.i18n import N_

# ---------------------------------------------------------------- shapes (7.5, 7.7, 7.18)
# arguments: the sizes B, S (S_dec), d_model, d_k, and S_enc for cross-attention


@mistake(
    "q_shape",
    "keeps-d-model",
    "7.5",
    "project_q",
    N_(
        "The projection $Q = XW_Q$ turns the last dimension from $d_{model}$ into $d_k$: this takes Q to still be $[B, S, d_{model}]$."
    ),
    verbatim=False,
)
def _q_keeps(b, s, d_model, d_k):
    return (b, s, d_model)


@mistake(
    "q_shape",
    "transposed",
    "7.5",
    "project_q",
    N_("Writing $Q$ as $[B, d_k, S]$: it is $K$ that is transposed for the scores, not $Q$ itself."),
    verbatim=False,
)
def _q_transposed(b, s, d_model, d_k):
    return (b, d_k, s)


@mistake(
    "q_shape",
    "no-batch",
    "7.5",
    "project_q",
    N_(
        "Forgetting the batch dimension: each sample is projected on its own, so the shape still starts with $B$."
    ),
    verbatim=False,
)
def _q_no_batch(b, s, d_model, d_k):
    return (s, d_k)


@mistake(
    "score_shape",
    "q-shape",
    "7.7",
    "scores",
    N_(
        "Taking the score matrix to have $Q$'s shape $[B, S, d_k]$: $QK^\\top$ holds the score of every query against every key."
    ),
    verbatim=False,
)
def _scores_as_q(b, s, d_model, d_k):
    return (b, s, d_k)


@mistake(
    "score_shape",
    "qt-k",
    "7.7",
    "scores",
    N_(
        "Transposing the wrong factor: $Q^\\top K$ gives $[B, d_k, d_k]$ (correlations between dimensions), not matches between tokens."
    ),
    verbatim=False,
)
def _scores_qtk(b, s, d_model, d_k):
    return tuple((np.zeros((b, s, d_k)).swapaxes(-1, -2) @ np.zeros((b, s, d_k))).shape)


@mistake(
    "score_shape",
    "no-batch",
    "7.7",
    "scores",
    N_("Forgetting the batch dimension: for a batched input the score matrix is $[B, S, S]$."),
    verbatim=False,
)
def _scores_no_batch(b, s, d_model, d_k):
    return (s, s)


@mistake(
    "cross_shape",
    "decoder-keys",
    "7.18",
    "project_k",
    N_(
        "Treating Cross-Attention as Decoder self-attention: K comes from the Encoder, so the score matrix is $[B, S_{dec}, S_{enc}]$."
    ),
    verbatim=False,
)
def _cross_self(b, s_dec, s_enc, d_model, d_k):
    return (b, s_dec, s_dec)


@mistake(
    "cross_shape",
    "encoder-self",
    "7.18",
    "project_q",
    N_("Taking both Q and K from the Encoder: that is Encoder self-attention, $[B, S_{enc}, S_{enc}]$."),
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
    N_(
        "Scoring with $XX^\\top$ directly: without projections the scores only see how similar the embeddings are, and the matrix is symmetric."
    ),
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
    N_(
        "Q and K sharing one projection $W$: $XWW^\\top X^\\top$ is still symmetric and cannot tell “who is querying” from “who is queried”."
    ),
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
    N_(
        "Rows and columns read the wrong way round: $S_{ij} = q_i \\cdot k_j$ (token i queries token j), and with separate projections $S_{ij} \\ne S_{ji}$."
    ),
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
    N_(
        "Multiplying by $\\sqrt{d_k}$ instead of dividing: the scores get even larger and softmax saturates more."
    ),
    verbatim=False,
)
def _scaled_times(raw, d_k):
    return raw * math.sqrt(d_k)
