"""Computations behind `drill demo`'s live controls that no named example covers: each a pure function of the
control values, returning named float64 arrays (what the screen shows, and what its tests recompute).
"""

from __future__ import annotations

import math

import numpy as np

from drill.engine import ops
from drill.i18n import N_

SCALING_ROW = (3.0, 2.0, 1.0)  # 7.9's example row of scores


def softmax_pipeline(logits) -> dict[str, np.ndarray]:
    """7.10: subtract the maximum, exp, sum, normalise. The outputs are positive and sum to 1 for any finite
    logits (the max-subtraction keeps exp from overflowing)."""
    s = np.asarray(logits, dtype=np.float64)
    m = s.max()
    shifted = s - m
    e = np.exp(shifted)
    total = e.sum()
    return {
        "logits": s,
        "max": np.asarray(m),
        "shifted": shifted,
        "exp": e,
        "sum": np.asarray(total),
        "softmax": e / total,
    }


def scaling_compare(d_k: int, row=SCALING_ROW) -> dict[str, np.ndarray]:
    """7.9: raw scores grow like √d_k (a dot product of d_k unit-variance terms has std √d_k), modelled as
    ``row · √d_k``. Unscaled, softmax saturates as d_k grows; divided by √d_k it is softmax(row) whatever d_k."""
    if d_k < 1:
        raise ValueError(f"d_k must be ≥ 1, got {d_k}")
    base = np.asarray(row, dtype=np.float64)
    raw = base * math.sqrt(d_k)
    scaled = raw / math.sqrt(d_k)
    return {
        "raw": raw,
        "unscaled_softmax": ops.softmax(raw),
        "scaled": scaled,
        "scaled_softmax": ops.softmax(scaled),
    }


def weighted_sum(weights, values) -> dict[str, np.ndarray]:
    """7.11: weights made non-negative and normalised to sum to 1 (as softmax's are), then Σ a_j V_j — a
    convex combination of the rows of ``values``. All-zero weights are refused (there is nothing to normalise)."""
    w = np.asarray(weights, dtype=np.float64)
    v = np.asarray(values, dtype=np.float64)
    if w.ndim != 1 or v.ndim != 2 or v.shape[0] != w.shape[0]:
        raise ValueError(f"weights {w.shape} and values {v.shape} do not match")
    if (w < 0).any() or w.sum() <= 0:
        raise ValueError("weights must be non-negative with a positive sum")
    a = w / w.sum()
    return {"weights": a, "values": v, "output": a @ v}


def dot_product(angle_q: float, angle_k: float, length_q: float = 2.0, length_k: float = 2.0):
    """7.7: q and k in the plane at the given angles (degrees); their dot product |q||k|cos(θ) with θ the angle
    between them — largest aligned, 0 perpendicular, negative opposite."""
    q = length_q * np.array([math.cos(math.radians(angle_q)), math.sin(math.radians(angle_q))])
    k = length_k * np.array([math.cos(math.radians(angle_k)), math.sin(math.radians(angle_k))])
    between = (angle_q - angle_k) % 360.0
    between = min(between, 360.0 - between)
    return {"q": q, "k": k, "angle": np.asarray(between), "dot": np.asarray(q @ k)}


def dot_product_curve(
    angle_q: float, length_q: float = 2.0, length_k: float = 2.0, step: float = 5.0
) -> dict[str, np.ndarray]:
    """7.7's curve: k turned all the way round q (the angle between them θ = −180°…180° in ``step``s), and for
    each θ the dot product q·k of the two vectors (computed from their coordinates, = |q||k| cos θ) and the
    cosine q·k / (|q||k|)."""
    between = np.arange(-180.0, 180.0 + step / 2, step)
    k_angles = np.radians(angle_q + between)
    q = length_q * np.array([math.cos(math.radians(angle_q)), math.sin(math.radians(angle_q))])
    ks = length_k * np.stack([np.cos(k_angles), np.sin(k_angles)], axis=1)
    dots = ks @ q
    return {"angle": between, "dot": dots, "cos": dots / (length_q * length_k)}


# 7.14's four head patterns, as the score each query i gives key j before scaling (1 = attend, 0 = not).
HEAD_PATTERNS = ("local", "previous", "self", "start")


