"""Every named example and its step names, as pure Python (no numpy), for content validation.

Content cards refer to steps as "<example>/<step>" (e.g. "worked/softmax"). These names are stable: steps may
be added, never renamed or removed. tests/engine/test_engine_catalog.py checks this table against the real traces
built by drill.engine.examples.
"""

from __future__ import annotations

# GQA and MQA (7.15) trace the same steps: query heads share KV heads, repeated to match. MHA (7.14) has
# the same steps without the repeats.
_SHARED_KV = (
    "x",
    "project_q",
    "project_k",
    "project_v",
    "split_heads",
    "split_k",
    "split_v",
    "repeat_k",
    "repeat_v",
    "scores",
    "scale",
    "softmax",
    "weighted_sum",
    "concat_heads",
    "output_proj",
)
_ATTENTION = ("x", "project_q", "project_k", "project_v", "scores", "scale")

EXAMPLE_STEPS: dict[str, tuple[str, ...]] = {
    # 7.12 (and 7.5, 7.7, 7.11, 7.13): the 3-token x 2-dim worked example.
    "worked": _ATTENTION + ("softmax", "weighted_sum"),
    # 7.6: raw scores from X Xᵀ and from a shared projection are symmetric; softmax rows are not.
    "xxt": (
        "x",
        "xxt",
        "softmax",
        "w_shared",
        "shared_scores",
        "shared_softmax",
        "project_q",
        "project_k",
        "bilinear",
        "separate_scores",
    ),
    # 7.9: scaling by √d_k, the max-probability table and the variance argument.
    "scaling": (
        "raw",
        "scale",
        "row",
        "scaled_rows",
        "softmax_rows",
        "max_prob",
        "unscaled_row",
        "unscaled_softmax",
        "unscaled_max_prob",
        "table",
        "dot_variance",
    ),
    # 7.10 (and 7.12 step 4): row-wise softmax, naive and numerically stable.
    "softmax": (
        "logits",
        "exp",
        "row_sum",
        "softmax",
        "row_max",
        "shifted",
        "stable_exp",
        "stable_softmax",
        "sigmoid",
        "sigmoid_row_sum",
        "overflow_threshold",
    ),
    # 7.17: causal mask on the worked example.
    "causal": _ATTENTION + ("mask", "masked", "softmax", "weighted_sum"),
    # 7.16: one row of scores with two PAD keys.
    "padding": ("scores", "pad_mask", "softmax_unmasked", "mask", "masked", "softmax"),
    # 7.16: a [B, S] key mask broadcast over a batch of two sentences.
    "padding_batch": _ATTENTION + ("pad_mask", "mask", "masked", "softmax", "weighted_sum"),
    # 7.16 + 7.17: both masks together.
    "causal_padding": _ATTENTION + ("pad_mask", "mask", "masked", "softmax", "weighted_sum"),
    # a query with every key masked (left padding + causal): zeros, as PyTorch's SDPA returns.
    "fully_masked": _ATTENTION + ("pad_mask", "mask", "masked", "softmax", "weighted_sum"),
    # 7.14: a full multi-head trace (h = 2, d_model = 4).
    "mha": tuple(
        step for step in _SHARED_KV if step not in ("repeat_k", "repeat_v")
    ),  # each head its own K, V
    # 7.14: the chapter's concat example (two given head outputs, W_O = I).
    "mha_concat": ("head_1", "head_2", "concat_heads", "output_proj"),
    # 7.14 Q3 / 7.15: grouped-query and multi-query attention (query heads share KV heads).
    "gqa": _SHARED_KV,
    "mqa": _SHARED_KV,
    # 7.18: cross-attention, S_dec = 2 queries over S_enc = 3 keys.
    "cross": (
        "x_dec",
        "x_enc",
        "project_q",
        "project_k",
        "project_v",
        "scores",
        "scale",
        "softmax",
        "weighted_sum",
    ),
    # 7.19: residual add and the gradient table.
    "residual": ("x", "sublayer", "add", "layers", "without_residual", "with_residual", "residual_chain"),
    # 7.20: LayerNorm (biased variance, eps inside the root) and RMSNorm on x = [1, 2, 3, 4].
    "layernorm": ("x", "mean", "centered", "variance", "std", "normalized", "affine", "rms", "rmsnorm"),
    # 7.21: FFN with ReLU, exact GELU, the tanh approximation, SwiGLU.
    "ffn": (
        "x",
        "hidden",
        "relu",
        "output",
        "gelu",
        "gelu_tanh",
        "gelu_output",
        "swiglu_gate",
        "swiglu_up",
        "swiglu_hidden",
        "swiglu_output",
    ),
    # 7.3: sinusoidal positional encoding and embedding x √d_model.
    "posenc": (
        "embedding",
        "scaled_embedding",
        "pe",
        "input",
        "embedding_var",
        "scaled_var",
        "pe_mean_square",
        "pe_variance",
        "shift_error",
    ),
    # 7.3: RoPE (interleaved pairs) and its relative-position property.
    "rope": ("q", "k", "angles", "q_rot", "k_rot", "scores", "offset_scores", "toeplitz_error"),
    # 7.15 / 7.22: KV-cache decoding equals the full causal pass.
    "kvcache": (
        "x",
        "full_causal",
        "decoded",
        "max_difference",
        "cache_k",
        "cache_v",
        "passes",
        "kv_projections",
    ),
    # 7.23: the Noam learning-rate schedule.
    "noam": ("step", "lr", "peak"),
    # 7.14 / 7.21: parameter counts, attention vs FFN.
    "params": ("attention", "ffn", "swiglu", "qkv_heads", "kv_cache_fraction", "per_d2"),
    # 7.4: the S × S score matrix; doubling S makes it 4 times bigger.
    "complexity": ("lengths", "elements", "flops", "ratio"),
}
