"""Templates for 7.19 – 7.23: the residual gradient, LayerNorm, the FFN, the KV cache and the Noam schedule."""

from __future__ import annotations

from drill.content.generated import format_matrix
from drill.content.quizgen.base import (
    FORMULA,
    Draft,
    _small,
    _wrong,
    count,
    f3,
    mib,
    sci,
    template,
)
from drill.i18n import _


@template("residual-gradient", "7.19", f3, FORMULA)
def _residual(rng):
    from drill.engine.sizes import residual_gradient

    factor, layers = rng.choice((0.5, 0.6, 0.7, 0.8, 0.9)), rng.randint(2, 12)
    return Draft(
        _(
            "Each sublayer's gradient factor is {factor}. One skip connection spans {layers} sublayers in series "
            "(y = x + F(x), F being those {layers} layers). What is ∂y/∂x?"
        ).format(factor=factor, layers=layers),
        residual_gradient(factor, layers),
        _wrong(
            ["residual_gradient/no-residual", "residual_gradient/sum", "residual_gradient/one-layer"],
            factor,
            layers,
        ),
        _(
            "The shortcut contributes 1, the sublayer path the product {factor}^{layers}: 1 + {factor}^{layers} "
            "≈ {gradient:.4f}."
        ).format(factor=factor, layers=layers, gradient=residual_gradient(factor, layers)),
        {"factor": factor, "layers": layers},
    )


@template("layernorm", "7.20", f3, FORMULA)
def _layernorm(rng):
    import numpy as np

    from drill.engine import ops

    x = np.array(_small(rng, 2, 4, (-2, -1, 0, 1, 2, 3, 4)), dtype=float)
    if (x.std(axis=-1) == 0).any() or (x.std(axis=0) == 0).any():
        return None
    i, j = rng.randrange(2), rng.randrange(4)
    right = float(ops.layer_norm(x)[i, j])
    wrong = [
        (mid, float(v[i, j]))
        for mid, v in _wrong(
            ["layer_norm/unbiased-variance", "layer_norm/wrong-axis", "layer_norm_value/rms-norm"],
            x,
            1.0,
            0.0,
        )
    ]
    return Draft(
        _(
            "The hidden vectors of two tokens (one token per row, d = 4) go through LayerNorm (γ = 1, β = 0, "
            "ε = 1e-5). What is the output at row {row}, column {column}?\n\n{x}"
        ).format(row=i + 1, column=j + 1, x=format_matrix("x", x.astype(int).tolist())),
        right,
        wrong,
        _(
            "Over each token's 4 dimensions: mean {mean:g}, biased variance {variance:.4f}, "
            "(x − μ)/√(σ² + ε) ≈ {output:.4f}."
        ).format(mean=x[i].mean(), variance=x[i].var(), output=right),
        {"x": x.tolist(), "i": i, "j": j},
    )


@template("ffn-params", "7.21", count, FORMULA)
def _ffn_params(rng):
    from drill.engine.sizes import ffn_params

    d = rng.choice((256, 384, 512, 768, 1024))
    return Draft(
        _(
            "FFN: d_model = {d_model}, d_ff = 4·d_model = {d_ff}. Not counting biases, how many parameters do W_1 "
            "and W_2 have in all?"
        ).format(d_model=d, d_ff=4 * d),
        ffn_params(d, 4 * d),
        _wrong(
            ["ffn_params/one-matrix", "ffn_params/d-ff-as-d-model", "ffn_params/swiglu-three-matrices"],
            d,
            4 * d,
        ),
        _(
            "W_1 [{d_model}, {d_ff}] + W_2 [{d_ff}, {d_model}] = 2·d·d_ff = 8·d² = {params:,}: twice attention's "
            "4·d²."
        ).format(d_model=d, d_ff=4 * d, params=8 * d * d),
        {"d_model": d, "d_ff": 4 * d},
    )


@template("kv-cache-size", "7.22", mib, FORMULA)
def _kv_size(rng):
    from drill.engine.sizes import kv_cache_bytes

    layers, heads, d_head = rng.choice((6, 12, 24)), rng.choice((8, 12, 16)), rng.choice((64, 128))
    tokens = rng.choice((512, 1024, 2048))
    args = (layers, heads, d_head, tokens, 2)
    return Draft(
        _(
            "Standard MHA decoding: {layers} layers, {heads} heads per layer, head dimension {d_head}, {tokens} "
            "tokens cached, FP16 (2 bytes). How much memory does the KV cache take?"
        ).format(layers=layers, heads=heads, d_head=d_head, tokens=tokens),
        kv_cache_bytes(*args),
        _wrong(["kv_cache/keys-only", "kv_cache/one-layer", "kv_cache/one-kv-head"], *args),
        _(
            "2 (K and V) × {layers} layers × {heads} heads × {d_head} × {tokens} × 2 bytes; it grows linearly "
            "with the number of tokens."
        ).format(layers=layers, heads=heads, d_head=d_head, tokens=tokens),
        {"layers": layers, "h": heads, "d_head": d_head, "tokens": tokens},
    )


@template("noam-lr", "7.23", sci, FORMULA)
def _noam(rng):
    from drill.engine import ops

    d, warmup = rng.choice((256, 512, 1024)), rng.choice((1000, 2000, 4000, 8000))
    step = rng.choice((warmup // 4, warmup // 2, 2 * warmup, 4 * warmup, 10 * warmup))
    right = float(ops.noam_lr(step, d, warmup))
    return Draft(
        _(
            "Noam learning rate: lr = d_model^-0.5 · min(step^-0.5, step · warmup_steps^-1.5), d_model = "
            "{d_model}, warmup_steps = {warmup}. What is the learning rate at step {step}?"
        ).format(d_model=d, warmup=warmup, step=step),
        right,
        _wrong(
            ["noam_lr/max-not-min", "noam_lr/no-d-model-factor", "noam_value/constant-peak"], step, d, warmup
        ),
        (
            _("step < warmup: take step·warmup^-1.5 (linear warm-up), times {d_model}^-0.5: {lr:.4e}.")
            if step < warmup
            else _("step > warmup: take step^-0.5 (decay), times {d_model}^-0.5: {lr:.4e}.")
        ).format(d_model=d, lr=right),
        {"d_model": d, "warmup": warmup, "step": step},
    )