def head_pattern(kind: str, s: int) -> np.ndarray:
    i, j = np.indices((s, s))
    if kind == "local":  # a neighbourhood: the token and its neighbours
        return (np.abs(i - j) <= 1).astype(np.float64)
    if kind == "previous":  # the token before (the first token has none: itself)
        return ((j == i - 1) | ((i == 0) & (j == 0))).astype(np.float64)
    if kind == "self":
        return (i == j).astype(np.float64)
    if kind == "start":  # every token looks at the sentence start
        return (j == 0).astype(np.float64)
    raise ValueError(f"unknown head pattern {kind!r} (known: {', '.join(HEAD_PATTERNS)})")


def constructed_heads(s: int = 6, strength: float = 3.0):
    """Multi-head attention (7.14) run by the engine on constructed weights: X is one-hot positions [S, S],
    head h's W_Q = strength·I and W_K = strength·Mₕᵀ, so its scores are strength²·Mₕ (Mₕ one of
    ``HEAD_PATTERNS``) and its weights show that pattern. Returns the engine's trace (heads = 4)."""
    from drill.engine.attention import attention_trace

    x = np.eye(s)
    wq = np.concatenate([strength * np.eye(s) for _ in HEAD_PATTERNS], axis=1)
    wk = np.concatenate([strength * head_pattern(k, s).T for k in HEAD_PATTERNS], axis=1)
    wv = np.concatenate([np.eye(s) for _ in HEAD_PATTERNS], axis=1)
    return attention_trace(x, wq, wk, wv, heads=len(HEAD_PATTERNS), title="7.14 four constructed heads")


def cross_alignment(table):
    """7.18: decoder queries over encoder keys, run by the engine's cross-attention on constructed inputs whose
    weights are ``table`` (rows: decoder tokens, columns: encoder tokens; each row positive, summing to 1).
    The encoder states are one-hot positions, the decoder states log(table), and W_Q = W_K = d^(1/4)·I, so
    the scaled scores are log(table) and softmax gives the table back. Returns the engine's trace."""
    from drill.engine.attention import cross_attention_trace

    weights = np.asarray(table, dtype=np.float64)
    if weights.ndim != 2 or (weights <= 0).any() or not np.allclose(weights.sum(axis=1), 1.0):
        raise ValueError("an alignment table has positive rows that sum to 1")
    s_enc = weights.shape[1]
    w = s_enc**0.25 * np.eye(s_enc)
    return cross_attention_trace(np.log(weights), np.eye(s_enc), w, w, np.eye(s_enc), title="7.18 alignment")


def layernorm_steps(x, gamma=1.0, beta=0.0, eps: float = 1e-5) -> dict[str, np.ndarray]:
    """7.20 step by step on one token's vector: μ, σ² and σ (biased, over the vector), (x − μ)/√(σ² + ε),
    then γ ⊙ x̂ + β with γ and β one per dimension (a scalar is used for every dimension); the output equals
    ops.layer_norm's."""
    v = np.asarray(x, dtype=np.float64)
    gamma = np.broadcast_to(np.asarray(gamma, dtype=np.float64), v.shape)
    beta = np.broadcast_to(np.asarray(beta, dtype=np.float64), v.shape)
    mu = v.mean()
    var = ((v - mu) ** 2).mean()
    normalised = (v - mu) / math.sqrt(var + eps)
    return {
        "x": v,
        "mean": np.asarray(mu),
        "var": np.asarray(var),
        "std": np.asarray(math.sqrt(var)),
        "normalised": normalised,
        "gamma": gamma,
        "beta": beta,
        "output": ops.layer_norm(v, gamma, beta, eps),
    }


def residual_gradients(depth: int, factor: float) -> dict[str, np.ndarray]:
    """7.19: the gradient reaching layer 0 through ``n`` = 1..depth layers whose sub-layer gradient factor is
    ``factor``: without residuals factorⁿ; the chapter's model, one skip around the n layers, 1 + factorⁿ; and
    a residual around every layer (a Transformer's), the product (1 + factor)ⁿ."""
    if depth < 1:
        raise ValueError(f"depth must be ≥ 1, got {depth}")
    n = np.arange(1, depth + 1, dtype=np.float64)
    return {
        "layers": n,
        "without_residual": factor**n,
        "single_skip": 1.0 + factor**n,
        "per_layer": (1.0 + factor) ** n,
    }


