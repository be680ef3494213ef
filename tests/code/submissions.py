"""Hand-written wrong submissions: one per catalogued mistake, written the way a learner would write it."""

from __future__ import annotations

HEAD = "import math\nimport numpy as np\n\n"


def _softmax_rows():
    return (
        "def _softmax(s, axis=-1):\n"
        "    m = s.max(axis=axis, keepdims=True)\n"
        "    m = np.where(np.isneginf(m), 0.0, m)\n"
        "    e = np.exp(s - m)\n"
        "    t = e.sum(axis=axis, keepdims=True)\n"
        "    return e / np.where(t == 0, 1.0, t)\n\n"
    )


def _attention(
    scores="Q @ np.swapaxes(K, -1, -2)",
    scale="math.sqrt(Q.shape[-1])",
    fill="-np.inf",
    mask_line="np.where(mask, s, {fill})",
    softmax="_softmax(s)",
    after="",
    values="V",
):
    return (
        HEAD
        + _softmax_rows()
        + (
            "def attention(Q, K, V, mask=None):\n"
            f"    s = {scores}\n"
            f"    s = s / {scale}\n"
            "    if mask is not None:\n"
            f"        s = {mask_line.format(fill=fill)}\n"
            f"    A = {softmax}\n"
            f"{after}"
            f"    return A @ {values}, A\n"
        )
    )


WRONG = {
    "softmax/no-max-subtraction": HEAD
    + "def softmax(x):\n    e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)\n",
    "softmax/wrong-axis": HEAD
    + (
        "def softmax(x):\n    x = np.asarray(x, dtype=float)\n    ax = 0 if x.ndim == 1 else -2\n"
        "    e = np.exp(x - x.max(axis=ax, keepdims=True))\n    return e / e.sum(axis=ax, keepdims=True)\n"
    ),
    "softmax/whole-array": HEAD
    + "def softmax(x):\n    e = np.exp(x - np.max(x))\n    return e / np.sum(e)\n",
    "softmax/sigmoid": HEAD + "def softmax(x):\n    return 1 / (1 + np.exp(-x))\n",
    "attention/scale-by-dk": _attention(scale="Q.shape[-1]"),
    "attention/no-scale": _attention(scale="1"),
    "attention/softmax-wrong-axis": _attention(softmax="_softmax(s, axis=-2)"),
    "attention/no-max-subtraction": _attention(softmax="np.exp(s) / np.exp(s).sum(-1, keepdims=True)"),
    "attention/mask-after-softmax": _attention(
        mask_line="s", after="    if mask is not None:\n        A = A * mask\n"
    ),
    "attention/mask-fill-zero": _attention(fill="0.0"),
    "attention/mask-inverted": _attention(mask_line="np.where(mask, {fill}, s)"),
    "attention/mask-fill-large-negative": _attention(fill="-1e9"),
    "attention/scale-by-sqrt-sk": _attention(scale="math.sqrt(K.shape[-2])"),
    "attention/fully-masked-nan": _attention(
        softmax="np.exp(s - s.max(-1, keepdims=True)) / np.exp(s - s.max(-1, keepdims=True)).sum(-1, keepdims=True)"
    ),
    "attention/transpose-0-1": _attention(scores="Q @ (np.swapaxes(K, 0, 1) if K.ndim > 2 else K.T)"),
    "attention/transpose-all-axes": _attention(scores="Q @ K.T"),
    "attention/weights-times-k": _attention(values="K"),
    "causal_mask/upper-triangle": HEAD
    + "def causal_mask(S):\n    return np.triu(np.ones((S, S), dtype=bool))\n",
    "causal_mask/masked-convention": HEAD
    + "def causal_mask(S):\n    return np.triu(np.ones((S, S)), k=1).astype(bool)\n",
    "causal_mask/no-diagonal": HEAD
    + "def causal_mask(S):\n    return np.tril(np.ones((S, S), dtype=bool), -1)\n",
    "padding_mask/masks-queries": HEAD
    + (
        "def padding_mask(lengths, S):\n    m = np.arange(S)[None, :] < np.asarray(lengths)[:, None]\n"
        "    return m[:, :, None]\n"
    ),
    "padding_mask/inverted": HEAD
    + (
        "def padding_mask(lengths, S):\n    m = np.arange(S)[None, :] >= np.asarray(lengths)[:, None]\n"
        "    return m[:, None, :]\n"
    ),
    "padding_mask/no-broadcast-axis": HEAD
    + ("def padding_mask(lengths, S):\n    return np.arange(S)[None, :] < np.asarray(lengths)[:, None]\n"),
    "padding_mask/off-by-one": HEAD
    + (
        "def padding_mask(lengths, S):\n    return (np.arange(S) <= np.asarray(lengths)[:, None])[:, None, :]\n"
    ),
}


