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


def _attention(scores="Q @ np.swapaxes(K, -1, -2)", scale="math.sqrt(Q.shape[-1])", fill="-np.inf",
               mask_line="np.where(mask, s, {fill})", softmax="_softmax(s)", after="", values="V"):
    return HEAD + _softmax_rows() + (
        "def attention(Q, K, V, mask=None):\n"
        f"    s = {scores}\n"
        f"    s = s / {scale}\n"
        "    if mask is not None:\n"
        f"        s = {mask_line.format(fill=fill)}\n"
        f"    A = {softmax}\n"
        f"{after}"
        f"    return A @ {values}, A\n"
    )


WRONG = {
    "softmax/no-max-subtraction": HEAD + "def softmax(x):\n    e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)\n",
    "softmax/wrong-axis": HEAD + (
        "def softmax(x):\n    x = np.asarray(x, dtype=float)\n    ax = 0 if x.ndim == 1 else -2\n"
        "    e = np.exp(x - x.max(axis=ax, keepdims=True))\n    return e / e.sum(axis=ax, keepdims=True)\n"),
    "softmax/whole-array": HEAD + "def softmax(x):\n    e = np.exp(x - np.max(x))\n    return e / np.sum(e)\n",
    "softmax/sigmoid": HEAD + "def softmax(x):\n    return 1 / (1 + np.exp(-x))\n",
    "attention/scale-by-dk": _attention(scale="Q.shape[-1]"),
    "attention/no-scale": _attention(scale="1"),
    "attention/softmax-wrong-axis": _attention(softmax="_softmax(s, axis=-2)"),
    "attention/no-max-subtraction": _attention(softmax="np.exp(s) / np.exp(s).sum(-1, keepdims=True)"),
    "attention/mask-after-softmax": _attention(mask_line="s", after="    if mask is not None:\n        A = A * mask\n"),
    "attention/mask-fill-zero": _attention(fill="0.0"),
    "attention/mask-inverted": _attention(mask_line="np.where(mask, {fill}, s)"),
    "attention/fully-masked-nan": _attention(
        softmax="np.exp(s - s.max(-1, keepdims=True)) / np.exp(s - s.max(-1, keepdims=True)).sum(-1, keepdims=True)"),
    "attention/transpose-0-1": _attention(scores="Q @ (np.swapaxes(K, 0, 1) if K.ndim > 2 else K.T)"),
    "attention/transpose-all-axes": _attention(scores="Q @ K.T"),
    "attention/weights-times-k": _attention(values="K"),
    "causal_mask/upper-triangle": HEAD + "def causal_mask(S):\n    return np.triu(np.ones((S, S), dtype=bool))\n",
    "causal_mask/masked-convention": HEAD + "def causal_mask(S):\n    return np.triu(np.ones((S, S)), k=1).astype(bool)\n",
    "causal_mask/no-diagonal": HEAD + "def causal_mask(S):\n    return np.tril(np.ones((S, S), dtype=bool), -1)\n",
    "padding_mask/masks-queries": HEAD + (
        "def padding_mask(lengths, S):\n    m = np.arange(S)[None, :] < np.asarray(lengths)[:, None]\n"
        "    return m[:, :, None]\n"),
    "padding_mask/inverted": HEAD + (
        "def padding_mask(lengths, S):\n    m = np.arange(S)[None, :] >= np.asarray(lengths)[:, None]\n"
        "    return m[:, None, :]\n"),
    "padding_mask/no-broadcast-axis": HEAD + (
        "def padding_mask(lengths, S):\n    return np.arange(S)[None, :] < np.asarray(lengths)[:, None]\n"),
    "padding_mask/off-by-one": HEAD + (
        "def padding_mask(lengths, S):\n    return (np.arange(S) <= np.asarray(lengths)[:, None])[:, None, :]\n"),
}