def ffn_shapes(d_model: int, ratio: float, kind: str = "relu") -> dict[str, object]:
    """7.21: the FFN's shape flow and parameter count. ``relu``: W₁ [d_model, d_ff], W₂ [d_ff, d_model] and
    their biases, d_ff = ratio·d_model; ``swiglu``: W_gate and W_up [d_model, d_ff], W_down [d_ff, d_model],
    no biases (as LLaMA). Returns d_ff, the matrices' shapes and the parameter count."""
    d_ff = int(round(ratio * d_model))
    if d_model < 1 or d_ff < 1:
        raise ValueError(f"d_model and d_ff must be ≥ 1 (got {d_model}, {d_ff})")
    if kind == "relu":
        shapes = {"W1": (d_model, d_ff), "b1": (d_ff,), "W2": (d_ff, d_model), "b2": (d_model,)}
    elif kind == "swiglu":
        shapes = {"W_gate": (d_model, d_ff), "W_up": (d_model, d_ff), "W_down": (d_ff, d_model)}
    else:
        raise ValueError(f"unknown FFN kind {kind!r} (relu, swiglu)")
    params = sum(int(np.prod(shape)) for shape in shapes.values())
    return {"d_ff": d_ff, "shapes": shapes, "params": params}


def generation_passes(
    prompt: int, targets: int, mode: str, generated: int, cache: bool
) -> dict[str, np.ndarray]:
    """7.22: decoder work for a prompt of ``prompt`` tokens and ``targets`` tokens to predict. Training
    (teacher forcing): one forward pass computes every position at once. Inference: one pass per generated
    token; without a KV cache each pass recomputes K and V for the whole prefix, with one only for the newest
    token. Returns, after ``generated`` tokens (inference) or the one pass (training): ``passes``,
    ``positions`` (the positions each pass computes) and ``kv_rows`` (K/V rows computed in total)."""
    if mode == "train":
        positions = [prompt + targets - 1]  # inputs <BOS> … x_{S-1}, one prediction per position
    elif mode == "infer":
        if not 0 <= generated <= targets:
            raise ValueError(f"generated must be in 0..{targets}")
        positions = [(prompt + t) if not cache else (prompt if t == 0 else 1) for t in range(generated)]
    else:
        raise ValueError(f"unknown mode {mode!r} (train, infer)")
    return {
        "passes": np.asarray(len(positions)),
        "positions": np.asarray(positions, dtype=np.float64),
        "kv_rows": np.asarray(sum(positions)),
    }


# 7.2: one encoder layer and one decoder layer of the original (post-norm) Transformer on a small example.
BLOCK_S, BLOCK_D_MODEL, BLOCK_D_FF = 3, 4, 8
BLOCK_HEADS = (1, 2, 4)


def block_inputs(seed: int = 0) -> dict[str, np.ndarray]:
    """The 7.2 demo's inputs: encoder X and decoder Y [S, d_model], and every weight of the two layers,
    drawn from ``seed`` (normal, σ = 0.5, one decimal, so they read easily). LayerNorm's γ = 1, β = 0 and
    the biases 0: the values at initialisation. A trained model learns other weights; the flow is the same."""
    rng = np.random.default_rng(seed)

    def draw(*shape: int) -> np.ndarray:
        return np.round(rng.normal(0.0, 0.5, shape), 1)

    d, f, s = BLOCK_D_MODEL, BLOCK_D_FF, BLOCK_S
    out = {"X": np.round(rng.normal(0.0, 1.0, (s, d)), 1), "Y": np.round(rng.normal(0.0, 1.0, (s, d)), 1)}
    for part in ("enc_self", "dec_self", "dec_cross"):
        for w in ("W_Q", "W_K", "W_V", "W_O"):
            out[f"{part}.{w}"] = draw(d, d)
    for part in ("enc_ffn", "dec_ffn"):
        out[f"{part}.W_1"], out[f"{part}.W_2"] = draw(d, f), draw(f, d)
    return out


