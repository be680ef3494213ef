"""Named mistakes of the causal mask (7.17) and the padding mask (7.16): the `drill code` tasks' wrong variants (see drill.engine.mistakes)."""

from __future__ import annotations

import numpy as np

from drill.engine.mistakes.common import (
    MASK_CONVENTION,
    PAD_KEYS,
)
from drill.engine.mistakes.registry import mistake
from drill.i18n import N_

# ---------------------------------------------------------------- 3. causal mask (7.17)


@mistake(
    "causal_mask",
    "upper-triangle",
    "7.17",
    "mask",
    "如果预测第 3 个词时模型能看到第 4 个词，它就「抄答案」了。所以把每个位置右边（未来）的注意力分数设为 −∞，softmax 后这些位置权重为 0。",
    pitfall=False,
)
def _causal_upper(S):
    return np.triu(np.ones((S, S), dtype=bool))


@mistake("causal_mask", "masked-convention", "7.16", "mask", MASK_CONVENTION)
def _causal_masked(S):
    return np.triu(np.ones((S, S), dtype=bool), k=1)


@mistake(
    "causal_mask",
    "no-diagonal",
    "7.17",
    "mask",
    N_(
        "Keep the diagonal: position i may attend to every j ≤ i, itself included (`triu(..., 1)` masks the strict upper triangle)."
    ),
    verbatim=False,
)
def _causal_no_diag(S):
    return np.tril(np.ones((S, S), dtype=bool), k=-1)


# ---------------------------------------------------------------- 4. padding mask (7.16)


def _real(lengths, S):
    return np.arange(S)[None, :] < np.asarray(lengths).reshape(-1)[:, None]


@mistake(
    "padding_mask",
    "masks-queries",
    "7.16",
    "mask",
    PAD_KEYS,
)
def _pad_queries(lengths, S):
    return _real(lengths, S)[:, :, None]


@mistake("padding_mask", "inverted", "7.16", "mask", MASK_CONVENTION)
def _pad_inverted(lengths, S):
    return ~_real(lengths, S)[:, None, :]


@mistake(
    "padding_mask",
    "no-broadcast-axis",
    "7.16",
    "mask",
    "构造 [B, S] 的 0/1 mask（1=真实 token，0=PAD），广播成 [B, 1, S]（多头再加 head 维）",
    pitfall=False,
)
def _pad_flat(lengths, S):
    return _real(lengths, S)


@mistake(
    "padding_mask",
    "off-by-one",
    "7.16",
    "mask",
    N_(
        "In a sequence of length L the real tokens are positions 0…L−1 (L of them); PAD starts at position L."
    ),
    verbatim=False,
)
def _pad_off_by_one(lengths, S):
    return (np.arange(S)[None, :] <= np.asarray(lengths).reshape(-1)[:, None])[:, None, :]
