"""Cost and scale (7.4, 7.21–7.23): KV-cache decoding, the Noam schedule, parameter counts and O(S²)."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.attention import attention_trace, decode_with_cache
from drill.engine.examples.common import W_K, W_Q, W_V, X, arr
from drill.engine.examples.registry import example
from drill.engine.trace import Step, Trace
from drill.i18n import N_


@example("kvcache", section="7.22", summary=N_("KV-cache decoding equals the causal pass"))
def kvcache() -> Trace:
    x = np.vstack([X, [[0.5, -1.0]]])
    full = attention_trace(x, W_Q, W_K, W_V, causal=True)["weighted_sum"].output
    decoded, cache, _ = decode_with_cache(x, W_Q, W_K, W_V)
    s = x.shape[0]
    steps = (
        Step(
            name="x",
            title=N_("Four tokens"),
            formula="X",
            explanation=N_("<BOS> I love AI"),
            inputs=("X",),
            output=x,
            shape="[S, d_model]",
        ),
        Step(
            name="full_causal",
            title=N_("Training: one causal pass"),
            formula=r"\mathrm{softmax}(QK^\top / \sqrt{d_k} + M) V",
            explanation=N_("all positions at once"),
            inputs=("x",),
            output=full,
            shape="[S, d_v]",
        ),
        Step(
            name="decoded",
            title=N_("Inference: one token at a time with a KV cache"),
            formula=r"o_t = \mathrm{softmax}(q_t K_{\le t}^\top / \sqrt{d_k}) V_{\le t}",
            explanation=N_("each step projects only the new token and reads the cache"),
            inputs=("x",),
            output=decoded,
            shape="[S, d_v]",
        ),
        Step(
            name="max_difference",
            title=N_("Cache vs full pass"),
            formula=r"\max |o^{cache} - o^{full}|",
            explanation=N_("0 up to rounding"),
            inputs=("full_causal", "decoded"),
            output=np.asarray(np.abs(full - decoded).max()),
            shape="[]",
        ),
        Step(
            name="cache_k",
            title=N_("Cached keys"),
            formula=r"K_{\le S}",
            explanation=N_("grows by one row per step"),
            inputs=("x",),
            output=cache.k,
            shape="[S, d_k]",
        ),
        Step(
            name="cache_v",
            title=N_("Cached values"),
            formula=r"V_{\le S}",
            explanation=N_("grows by one row per step"),
            inputs=("x",),
            output=cache.v,
            shape="[S, d_v]",
        ),
        Step(
            name="passes",
            title=N_("Forward passes"),
            formula="[1,\\ S - 1]",
            explanation=N_(
                "training: one pass for all positions; inference: one pass per generated token after <BOS>"
            ),
            inputs=(),
            output=arr([1, s - 1]),
            shape="[2]",
        ),
        Step(
            name="kv_projections",
            title=N_("K/V projections computed"),
            formula=r"\left[\tfrac{S(S+1)}{2},\ S\right]",
            explanation=N_("recomputing the prefix every step vs caching it"),
            inputs=(),
            output=arr([s * (s + 1) // 2, s]),
            shape="[2]",
        ),
    )
    return Trace(
        N_("KV-cache decoding equals the full causal pass"),
        steps,
        {"X": x, "W_Q": W_Q, "W_K": W_K, "W_V": W_V},
    )


@example("noam", section="7.23", summary=N_("the Noam learning-rate schedule"))
def noam() -> Trace:
    d_model, warmup = 512, 4000
    step = arr([1, 1000, 2000, 4000, 8000, 16000, 100000])
    steps = (
        Step(
            name="step",
            title=N_("Training steps"),
            formula="step",
            explanation=N_("warmup_steps = {warmup}, d_model = {d_model}", warmup=warmup, d_model=d_model),
            inputs=(),
            output=step,
            shape="[7]",
        ),
        Step(
            name="lr",
            title=N_("Learning rate"),
            formula=r"d_{model}^{-0.5} \min(\mathrm{step}^{-0.5},\ \mathrm{step} \cdot \mathrm{warmup}^{-1.5})",
            explanation=N_("linear warm-up, then 1/√step decay"),
            inputs=("step",),
            output=ops.noam_lr(step, d_model, warmup),
            shape="[7]",
        ),
        Step(
            name="peak",
            title=N_("Peak learning rate"),
            formula=r"(d_{model} \cdot \mathrm{warmup})^{-0.5}",
            explanation=N_("reached at step = warmup"),
            inputs=(),
            output=np.asarray(ops.noam_lr(warmup, d_model, warmup)),
            shape="[]",
        ),
    )
    return Trace(N_("7.23 The Noam learning-rate schedule"), steps, {})


@example("params", section="7.21", summary=N_("parameter counts: attention vs FFN"))
def params() -> Trace:
    d, h, d_ff = 768, 12, 3072
    d_swiglu = 8 * d // 3
    attn = arr([d * d, d * d, d * d, d * d, 4 * d * d])
    ffn_p = arr([d * d_ff, d_ff * d, 2 * d * d_ff])
    swi = arr([d * d_swiglu, d * d_swiglu, d_swiglu * d, 3 * d * d_swiglu])
    qkv = arr([3 * d * d, h * 3 * d * (d // h), h * 3 * d * d])
    steps = (
        Step(
            name="attention",
            title=N_("Attention weights"),
            formula="W_Q, W_K, W_V, W_O: 4 d_{model}^2",
            explanation=N_("d_model = {d}, h = {h} (biases left out)", d=d, h=h),
            inputs=(),
            output=attn,
            shape="[5]",
        ),
        Step(
            name="ffn",
            title=N_("FFN weights"),
            formula=r"W_1, W_2: 2\, d_{model} d_{ff}",
            explanation=N_("d_ff = 4 d_model = {d_ff}", d_ff=d_ff),
            inputs=(),
            output=ffn_p,
            shape="[3]",
        ),
        Step(
            name="swiglu",
            title=N_("SwiGLU weights"),
            formula=r"W_1, W_3, W_2: 3\, d_{model} d_{ff}',\ d_{ff}' = \tfrac{8}{3} d_{model}",
            explanation=N_("d_ff' = {d_ff} keeps the FFN's budget", d_ff=d_swiglu),
            inputs=(),
            output=swi,
            shape="[4]",
        ),
        Step(
            name="qkv_heads",
            title=N_("Q/K/V weights: one head, h reduced heads, h full heads"),
            formula=r"\left[3 d^2,\ h \cdot 3 d \tfrac{d}{h},\ h \cdot 3 d^2\right]",
            explanation=N_("reducing each head to d/h keeps the budget; full-size heads cost h times more"),
            inputs=(),
            output=qkv,
            shape="[3]",
        ),
        Step(
            name="kv_cache_fraction",
            title=N_("KV-cache size vs MHA, 32 query heads"),
            formula=r"\left[G / h\ (G = 8),\ 1 / h\ (\mathrm{MQA})\right],\ h = 32",
            explanation=N_("GQA with 8 KV heads keeps 1/4 of the cache, MQA 1/32"),
            inputs=(),
            output=arr([8 / 32, 1 / 32]),
            shape="[2]",
        ),
        Step(
            name="per_d2",
            title=N_("In units of d_model²"),
            formula=r"\left[\mathrm{QKV}_h,\ \mathrm{attn},\ \mathrm{FFN},\ \mathrm{SwiGLU}\right] / d^2",
            explanation="3, 4, 8, 8",
            inputs=("qkv_heads", "attention", "ffn", "swiglu"),
            output=arr([qkv[1], attn[4], ffn_p[2], swi[3]]) / (d * d),
            shape="[4]",
        ),
    )
    return Trace(N_("Parameter counts: attention vs FFN"), steps, {})


@example("complexity", section="7.4", summary=N_("O(S²): doubling S quadruples the score matrix"))
def complexity() -> Trace:
    s, d = 512, 512
    lengths = arr([s, 2 * s])
    elements = lengths**2
    flops = 2 * lengths**2 * d * 2  # QKᵀ and A·V, 2 flops per multiply-add
    steps = (
        Step(
            name="lengths",
            title=N_("Sequence lengths"),
            formula="S,\\ 2S",
            explanation=N_("doubling the context"),
            inputs=(),
            output=lengths,
            shape="[2]",
        ),
        Step(
            name="elements",
            title=N_("Entries of the score matrix"),
            formula="S^2",
            explanation=N_("one score per (query, key) pair"),
            inputs=("lengths",),
            output=elements,
            shape="[2]",
        ),
        Step(
            name="flops",
            title=N_("Floating-point operations in QKᵀ and A·V"),
            formula="2 \\cdot 2 S^2 d",
            explanation=f"d = {d}",
            inputs=("lengths",),
            output=flops,
            shape="[2]",
        ),
        Step(
            name="ratio",
            title=N_("Growth when S doubles"),
            formula="(2S)^2 / S^2",
            explanation=N_("4×: time and memory of the S × S matrix"),
            inputs=("elements",),
            output=np.asarray(elements[1] / elements[0]),
            shape="[]",
        ),
    )
    return Trace(N_("7.4 Why attention is O(S²)"), steps, {})