def _sublayers(inputs, steps: list, prefix: str, x, heads: int, memory=None) -> np.ndarray:
    """The sub-layers of one layer, each wrapped in residual + LayerNorm (post-norm, as the chapter draws
    it): attention (self, causal in the decoder), cross-attention over ``memory`` (decoder only), FFN."""
    from drill.engine.attention import attention_trace, cross_attention_trace
    from drill.engine.trace import Step

    def add(name, title, formula, ins, output, shape="[S, d_model]", explanation=""):
        steps.append(
            Step(
                name=name,
                title=title,
                formula=formula,
                explanation=explanation,
                inputs=ins,
                output=output,
                shape=shape,
            )
        )
        return output

    def add_norm(n: int, before: str, sub: str) -> np.ndarray:
        added = add(
            f"{prefix}_add_{n}",
            N_("Residual add"),
            "x + \\mathrm{Sublayer}(x)",
            (before, sub),
            steps_out(before) + steps_out(sub),
        )
        return add(
            f"{prefix}_norm_{n}",
            N_("LayerNorm"),
            "\\mathrm{LayerNorm}(x + \\mathrm{Sublayer}(x))",
            (f"{prefix}_add_{n}",),
            ops.layer_norm(added),
        )

    def steps_out(name: str) -> np.ndarray:
        return next(step.output for step in steps if step.name == name)

    causal = prefix == "dec"
    w = [inputs[f"{prefix}_self.{m}"] for m in ("W_Q", "W_K", "W_V", "W_O")]
    attn = attention_trace(x, *w, heads=heads, causal=causal)
    kind = N_("Masked self-attention") if causal else N_("Multi-head self-attention")
    add(
        f"{prefix}_weights",
        N_("Masked self-attention: weights") if causal else N_("Multi-head self-attention: weights"),
        "\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})",
        (f"{prefix}_input",),
        attn["softmax"].output.reshape(heads, len(x), len(x)),
        "[h, S, S]",
    )
    add(
        f"{prefix}_self_attn",
        kind,
        "\\mathrm{MultiHead}(x, x, x)",
        (f"{prefix}_input",),
        attn.steps[-1].output,
    )
    last = add_norm(1, f"{prefix}_input", f"{prefix}_self_attn")
    n = 2
    if memory is not None:
        w = [inputs[f"dec_cross.{m}"] for m in ("W_Q", "W_K", "W_V", "W_O")]
        cross = cross_attention_trace(last, memory, *w, heads=heads)
        add(
            "dec_cross_weights",
            N_("Cross-attention: weights"),
            "\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})",
            ("dec_norm_1", "enc_norm_2"),
            cross["softmax"].output.reshape(heads, len(last), len(memory)),
            "[h, S_dec, S_enc]",
        )
        add(
            "dec_cross_attn",
            N_("Cross-attention"),
            "\\mathrm{MultiHead}(x, m, m)",
            ("dec_norm_1", "enc_norm_2"),
            cross.steps[-1].output,
        )
        last = add_norm(2, "dec_norm_1", "dec_cross_attn")
        n = 3
    hidden = add(
        f"{prefix}_ffn_hidden",
        N_("FFN hidden layer"),
        "\\mathrm{ReLU}(x W_1)",
        (f"{prefix}_norm_{n - 1}",),
        ops.relu(last @ inputs[f"{prefix}_ffn.W_1"]),
        "[S, d_ff]",
    )
    add(
        f"{prefix}_ffn",
        N_("FFN"),
        "\\mathrm{ReLU}(x W_1) W_2",
        (f"{prefix}_ffn_hidden",),
        hidden @ inputs[f"{prefix}_ffn.W_2"],
    )
    return add_norm(n, f"{prefix}_norm_{n - 1}", f"{prefix}_ffn")


def transformer_block(seed: int = 0, heads: int = 1, x11: float | None = None):
    """7.2: one encoder layer (self-attention → add & norm → FFN → add & norm) and one decoder layer (masked
    self-attention → add & norm → cross-attention over the encoder's output → add & norm → FFN → add & norm)
    on `block_inputs(seed)`, every intermediate a named step of the returned trace; ``x11`` replaces X's
    element (1, 1). Every module's input and output is [S, d_model] (B = 1), as the chapter says."""
    from drill.engine.trace import Step, Trace

    if heads not in BLOCK_HEADS:
        raise ValueError(f"heads must be one of {BLOCK_HEADS} (d_model = {BLOCK_D_MODEL}), got {heads}")
    inputs = block_inputs(seed)
    if x11 is not None:
        inputs["X"] = inputs["X"].copy()
        inputs["X"][0, 0] = x11
    steps: list = []
    for prefix, given, title in (("enc", "X", N_("Encoder input")), ("dec", "Y", N_("Decoder input"))):
        steps.append(
            Step(
                name=f"{prefix}_input",
                title=title,
                formula="\\mathrm{Embedding}\\cdot\\sqrt{d_{model}} + PE",
                explanation="",
                inputs=(given,),
                output=inputs[given],
                shape="[S, d_model]",
            )
        )
        memory = None if prefix == "enc" else next(s.output for s in steps if s.name == "enc_norm_2")
        _sublayers(inputs, steps, prefix, inputs[given], heads, memory)
    return Trace(N_("7.2 Transformer block (h = {h})", h=heads), tuple(steps), inputs, section="7.2")
