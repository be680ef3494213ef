"""Position (7.3): sinusoidal encoding with embedding scaling, and RoPE."""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops
from drill.engine.examples.common import arr
from drill.engine.examples.registry import example
from drill.engine.trace import Step, Trace
from drill.i18n import N_


@example("posenc", section="7.3", summary=N_("sinusoidal PE and embedding × √d_model"))
def posenc() -> Trace:
    d, s = 8, 4
    rng = np.random.default_rng(3)
    emb = rng.normal(0.0, 1.0 / math.sqrt(d), (s, d))
    pe = ops.sinusoidal_pe(s, d)
    big_d, big_s = 512, 512
    big_emb = rng.normal(0.0, 1.0 / math.sqrt(big_d), (big_s, big_d))
    big_pe = ops.sinusoidal_pe(big_s, big_d)
    # PE(pos + k) = R_k PE(pos): each (sin, cos) pair rotates by the angle k·ω_i.
    k = 3
    omega = 1.0 / 10000 ** (2.0 * np.arange(big_d // 2) / big_d)
    sin_p, cos_p = big_pe[:-k, 0::2], big_pe[:-k, 1::2]
    shifted_sin = sin_p * np.cos(k * omega) + cos_p * np.sin(k * omega)
    shifted_cos = cos_p * np.cos(k * omega) - sin_p * np.sin(k * omega)
    err = max(np.abs(shifted_sin - big_pe[k:, 0::2]).max(), np.abs(shifted_cos - big_pe[k:, 1::2]).max())
    steps = (
        Step(
            name="embedding",
            title=N_("Token embeddings"),
            formula=r"E,\ \mathrm{Var}(E_{ij}) = 1/d_{model}",
            explanation=N_("d_model = 8, 4 tokens"),
            inputs=(),
            output=emb,
            shape="[S, d_model]",
        ),
        Step(
            name="scaled_embedding",
            title=N_("Embeddings × √d_model"),
            formula=r"E \sqrt{d_{model}}",
            explanation=N_("variance back to about 1"),
            inputs=("embedding",),
            output=emb * math.sqrt(d),
            shape="[S, d_model]",
        ),
        Step(
            name="pe",
            title=N_("Sinusoidal positional encoding"),
            formula=r"PE_{(pos, 2i)} = \sin(pos / 10000^{2i/d}),\ PE_{(pos, 2i+1)} = \cos(pos / 10000^{2i/d})",
            explanation=N_("fast frequencies in the first columns, slow ones in the last"),
            inputs=(),
            output=pe,
            shape="[S, d_model]",
        ),
        Step(
            name="input",
            title=N_("Transformer input"),
            formula=r"E \sqrt{d_{model}} + PE",
            explanation=N_("embedding and position added"),
            inputs=("scaled_embedding", "pe"),
            output=emb * math.sqrt(d) + pe,
            shape="[S, d_model]",
        ),
        Step(
            name="embedding_var",
            title=N_("Variance of raw embeddings (d = 512)"),
            formula=r"\mathrm{Var}(E)",
            explanation="≈ 1/512",
            inputs=(),
            output=np.asarray(big_emb.var()),
            shape="[]",
        ),
        Step(
            name="scaled_var",
            title=N_("Variance after × √512"),
            formula=r"\mathrm{Var}(E \sqrt{d})",
            explanation="≈ 1",
            inputs=(),
            output=np.asarray((big_emb * math.sqrt(big_d)).var()),
            shape="[]",
        ),
        Step(
            name="pe_mean_square",
            title=N_("Mean square of PE (512 × 512)"),
            formula=r"\overline{PE^2}",
            explanation=N_("sin² + cos² = 1 per pair, so exactly 1/2"),
            inputs=(),
            output=np.asarray((big_pe**2).mean()),
            shape="[]",
        ),
        Step(
            name="pe_variance",
            title=N_("Variance of PE values (512 positions × 512 dims)"),
            formula=r"\mathrm{Var}(PE)",
            explanation=N_("slow dimensions sit near sin = 0, cos = 1"),
            inputs=(),
            output=np.asarray(big_pe.var()),
            shape="[]",
            note=N_("the PE values are not uniform on [-1, 1]: their spread depends on S and d"),
        ),
        Step(
            name="shift_error",
            title=N_("PE(pos + 3) as a rotation of PE(pos)"),
            formula=r"\max \left| R_k\,PE(pos) - PE(pos + k) \right|,\ k = 3",
            explanation=N_("sin(a + b) = sin a cos b + cos a sin b: a fixed linear map per offset"),
            inputs=(),
            output=np.asarray(err),
            shape="[]",
        ),
    )
    return Trace(N_("7.3 Positional encoding and embedding scaling"), steps, {})


@example("rope", section="7.3", summary=N_("RoPE and its relative-position property"))
def rope_example() -> Trace:
    s = 5
    q = arr([1.0, 0.0, 0.5, -1.0])
    k = arr([0.5, 1.0, -1.0, 0.5])
    pos = np.arange(s)
    qr = ops.rope(np.tile(q, (s, 1)), pos)
    kr = ops.rope(np.tile(k, (s, 1)), pos)
    scores = qr @ kr.T
    offsets = np.arange(-(s - 1), s)
    by_offset = np.array([q @ ops.rope(k[None, :], np.array([o]))[0] for o in offsets])
    toeplitz = max(abs(scores[m, n] - by_offset[n - m + s - 1]) for m in range(s) for n in range(s))
    steps = (
        Step(
            name="q",
            title=N_("A query vector"),
            formula="q",
            explanation=N_("the same q at positions 1 to 5 (m = 0, …, 4 in the formula)"),
            inputs=(),
            output=q,
            shape="[d]",
        ),
        Step(
            name="k",
            title=N_("A key vector"),
            formula="k",
            explanation=N_("the same k at positions 1 to 5 (n = 0, …, 4 in the formula)"),
            inputs=(),
            output=k,
            shape="[d]",
        ),
        Step(
            name="angles",
            title=N_("Rotation angles"),
            formula=r"\theta_{m,i} = m \cdot 10000^{-2i/d}",
            explanation=N_("one angle per position and pair"),
            inputs=(),
            output=ops.rope_angles(pos, 4),
            shape="[S, d/2]",
        ),
        Step(
            name="q_rot",
            title=N_("Rotated queries"),
            formula=r"R_m q",
            explanation=N_("pairs (q_{2i}, q_{2i+1}) rotated by θ_{m,i}"),
            inputs=("q", "angles"),
            output=qr,
            shape="[S, d]",
        ),
        Step(
            name="k_rot",
            title=N_("Rotated keys"),
            formula=r"R_n k",
            explanation=N_("same rotation for keys"),
            inputs=("k", "angles"),
            output=kr,
            shape="[S, d]",
        ),
        Step(
            name="scores",
            title=N_("Scores between positions"),
            formula=r"(R_m q)^\top (R_n k)",
            explanation=N_("constant along each diagonal"),
            inputs=("q_rot", "k_rot"),
            output=scores,
            shape="[S, S]",
        ),
        Step(
            name="offset_scores",
            title=N_("Scores by relative offset"),
            formula=r"q^\top R_{n-m} k,\ n - m = -4..4",
            explanation=N_("the score depends on n - m only"),
            inputs=("q", "k"),
            output=by_offset,
            shape="[2S-1]",
        ),
        Step(
            name="toeplitz_error",
            title=N_("Largest deviation from the offset rule"),
            formula=r"\max_{m,n} |(R_m q)^\top R_n k - q^\top R_{n-m} k|",
            explanation=N_("0 up to rounding"),
            inputs=("scores", "offset_scores"),
            output=np.asarray(toeplitz),
            shape="[]",
        ),
    )
    return Trace(N_("RoPE: rotations whose dot products see only the offset"), steps, {})