def _solution(name):
    from drill.engine.codetasks import get_task

    return get_task(name).solution()


def _edit(name, old, new, count=1):
    """The reference solution with one line changed the way the mistake changes it."""
    source = _solution(name)
    assert source.count(old) >= count, (name, old)
    return source.replace(old, new)


WRONG.update(
    {
        "multi_head_attention/heads-no-transpose": _edit(
            "multi_head_attention",
            "        x = x.reshape(x.shape[:-1] + (h, d_k))           # 先拆成 [..., S, h, d_k]\n"
            "        return np.swapaxes(x, -3, -2)                    # 再把 h 换到 S 前面\n",
            "        return x.reshape(x.shape[:-2] + (h, x.shape[-2], d_k))\n",
        )
        .replace("    out = np.swapaxes(out, -3, -2)                       # [..., S, h, d_k]\n", "")
        .replace(
            "out.reshape(out.shape[:-2] + (d_model,))",
            "out.reshape(out.shape[:-3] + (out.shape[-2], d_model))",
        ),
        "multi_head_attention/no-output-projection": _edit(
            "multi_head_attention",
            "    return out @ W_O                                     # 过 W_O 融合各头",
            "    return out",
        ),
        "multi_head_attention/scale-by-d-model": HEAD
        + (
            "def multi_head_attention(X, W_Q, W_K, W_V, W_O, h, mask=None):\n"
            "    d = W_Q.shape[1]\n"
            "    if d % h:\n        raise ValueError('h')\n"
            "    sp = lambda x: np.swapaxes(x.reshape(x.shape[:-1] + (h, d // h)), -3, -2)\n"
            "    Q, K, V = sp(X @ W_Q), sp(X @ W_K), sp(X @ W_V)\n"
            "    s = Q @ np.swapaxes(K, -1, -2) / math.sqrt(d)\n"
            "    if mask is not None:\n        s = np.where(np.asarray(mask)[..., None, :, :], s, -np.inf)\n"
            "    e = np.exp(s - s.max(-1, keepdims=True))\n    A = e / e.sum(-1, keepdims=True)\n"
            "    o = np.swapaxes(A @ V, -3, -2)\n    return o.reshape(o.shape[:-2] + (d,)) @ W_O\n"
        ),
        "grouped_query_attention/kv-heads-tiled": _edit(
            "grouped_query_attention",
            "np.repeat(split(X @ W_K, g), h // g, axis=-3)",
            "np.concatenate([split(X @ W_K, g)] * (h // g), axis=-3)",
        ).replace(
            "np.repeat(split(X @ W_V, g), h // g, axis=-3)",
            "np.concatenate([split(X @ W_V, g)] * (h // g), axis=-3)",
        ),
        "grouped_query_attention/heads-no-transpose": _edit(
            "grouped_query_attention",
            "        return np.swapaxes(x.reshape(x.shape[:-1] + (heads, d_k)), -3, -2)",
            "        return x.reshape(x.shape[:-2] + (heads, x.shape[-2], d_k))",
        )
        .replace(
            "    out = np.swapaxes(_attention(Q, K, V, mask), -3, -2)", "    out = _attention(Q, K, V, mask)"
        )
        .replace(
            "    return out.reshape(out.shape[:-2] + (d_model,)) @ W_O",
            "    return out.reshape(out.shape[:-3] + (out.shape[-2], d_model)) @ W_O",
        ),
        "cross_attention/q-from-encoder": _edit(
            "cross_attention",
            "    Q = X_dec @ W_Q                                      # Q 来自 Decoder\n"
            "    K = X_enc @ W_K                                      # K、V 来自 Encoder\n"
            "    V = X_enc @ W_V\n",
            "    Q = X_enc @ W_Q\n    K = X_dec @ W_K\n    V = X_dec @ W_V\n",
        ),
        "cross_attention/causal-mask": _edit(
            "cross_attention",
            "    if enc_mask is not None:\n",
            "    scores = np.where(np.tril(np.ones(scores.shape[-2:], dtype=bool)), scores, -np.inf)\n"
            "    if enc_mask is not None:\n",
        ),
        "cross_attention/mask-on-queries": _edit(
            "cross_attention", "np.asarray(enc_mask)[..., None, :]", "np.asarray(enc_mask)[..., :, None]"
        ),
        "layer_norm/unbiased-variance": HEAD
        + (
            "def layer_norm(x, gamma, beta, eps=1e-5):\n"
            "    return gamma * (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, ddof=1, keepdims=True) + eps) + beta\n"
        ),
        "layer_norm/eps-outside-sqrt": HEAD
        + (
            "def layer_norm(x, gamma, beta, eps=1e-5):\n"
            "    return gamma * (x - x.mean(-1, keepdims=True)) / (x.std(-1, keepdims=True) + eps) + beta\n"
        ),
        "layer_norm/wrong-axis": HEAD
        + (
            "def layer_norm(x, gamma, beta, eps=1e-5):\n"
            "    ax = 0 if x.ndim == 1 else -2\n"
            "    return gamma * (x - x.mean(ax, keepdims=True)) / np.sqrt(x.var(ax, keepdims=True) + eps) + beta\n"
        ),
        "ffn/gelu-tanh": _edit(
            "ffn",
            "hidden = 0.5 * hidden * (1.0 + _erf(hidden / math.sqrt(2.0)))",
            "hidden = 0.5 * hidden * (1.0 + np.tanh(math.sqrt(2 / math.pi) * (hidden + 0.044715 * hidden ** 3)))",
        ),
        "ffn/activation-after-output": HEAD
        + (
            "def ffn(x, W_1, b_1, W_2, b_2, activation='relu'):\n"
            "    act = (lambda z: np.maximum(z, 0)) if activation == 'relu' else "
            "(lambda z: 0.5 * z * (1 + np.vectorize(math.erf)(z / math.sqrt(2))))\n"
            "    return act(act(x @ W_1 + b_1) @ W_2 + b_2)\n"
        ),
        "sinusoidal_pe/sin-cos-swapped": _edit(
            "sinusoidal_pe", "pe[:, 0::2] = np.sin(angle)", "pe[:, 0::2] = np.cos(angle)"
        ).replace("pe[:, 1::2] = np.cos(angle)", "pe[:, 1::2] = np.sin(angle)"),
        "sinusoidal_pe/exponent-uses-dimension": HEAD
        + (
            "def sinusoidal_pe(S, d_model):\n    pe = np.zeros((S, d_model))\n"
            "    for pos in range(S):\n        for j in range(d_model):\n"
            "            a = pos / 10000 ** (j / d_model)\n"
            "            pe[pos, j] = math.sin(a) if j % 2 == 0 else math.cos(a)\n    return pe\n"
        ),
        "sinusoidal_pe/halves-not-interleaved": _edit(
            "sinusoidal_pe",
            "    pe = np.zeros((S, d_model))\n",
            "    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)\n",
        ),
        "rope/half-split-pairs": _edit(
            "rope",
            "x_even, x_odd = x[..., 0::2], x[..., 1::2]",
            "x_even, x_odd = x[..., : d // 2], x[..., d // 2 :]",
        )
        .replace("out[..., 0::2] =", "out[..., : d // 2] =")
        .replace("out[..., 1::2] =", "out[..., d // 2 :] ="),
        "rope/rotation-sign": _edit(
            "rope", "x_even * cos - x_odd * sin", "x_even * cos + x_odd * sin"
        ).replace("x_even * sin + x_odd * cos", "-x_even * sin + x_odd * cos"),
        "kv_cache_step/causal-mask-on-step": _edit(
            "kv_cache_step",
            "    e = np.exp(",
            "    scores = np.where(np.tril(np.ones(scores.shape, dtype=bool)), scores, -np.inf)\n    e = np.exp(",
        ),
        "kv_cache_step/append-after-attend": HEAD
        + (
            "def kv_cache_step(x_t, W_Q, W_K, W_V, K_cache, V_cache):\n"
            "    q = x_t @ W_Q\n"
            "    s = q @ K_cache.T / math.sqrt(q.shape[-1])\n"
            "    A = np.exp(s - s.max(-1, keepdims=True)) if s.size else s\n"
            "    A = A / A.sum(-1, keepdims=True) if s.size else A\n"
            "    out = A @ V_cache if s.size else np.zeros((1, W_V.shape[1]))\n"
            "    return out, np.vstack([K_cache, x_t @ W_K]), np.vstack([V_cache, x_t @ W_V])\n"
        ),
        "noam_lr/max-not-min": _edit("noam_lr", "np.minimum(", "np.maximum("),
        "noam_lr/warmup-exponent": _edit("noam_lr", "warmup ** -1.5", "warmup ** -0.5"),
        "noam_lr/no-d-model-factor": _edit("noam_lr", "d_model ** -0.5 * ", ""),
    }
)
