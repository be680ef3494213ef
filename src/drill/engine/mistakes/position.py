"""Named mistakes of sinusoidal positional encoding and RoPE (7.3): the `drill code` tasks' wrong variants (see drill.engine.mistakes)."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.mistakes.common import (
    as_float,
)
from drill.engine.mistakes.registry import mistake
from drill.i18n import N_

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
    N_(
        "Even dimensions $2i$ take sin, odd dimensions $2i+1$ take cos: $PE_{(pos,2i)} = \\sin(\\cdot)$, $PE_{(pos,2i+1)} = \\cos(\\cdot)$."
    ),
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
    N_(
        "The frequency's exponent is $2i/d$, where $i$ numbers the pair of dimensions: dimensions $2i$ and $2i+1$ share one frequency; it is not the dimension's own index."
    ),
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
    N_(
        "sin and cos are interleaved (sin in dimension $2i$, cos in dimension $2i+1$), not sin in the first half and cos in the second."
    ),
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
    N_(
        "This task rotates adjacent dimensions $(x_{2i}, x_{2i+1})$ as a pair (RoFormer); pairing $x_i$ with $x_{i+d/2}$ is another convention (the HF implementation of LLaMA)."
    ),
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
    N_(
        "The rotation matrix is $\\begin{pmatrix}\\cos\\theta & -\\sin\\theta\\\\ \\sin\\theta & \\cos\\theta\\end{pmatrix}$: rotate the other way and the relative position's sign flips."
    ),
    verbatim=False,
)
def _rope_sign(x, positions):
    return ops.rope(as_float(x), -np.asarray(positions, dtype=np.float64))
