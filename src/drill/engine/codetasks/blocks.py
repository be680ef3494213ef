"""Tasks 8-11 and 13: LayerNorm, the position-wise FFN, sinusoidal positional encoding and RoPE, the Noam
schedule (7.3, 7.20, 7.21, 7.23) — the blocks around attention: the engine's answers (oracles), the hidden
tests, the tasks."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.codetasks.model import Case, Output, Task
from drill.engine.codetasks.model import normal as _n
from drill.i18n import N_

# ---------------------------------------------------------------- oracles


def layer_norm_oracle(x, gamma, beta, eps=1e-5):
    return ops.layer_norm(np.asarray(x, dtype=np.float64), gamma, beta, eps)


def ffn_oracle(x, W_1, b_1, W_2, b_2, activation="relu"):
    act = {"relu": ops.relu, "gelu": ops.gelu}[activation]
    return act(np.asarray(x, dtype=np.float64) @ W_1 + b_1) @ W_2 + b_2


def pe_oracle(S, d_model):
    return ops.sinusoidal_pe(int(S), int(d_model))


def rope_oracle(x, positions):
    return ops.rope(np.asarray(x, dtype=np.float64), np.asarray(positions))


def noam_oracle(step, d_model, warmup):
    return ops.noam_lr(step, d_model, warmup)


# ---------------------------------------------------------------- hidden tests


def ln_cases(rng) -> list[Case]:
    def args(*shape, scale=1.0):
        d = shape[-1]
        return (
            _n(rng, *shape, scale=scale) + rng.normal(0, 2),
            1 + _n(rng, d, scale=0.3),
            _n(rng, d, scale=0.3),
        )

    cases = [Case(f"random-{i + 1}", args(*shape)) for i, shape in enumerate(((4,), (3, 5), (2, 3, 6)))]
    x, gamma, beta = args(3, 4)
    cases += [
        Case(
            "chapter-example",
            (np.array([[1.0, 2.0, 3.0, 4.0]]), np.ones(4), np.zeros(4)),
            pitfall="layer_norm/unbiased-variance",
        ),
        Case("eps-placement", (x * 1e-3, gamma, beta), {"eps": 1e-5}, pitfall="layer_norm/eps-outside-sqrt"),
        Case("per-token", args(4, 3), pitfall="layer_norm/wrong-axis"),
        Case("eps-given", args(2, 4), {"eps": 0.1}),
        Case("d-eq-2", args(3, 2)),
    ]
    return cases


def ffn_cases(rng) -> list[Case]:
    def args(lead, d, d_ff):
        return (
            _n(rng, *lead, d),
            _n(rng, d, d_ff),
            _n(rng, d_ff, scale=0.5),
            _n(rng, d_ff, d),
            _n(rng, d, scale=0.5),
        )

    cases = [
        Case(f"random-{i + 1}", args(lead, 3, 8), {"activation": act})
        for i, (lead, act) in enumerate((((4,), "relu"), ((2, 3), "gelu"), ((5,), "gelu")))
    ]
    cases += [
        Case("gelu-exact", args((4,), 2, 8), {"activation": "gelu"}, pitfall="ffn/gelu-tanh"),
        Case("relu-default", args((3,), 2, 8), pitfall="ffn/activation-after-output"),
        Case("per-token", args((2, 4), 4, 16), {"activation": "relu"}),
    ]
    return cases


def pe_cases(rng) -> list[Case]:
    cases = [
        Case(f"random-{i + 1}", (int(rng.integers(1, 20)), 2 * int(rng.integers(1, 9)))) for i in range(3)
    ]
    cases += [
        Case("sin-even-cos-odd", (4, 4), pitfall="sinusoidal_pe/sin-cos-swapped"),
        Case("frequencies", (6, 8), pitfall="sinusoidal_pe/exponent-uses-dimension"),
        Case("interleaved", (3, 6), pitfall="sinusoidal_pe/halves-not-interleaved"),
        Case("s-eq-1", (1, 4)),
        Case("d-eq-2", (5, 2)),
    ]
    return cases


def rope_cases(rng) -> list[Case]:
    cases = [
        Case(f"random-{i + 1}", (_n(rng, *lead, S, d), np.arange(S)))
        for i, (lead, S, d) in enumerate((((), 4, 4), ((2,), 3, 8), ((2, 2), 5, 6)))
    ]
    cases += [
        Case("pairs", (_n(rng, 3, 8), np.arange(3)), pitfall="rope/half-split-pairs"),
        Case("direction", (_n(rng, 4, 4), np.arange(4)), pitfall="rope/rotation-sign"),
        Case("offset-positions", (_n(rng, 3, 4), np.arange(7, 10))),
        Case("position-0-unchanged", (_n(rng, 1, 6), np.array([0]))),
    ]
    return cases


def noam_cases(rng) -> list[Case]:
    warmup = int(rng.integers(100, 4000))
    steps = np.unique(np.concatenate([rng.integers(1, 3 * warmup, size=6), [1, warmup, warmup + 1]]))
    return [
        Case("random-steps", (steps, int(rng.choice([128, 256, 512])), warmup)),
        Case(
            "chapter-setting",
            (np.array([1, 2000, 4000, 8000, 100000]), 512, 4000),
            pitfall="noam_lr/warmup-exponent",
        ),
        Case("after-warmup", (np.array([5000, 20000]), 512, 4000), pitfall="noam_lr/max-not-min"),
        Case("d-model", (np.array([10, 100]), 1024, 50), pitfall="noam_lr/no-d-model-factor"),
        Case("scalar-step", (1, 512, 4000)),
    ]


# ---------------------------------------------------------------- the tasks

LAYER_NORM = Task(
    name="layer_norm",
    number=8,
    section="7.20",
    title_msgid=N_("LayerNorm"),
    prompt_msgid=N_(
        "LayerNorm over the last dimension (each token's own vector):\n"
        "\n"
        "$$\\text{LN}(x) = \\gamma \\cdot \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta$$\n"
        "\n"
        "- `x`: `[..., d]`; `gamma, beta`: `[d]`; `eps` defaults to 1e-5\n"
        "- $\\mu$ and $\\sigma^2$ are the mean and (biased) variance within that token's vector\n"
        "- Return the same shape as `x`"
    ),
    formula="\\text{LN}(x) = \\gamma \\cdot \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta",
    signature="layer_norm(x, gamma, beta, eps=1e-5)",
    outputs=(Output("y", "affine"),),
    order=(0,),
    budget_s=300,
    make_cases=ln_cases,
    oracle=layer_norm_oracle,
)

FFN = Task(
    name="ffn",
    number=9,
    section="7.21",
    title_msgid=N_("Position-wise FFN (ReLU / GELU)"),
    prompt_msgid=N_(
        "Implement the position-wise feed-forward network: two linear layers with an activation "
        "between.\n"
        "\n"
        "$$\\text{FFN}(x) = \\sigma(xW_1 + b_1)W_2 + b_2$$\n"
        "\n"
        "- `x`: `[..., d_model]`; `W_1`: `[d_model, d_ff]`, `b_1`: `[d_ff]`, `W_2`: `[d_ff, "
        "d_model]`, `b_2`: `[d_model]`\n"
        '- `activation`: `"relu"` (the default) or `"gelu"`; GELU in its exact form $x\\Phi(x) = '
        "\\tfrac{x}{2}(1 + \\text{erf}(x/\\sqrt2))$ (`math.erf`)\n"
        "- Return `[..., d_model]`"
    ),
    formula="\\text{FFN}(x) = \\sigma(xW_1 + b_1)W_2 + b_2",
    signature='ffn(x, W_1, b_1, W_2, b_2, activation="relu")',
    outputs=(Output("y", "ffn"),),
    order=(0,),
    budget_s=300,
    make_cases=ffn_cases,
    oracle=ffn_oracle,
)

PE = Task(
    name="sinusoidal_pe",
    number=10,
    section="7.3",
    title_msgid=N_("Sinusoidal positional encoding"),
    prompt_msgid=N_(
        "Implement the original Transformer's sinusoidal positional encoding:\n"
        "\n"
        "$$PE_{(pos,2i)} = \\sin\\left(\\frac{pos}{10000^{2i/d}}\\right), \\qquad PE_{(pos,2i+1)} = "
        "\\cos\\left(\\frac{pos}{10000^{2i/d}}\\right)$$\n"
        "\n"
        "- `S`: the number of positions (pos = 0 … S−1), `d_model`: even\n"
        "- Return `[S, d_model]`"
    ),
    formula="PE_{(pos,2i)} = \\sin(pos / 10000^{2i/d}),\\ PE_{(pos,2i+1)} = \\cos(pos / 10000^{2i/d})",
    signature="sinusoidal_pe(S, d_model)",
    outputs=(Output("PE", "encode"),),
    order=(0,),
    budget_s=300,
    make_cases=pe_cases,
    oracle=pe_oracle,
)

ROPE = Task(
    name="rope",
    number=11,
    section="7.3",
    title_msgid=N_("RoPE rotary positional encoding"),
    prompt_msgid=N_(
        "Implement RoPE: pair up the vector's dimensions and rotate each pair by the position.\n"
        "\n"
        "**Pairing convention (RoFormer, interleaved)**: pair i is $(x_{2i}, x_{2i+1})$, rotated "
        "by the angle $\\theta_i \\cdot pos$, $\\theta_i = 10000^{-2i/d}$:\n"
        "\n"
        "$$\\begin{pmatrix} x'_{2i} \\\\ x'_{2i+1} \\end{pmatrix} = \\begin{pmatrix}\\cos & -\\sin \\\\ "
        "\\sin & \\cos\\end{pmatrix}\\begin{pmatrix} x_{2i} \\\\ x_{2i+1} \\end{pmatrix}$$\n"
        "\n"
        "- `x`: `[..., S, d]` (d even), `positions`: an integer array `[S]`\n"
        "- Return the same shape as `x`"
    ),
    formula="x'_{2i} = x_{2i}\\cos(pos\\,\\theta_i) - x_{2i+1}\\sin(pos\\,\\theta_i)",
    signature="rope(x, positions)",
    outputs=(Output("x_rot", "rotate"),),
    order=(0,),
    budget_s=600,
    make_cases=rope_cases,
    oracle=rope_oracle,
)

NOAM = Task(
    name="noam_lr",
    number=13,
    section="7.23",
    title_msgid=N_("Noam learning-rate schedule"),
    prompt_msgid=N_(
        "Implement the original paper's learning-rate schedule:\n"
        "\n"
        "$$\\text{lr} = d_{model}^{-0.5} \\cdot \\min\\left(\\text{step}^{-0.5},\\ \\text{step} \\cdot "
        "\\text{warmup\\_steps}^{-1.5}\\right)$$\n"
        "\n"
        "- `step`: an integer or an integer array (starting at 1); `d_model`, `warmup`: positive "
        "integers\n"
        "- Return floats of the same shape as `step`"
    ),
    formula="\\text{lr} = d_{model}^{-0.5} \\cdot \\min(\\text{step}^{-0.5}, \\text{step} \\cdot \\text{warmup}^{-1.5})",
    signature="noam_lr(step, d_model, warmup)",
    outputs=(Output("lr", "lr"),),
    order=(0,),
    budget_s=240,
    make_cases=noam_cases,
    oracle=noam_oracle,
)

TASKS = (LAYER_NORM, FFN, PE, ROPE, NOAM)
