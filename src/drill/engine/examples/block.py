"""The rest of the block (7.19–7.21): residual connections, LayerNorm / RMSNorm and the FFN."""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops
from drill.engine.examples.basics import worked
from drill.engine.examples.common import X, arr
from drill.engine.examples.registry import example
from drill.engine.trace import Step, Trace
from drill.i18n import N_


@example("residual", section="7.19", summary=N_("residual add and the gradient table"))
def residual() -> Trace:
    sub = worked()["weighted_sum"].output
    layers = arr([1, 4, 12, 24])
    steps = (
        Step(
            name="x",
            title=N_("Sub-layer input"),
            formula="x",
            explanation=N_("the worked example's X"),
            inputs=("X",),
            output=X,
            shape="[S, d_model]",
        ),
        Step(
            name="sublayer",
            title=N_("Sub-layer output"),
            formula="F(x) = \\mathrm{Attention}(x)",
            explanation=N_("the worked example's output"),
            inputs=("x",),
            output=sub,
            shape="[S, d_model]",
        ),
        Step(
            name="add",
            title=N_("Residual add"),
            formula="y = x + F(x)",
            explanation=N_("element-wise: shapes must match"),
            inputs=("x", "sublayer"),
            output=X + sub,
            shape="[S, d_model]",
        ),
        Step(
            name="layers",
            title=N_("Depth n"),
            formula="n",
            explanation=N_("the table's layer counts"),
            inputs=(),
            output=layers,
            shape="[4]",
        ),
        Step(
            name="without_residual",
            title=N_("Gradient without residual"),
            formula=r"0.7^n",
            explanation=N_("a product of sub-layer factors vanishes"),
            inputs=("layers",),
            output=0.7**layers,
            shape="[4]",
        ),
        Step(
            name="with_residual",
            title=N_("Gradient with one skip around the stack"),
            formula=r"1 + 0.7^n",
            explanation=N_("the identity path contributes 1 whatever the depth"),
            inputs=("layers",),
            output=1 + 0.7**layers,
            shape="[4]",
            note=N_(
                "1 + 0.7^n is the chapter's formula: one skip around n plain layers. With a residual around "
                "every layer the scalar gradient is (1 + 0.7)^n (see residual_chain); either way it never vanishes"
            ),
        ),
        Step(
            name="residual_chain",
            title=N_("Gradient with a residual in every layer"),
            formula=r"\prod_{l=1}^{n} (1 + 0.7) = 1.7^n",
            explanation=N_("d(x + F(x))/dx = 1 + F' per layer, multiplied through the stack"),
            inputs=("layers",),
            output=1.7**layers,
            shape="[4]",
        ),
    )
    return Trace(N_("7.19 Residual connections"), steps, {"X": X})


@example("layernorm", section="7.20", summary=N_("LayerNorm and RMSNorm on [1, 2, 3, 4]"))
def layernorm() -> Trace:
    x = arr([1, 2, 3, 4])
    eps = 1e-5
    gamma, beta = np.ones(4), np.zeros(4)
    mu = x.mean()
    var = ((x - mu) ** 2).mean()
    std = math.sqrt(var + eps)
    norm = (x - mu) / std
    rms = math.sqrt((x**2).mean() + 1e-6)
    steps = (
        Step(
            name="x",
            title=N_("One token's vector"),
            formula="x",
            explanation="d = 4",
            inputs=("x",),
            output=x,
            shape="[d]",
        ),
        Step(
            name="mean",
            title=N_("Mean over the features"),
            formula=r"\mu = \frac{1}{d}\sum_i x_i",
            explanation=N_("within this token only"),
            inputs=("x",),
            output=np.asarray(mu),
            shape="[]",
        ),
        Step(
            name="centered",
            title=N_("Centre"),
            formula=r"x - \mu",
            explanation="",
            inputs=("x", "mean"),
            output=x - mu,
            shape="[d]",
        ),
        Step(
            name="variance",
            title=N_("Variance (biased)"),
            formula=r"\sigma^2 = \frac{1}{d}\sum_i (x_i - \mu)^2",
            explanation=N_("divide by d, not d - 1, as PyTorch's LayerNorm does"),
            inputs=("centered",),
            output=np.asarray(var),
            shape="[]",
        ),
        Step(
            name="std",
            title=N_("Standard deviation"),
            formula=r"\sqrt{\sigma^2 + \epsilon}",
            explanation=N_("ε = 1e-5 inside the root"),
            inputs=("variance",),
            output=np.asarray(std),
            shape="[]",
        ),
        Step(
            name="normalized",
            title=N_("Normalise"),
            formula=r"\hat x = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}",
            explanation=N_("mean 0, variance 1"),
            inputs=("centered", "std"),
            output=norm,
            shape="[d]",
        ),
        Step(
            name="affine",
            title=N_("Scale and shift"),
            formula=r"\gamma \odot \hat x + \beta",
            explanation=N_("γ = 1, β = 0 at initialisation"),
            inputs=("normalized", "gamma", "beta"),
            output=ops.layer_norm(x, gamma, beta, eps),
            shape="[d]",
        ),
        Step(
            name="rms",
            title=N_("Root mean square (RMSNorm)"),
            formula=r"\mathrm{RMS}(x) = \sqrt{\frac{1}{d}\sum_i x_i^2 + \epsilon}",
            explanation=N_("no mean subtracted (LLaMA)"),
            inputs=("x",),
            output=np.asarray(rms),
            shape="[]",
        ),
        Step(
            name="rmsnorm",
            title=N_("RMSNorm"),
            formula=r"\gamma \odot x / \mathrm{RMS}(x)",
            explanation=N_("cheaper: no centring, no β"),
            inputs=("x", "rms"),
            output=ops.rms_norm(x, eps=1e-6),
            shape="[d]",
        ),
    )
    return Trace(
        N_("7.20 LayerNorm and RMSNorm on x = [1, 2, 3, 4]"), steps, {"x": x, "gamma": gamma, "beta": beta}
    )


