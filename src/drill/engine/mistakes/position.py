"""Named mistakes of sinusoidal positional encoding and RoPE (7.3): the `drill code` tasks' wrong variants (see drill.engine.mistakes)."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.mistakes.common import (
    as_float,
)
from drill.engine.mistakes.registry import mistake

# ---------------------------------------------------------------- 10. positional encodings (7.3)


def _angles(S, d_model, index):
    pos = np.arange(S, dtype=np.float64)[:, None]
    j = np.arange(d_model, dtype=np.float64)[None, :]
    two_i = j if index else 2 * (j // 2)
    return pos / 10000.0 ** (two_i / d_model)


@mistake(
    "sinusoidal_pe",
    "sin-cos-swapped",
    "7.3",
    "encode",
    "偶数维 $2i$ 用 sin，奇数维 $2i+1$ 用 cos：$PE_{(pos,2i)} = \\sin(\\cdot)$，$PE_{(pos,2i+1)} = \\cos(\\cdot)$。",
    verbatim=False,
)
def _pe_swapped(S, d_model):
    a = _angles(S, d_model, False)
    pe = np.cos(a)
    pe[:, 1::2] = np.sin(a[:, 1::2])
    return pe


@mistake(
    "sinusoidal_pe",
    "exponent-uses-dimension",
    "7.3",
    "frequency",
    "频率的指数是 $2i/d$，其中 $i$ 是维度对的编号：第 $2i$ 和 $2i+1$ 维用同一个频率，不是用维度下标本身。",
    verbatim=False,
)
def _pe_index(S, d_model):
    a = _angles(S, d_model, True)
    pe = np.sin(a)
    pe[:, 1::2] = np.cos(a[:, 1::2])
    return pe


@mistake(
    "sinusoidal_pe",
    "halves-not-interleaved",
    "7.3",
    "encode",
    "sin 和 cos 是交错放的（第 $2i$ 维 sin、第 $2i+1$ 维 cos），不是前一半 sin、后一半 cos。",
    verbatim=False,
)
def _pe_halves(S, d_model):
    a = _angles(S, d_model, False)[:, 0::2]
    return np.concatenate([np.sin(a), np.cos(a)], axis=-1)


@mistake(
    "rope",
    "half-split-pairs",
    "7.3",
    "rotate",
    "本题约定相邻两维 $(x_{2i}, x_{2i+1})$ 为一对旋转（RoFormer）；把 $x_i$ 与 $x_{i+d/2}$ 配对是另一种约定（LLaMA 的 HF 实现）。",
    verbatim=False,
)
def _rope_half(x, positions):
    x = as_float(x)
    d = x.shape[-1]
    theta = ops.rope_angles(np.asarray(positions), d)
    cos, sin = np.cos(theta), np.sin(theta)
    a, b = x[..., : d // 2], x[..., d // 2 :]
    return np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=-1)


@mistake(
    "rope",
    "rotation-sign",
    "7.3",
    "rotate",
    "旋转矩阵是 $\\begin{pmatrix}\\cos\\theta & -\\sin\\theta\\\\ \\sin\\theta & \\cos\\theta\\end{pmatrix}$：转反了方向，相对位置的符号就反了。",
    verbatim=False,
)
def _rope_sign(x, positions):
    return ops.rope(as_float(x), -np.asarray(positions, dtype=np.float64))
