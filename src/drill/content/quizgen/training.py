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


@template("residual-gradient", "7.19", f3, FORMULA)
def _residual(rng):
    from drill.engine.sizes import residual_gradient

    factor, layers = rng.choice((0.5, 0.6, 0.7, 0.8, 0.9)), rng.randint(2, 12)
    return Draft(
        f"每个子层的梯度因子是 {factor}。一条跳连跨过 {layers} 个串联的子层（y = x + F(x)，F 是这 {layers} 层），"
        "∂y/∂x 是多少？",
        residual_gradient(factor, layers),
        _wrong(
            ["residual_gradient/no-residual", "residual_gradient/sum", "residual_gradient/one-layer"],
            factor,
            layers,
        ),
        f"捷径贡献 1，子层路径连乘 {factor}^{layers}：1 + {factor}^{layers} ≈ {residual_gradient(factor, layers):.4f}。",
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
        f"两个 token 的隐藏向量（每行一个 token，d = 4），做 LayerNorm（γ = 1，β = 0，ε = 1e-5）。"
        f"输出第 {i + 1} 行第 {j + 1} 列是多少？\n\n{format_matrix('x', x.astype(int).tolist())}",
        right,
        wrong,
        f"对每个 token 的 4 维求均值 {x[i].mean():g}、有偏方差 {x[i].var():.4f}，(x − μ)/√(σ² + ε) ≈ {right:.4f}。",
        {"x": x.tolist(), "i": i, "j": j},
    )


@template("ffn-params", "7.21", count, FORMULA)
def _ffn_params(rng):
    from drill.engine.sizes import ffn_params

    d = rng.choice((256, 384, 512, 768, 1024))
    return Draft(
        f"FFN：d_model = {d}，d_ff = 4·d_model = {4 * d}。不计偏置，W_1 和 W_2 一共有多少参数？",
        ffn_params(d, 4 * d),
        _wrong(
            ["ffn_params/one-matrix", "ffn_params/d-ff-as-d-model", "ffn_params/swiglu-three-matrices"],
            d,
            4 * d,
        ),
        f"W_1 [{d}, {4 * d}] + W_2 [{4 * d}, {d}] = 2·d·d_ff = 8·d² = {8 * d * d:,}：是注意力 4·d² 的两倍。",
        {"d_model": d, "d_ff": 4 * d},
    )


@template("kv-cache-size", "7.22", mib, FORMULA)
def _kv_size(rng):
    from drill.engine.sizes import kv_cache_bytes

    layers, heads, d_head = rng.choice((6, 12, 24)), rng.choice((8, 12, 16)), rng.choice((64, 128))
    tokens = rng.choice((512, 1024, 2048))
    args = (layers, heads, d_head, tokens, 2)
    return Draft(
        f"标准 MHA 解码：{layers} 层，每层 {heads} 个 head，每个 head 维度 {d_head}，已缓存 {tokens} 个 token，FP16"
        "（2 字节）。KV cache 占多少显存？",
        kv_cache_bytes(*args),
        _wrong(["kv_cache/keys-only", "kv_cache/one-layer", "kv_cache/one-kv-head"], *args),
        f"2（K 和 V）× {layers} 层 × {heads} 个 head × {d_head} × {tokens} × 2 字节；随 token 数线性增长。",
        {"layers": layers, "h": heads, "d_head": d_head, "tokens": tokens},
    )


@template("noam-lr", "7.23", sci, FORMULA)
def _noam(rng):
    from drill.engine import ops

    d, warmup = rng.choice((256, 512, 1024)), rng.choice((1000, 2000, 4000, 8000))
    step = rng.choice((warmup // 4, warmup // 2, 2 * warmup, 4 * warmup, 10 * warmup))
    right = float(ops.noam_lr(step, d, warmup))
    return Draft(
        f"Noam 学习率：lr = d_model^-0.5 · min(step^-0.5, step · warmup_steps^-1.5)，d_model = {d}，"
        f"warmup_steps = {warmup}。第 {step} 步的学习率是多少？",
        right,
        _wrong(
            ["noam_lr/max-not-min", "noam_lr/no-d-model-factor", "noam_value/constant-peak"], step, d, warmup
        ),
        f"step {'<' if step < warmup else '>'} warmup：取 {'step·warmup^-1.5（线性升温）' if step < warmup else 'step^-0.5（衰减）'}，"
        f"再乘 {d}^-0.5，得 {right:.4e}。",
        {"d_model": d, "warmup": warmup, "step": step},
    )