FFN_W1 = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]])


FFN_W2 = FFN_W1.T.copy()


FFN_W3 = np.array([[0.5, 1.0, -1.0, 0.0], [1.0, -0.5, 0.0, 1.0]])


@example("ffn", section="7.21", summary=N_("FFN with ReLU, GELU and SwiGLU"))
def ffn() -> Trace:
    x = np.array([[1.0, 0.0], [-1.0, 0.5]])
    hidden = x @ FFN_W1
    r = ops.relu(hidden)
    g = ops.gelu(hidden)
    gate = ops.silu(x @ FFN_W1)
    up = x @ FFN_W3
    steps = (
        Step(
            name="x",
            title=N_("Tokens"),
            formula="x",
            explanation=N_("row 1 is the chapter's x = [1, 0]; each row is processed alone"),
            inputs=("x",),
            output=x,
            shape="[S, d_model]",
        ),
        Step(
            name="hidden",
            title=N_("Up-projection"),
            formula="x W_1 + b_1",
            explanation=N_("d_model = 2 → d_ff = 4 (b_1 = 0)"),
            inputs=("x", "W_1"),
            output=hidden,
            shape="[S, d_ff]",
        ),
        Step(
            name="relu",
            title=N_("ReLU"),
            formula=r"\max(0, h)",
            explanation=N_("negative entries become 0"),
            inputs=("hidden",),
            output=r,
            shape="[S, d_ff]",
        ),
        Step(
            name="output",
            title=N_("Down-projection"),
            formula=r"\mathrm{ReLU}(x W_1) W_2 + b_2",
            explanation=N_("back to d_model (b_2 = 0)"),
            inputs=("relu", "W_2"),
            output=r @ FFN_W2,
            shape="[S, d_model]",
            note=N_("W_2 is not printed in the chapter; W_2 = W_1ᵀ reproduces its result [2, 0]"),
        ),
        Step(
            name="gelu",
            title=N_("GELU (exact)"),
            formula=r"h\,\Phi(h) = \tfrac{h}{2}\left(1 + \mathrm{erf}(h/\sqrt{2})\right)",
            explanation=N_("smooth; small negatives pass slightly"),
            inputs=("hidden",),
            output=g,
            shape="[S, d_ff]",
        ),
        Step(
            name="gelu_tanh",
            title=N_("GELU, tanh approximation"),
            formula=r"\tfrac{h}{2}\left(1 + \tanh\left(\sqrt{2/\pi}\,(h + 0.044715 h^3)\right)\right)",
            explanation=N_("GPT-2's approximation of GELU, not the exact function"),
            inputs=("hidden",),
            output=ops.gelu_tanh(hidden),
            shape="[S, d_ff]",
        ),
        Step(
            name="gelu_output",
            title=N_("GELU FFN output"),
            formula=r"\mathrm{GELU}(x W_1) W_2",
            explanation="",
            inputs=("gelu", "W_2"),
            output=g @ FFN_W2,
            shape="[S, d_model]",
        ),
        Step(
            name="swiglu_gate",
            title=N_("SwiGLU gate"),
            formula=r"\mathrm{SiLU}(x W_1) = x W_1 \, \sigma(x W_1)",
            explanation="",
            inputs=("x", "W_1"),
            output=gate,
            shape="[S, d_ff]",
        ),
        Step(
            name="swiglu_up",
            title=N_("SwiGLU value path"),
            formula="x W_3",
            explanation=N_("a third matrix"),
            inputs=("x", "W_3"),
            output=up,
            shape="[S, d_ff]",
        ),
        Step(
            name="swiglu_hidden",
            title=N_("Gated hidden"),
            formula=r"\mathrm{SiLU}(x W_1) \odot x W_3",
            explanation=N_("element-wise product"),
            inputs=("swiglu_gate", "swiglu_up"),
            output=gate * up,
            shape="[S, d_ff]",
        ),
        Step(
            name="swiglu_output",
            title=N_("SwiGLU FFN output"),
            formula=r"(\mathrm{SiLU}(x W_1) \odot x W_3) W_2",
            explanation="",
            inputs=("swiglu_hidden", "W_2"),
            output=(gate * up) @ FFN_W2,
            shape="[S, d_model]",
        ),
    )
    return Trace(N_("7.21 Position-wise FFN"), steps, {"x": x, "W_1": FFN_W1, "W_2": FFN_W2, "W_3": FFN_W3})
