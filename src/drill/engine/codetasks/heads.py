"""Tasks 5-7 and 12: multi-head and grouped-query attention, cross-attention, one KV-cache step (7.14, 7.18,
7.22) — the attention layers built on task 2's scaled dot-product attention: the engine's answers (oracles),
the hidden tests, the tasks."""

from __future__ import annotations

import numpy as np

from drill.engine import ops
from drill.engine.codetasks.basic import attention_oracle
from drill.engine.codetasks.model import Case, Output, Task
from drill.engine.codetasks.model import normal as _n
from drill.i18n import N_

# ---------------------------------------------------------------- oracles


def _split(x, h):
    return np.swapaxes(x.reshape(x.shape[:-1] + (h, x.shape[-1] // h)), -2, -3)


def _merge(x):
    x = np.swapaxes(x, -2, -3)
    return x.reshape(x.shape[:-2] + (-1,))


def gqa_oracle(X, W_Q, W_K, W_V, W_O, h, g, mask=None):
    X = np.asarray(X, dtype=np.float64)
    d_model = W_Q.shape[1]
    if d_model % h:
        raise ValueError(f"d_model = {d_model} is not a multiple of h = {h}")
    if h % g:
        raise ValueError(f"h = {h} is not a multiple of g = {g}")
    q, k, v = _split(X @ W_Q, h), _split(X @ W_K, g), _split(X @ W_V, g)
    k, v = (
        np.repeat(k, h // g, axis=-3),
        np.repeat(v, h // g, axis=-3),
    )  # query head i uses kv head i // (h/g)
    m = None if mask is None else np.asarray(mask, dtype=bool)[..., None, :, :]
    out, _ = attention_oracle(q, k, v, m)
    return _merge(out) @ W_O


def mha_oracle(X, W_Q, W_K, W_V, W_O, h, mask=None):
    return gqa_oracle(X, W_Q, W_K, W_V, W_O, h, h, mask)


def cross_oracle(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None):
    Q, K, V = np.asarray(X_dec) @ W_Q, np.asarray(X_enc) @ W_K, np.asarray(X_enc) @ W_V
    mask = None if enc_mask is None else np.asarray(enc_mask, dtype=bool)[..., None, :]
    return attention_oracle(Q, K, V, mask)


def kv_oracle(x_t, W_Q, W_K, W_V, K_cache, V_cache):
    K = np.vstack([K_cache, x_t @ W_K])
    V = np.vstack([V_cache, x_t @ W_V])
    out, _ = attention_oracle(x_t @ W_Q, K, V)  # the cache holds exactly the tokens <= t: no mask
    return out, K, V


# ---------------------------------------------------------------- hidden tests


def _mha_args(rng, lead, S, d_model, h, g=None):
    d_k = d_model // h
    kv = d_model if g is None else g * d_k
    return (
        _n(rng, *lead, S, d_model),
        _n(rng, d_model, d_model, scale=0.5),
        _n(rng, d_model, kv, scale=0.5),
        _n(rng, d_model, kv, scale=0.5),
        _n(rng, d_model, d_model, scale=0.5),
    )


def mha_cases(rng) -> list[Case]:
    cases = []
    for i, (lead, h) in enumerate((((), 2), ((2,), 4), ((2,), 1))):
        S = int(rng.integers(2, 6))
        cases.append(Case(f"random-{i + 1}", _mha_args(rng, lead, S, 4 * h if h > 1 else 3, h) + (h,)))
    cases += [
        Case(
            "heads-gt-1",
            _mha_args(rng, (2,), 4, 6, 3) + (3,),
            pitfall="multi_head_attention/heads-no-transpose",
        ),
        Case(
            "output-projection",
            _mha_args(rng, (), 3, 4, 2) + (2,),
            pitfall="multi_head_attention/no-output-projection",
        ),
        Case(
            "scale-per-head",
            _mha_args(rng, (), 3, 8, 4) + (4,),
            pitfall="multi_head_attention/scale-by-d-model",
        ),
        Case("causal", _mha_args(rng, (2,), 4, 4, 2) + (2,), {"mask": ops.causal_allowed(4)}),
        Case("s-eq-1", _mha_args(rng, (), 1, 4, 2) + (2,)),
        Case("d-model-not-multiple-of-h", _mha_args(rng, (), 3, 6, 1) + (4,), expect_error=True),
    ]
    return cases


def gqa_cases(rng) -> list[Case]:
    cases = []
    for i, (lead, h, g) in enumerate((((), 4, 2), ((2,), 6, 3), ((2,), 4, 4))):
        cases.append(
            Case(f"random-{i + 1}", _mha_args(rng, lead, int(rng.integers(2, 6)), 2 * h, h, g) + (h, g))
        )
    cases += [
        Case(
            "groups",
            _mha_args(rng, (2,), 3, 8, 4, 2) + (4, 2),
            pitfall="grouped_query_attention/kv-heads-tiled",
        ),
        Case("mqa-g-eq-1", _mha_args(rng, (), 4, 6, 3, 1) + (3, 1)),
        Case(
            "heads-gt-1",
            _mha_args(rng, (2,), 4, 6, 3, 3) + (3, 3),
            pitfall="grouped_query_attention/heads-no-transpose",
        ),
        Case("causal", _mha_args(rng, (), 4, 8, 4, 2) + (4, 2), {"mask": ops.causal_allowed(4)}),
        Case("d-model-not-multiple-of-h", _mha_args(rng, (), 3, 6, 1, 1) + (4, 2), expect_error=True),
        Case("h-not-multiple-of-g", _mha_args(rng, (), 3, 6, 3, 1) + (3, 2), expect_error=True),
    ]
    return cases


def _cross_args(rng, lead, s_dec, s_enc, d_model, d_k, d_v):
    return (
        _n(rng, *lead, s_dec, d_model),
        _n(rng, *lead, s_enc, d_model),
        _n(rng, d_model, d_k),
        _n(rng, d_model, d_k),
        _n(rng, d_model, d_v),
    )


def cross_cases(rng) -> list[Case]:
    cases = [
        Case(
            f"random-{i + 1}",
            _cross_args(rng, lead, int(rng.integers(2, 5)), int(rng.integers(2, 7)), 4, 3, 2),
        )
        for i, lead in enumerate(((), (2,)))
    ]
    lengths = np.array([5, 3])
    cases += [
        Case("sdec-ne-senc", _cross_args(rng, (), 2, 5, 4, 3, 3), pitfall="cross_attention/q-from-encoder"),
        Case("no-causal", _cross_args(rng, (), 4, 4, 4, 2, 2), pitfall="cross_attention/causal-mask"),
        Case(
            "encoder-padding",
            _cross_args(rng, (2,), 3, 5, 4, 3, 2),
            {"enc_mask": np.arange(5)[None, :] < lengths[:, None]},
        ),
        Case(
            "mask-keys",
            _cross_args(rng, (2,), 4, 4, 4, 2, 2),
            {"enc_mask": np.arange(4)[None, :] < np.array([4, 2])[:, None]},
            pitfall="cross_attention/mask-on-queries",
        ),
        Case("s-eq-1", _cross_args(rng, (), 1, 1, 3, 2, 2)),
    ]
    return cases


MIN_CURRENT_WEIGHT = 0.1  # the current token's attention weight at every step, at least
MIN_STEP_CHANGE = 0.05  # how far (max |Δ|) leaving the current token out moves every step's output, at least


def _every_step_counts(x, W_Q, W_K, W_V) -> bool:
    """At every step the current token weighs at least MIN_CURRENT_WEIGHT, and leaving it out (attending before
    appending) moves the output by at least MIN_STEP_CHANGE: no step can pass with the token's k, v missing."""
    q, k, v = x @ W_Q, x @ W_K, x @ W_V
    for t in range(1, x.shape[0]):
        s = q[t] @ k[: t + 1].T / np.sqrt(W_Q.shape[1])
        w = np.exp(s - s.max())
        w /= w.sum()
        before = np.exp(s[:t] - s[:t].max())
        before /= before.sum()
        if w[t] < MIN_CURRENT_WEIGHT or np.abs(w @ v[: t + 1] - before @ v[:t]).max() < MIN_STEP_CHANGE:
            return False
    return True


def kv_cases(rng) -> list[Case]:
    d_model, d_k, d_v, S = 4, 3, 2, 5
    for _ in range(1000):  # redrawn until every step counts (a few draws: most inputs pass)
        x = _n(rng, S, d_model)
        W_Q, W_K, W_V = _n(rng, d_model, d_k), _n(rng, d_model, d_k), _n(rng, d_model, d_v)
        if _every_step_counts(x, W_Q, W_K, W_V):
            break
    else:  # pragma: no cover - not seen in 10,000 seeds
        raise RuntimeError("no KV-cache inputs where every step counts")
    cases = []
    for t in range(S):
        pitfall = {2: "kv_cache_step/causal-mask-on-step", 3: "kv_cache_step/append-after-attend"}.get(t)
        cases.append(
            Case(f"step-{t + 1}", (x[t : t + 1], W_Q, W_K, W_V, x[:t] @ W_K, x[:t] @ W_V), pitfall=pitfall)
        )
    return cases


# ---------------------------------------------------------------- the tasks

MHA = Task(
    name="multi_head_attention",
    number=5,
    section="7.14",
    title_msgid=N_("Multi-Head Attention"),
    prompt_msgid=N_(
        "Implement multi-head attention: split into heads → scaled dot-product attention in each "
        "head → concatenate → apply $W_O$.\n"
        "\n"
        "$$\\text{MultiHead}(X) = \\text{Concat}(\\text{head}_1, \\dots, \\text{head}_h)W_O,\\quad "
        "\\text{head}_i = \\text{Attention}(XW_Q^{(i)}, XW_K^{(i)}, XW_V^{(i)})$$\n"
        "\n"
        "- `X`: `[..., S, d_model]` (leading batch dimensions allowed); `W_Q, W_K, W_V, W_O`: "
        "`[d_model, d_model]` (row-vector convention: `X @ W`)\n"
        "- `h` heads, $d_k = d_{model}/h$ each; raise `ValueError` when $d_{model}$ is not "
        "divisible by $h$\n"
        "- `mask`: an optional boolean array broadcastable to `[..., S, S]`, True = may attend, "
        "the same for every head\n"
        "- Head i uses the i-th block of columns of the projections (`[:, i*d_k:(i+1)*d_k]`)\n"
        "- Return `[..., S, d_model]`"
    ),
    formula="\\text{MultiHead}(X) = \\text{Concat}(\\text{head}_1, \\dots, \\text{head}_h)W_O",
    signature="multi_head_attention(X, W_Q, W_K, W_V, W_O, h, mask=None)",
    outputs=(Output("out", "output_proj"),),
    order=(0,),
    budget_s=900,
    make_cases=mha_cases,
    oracle=mha_oracle,
)

GQA = Task(
    name="grouped_query_attention",
    number=6,
    section="7.14",
    title_msgid=N_("GQA / MQA"),
    prompt_msgid=N_(
        "Implement grouped-query attention: `h` query heads, `g` groups of K/V heads (g = 1 is "
        "MQA, g = h is MHA).\n"
        "\n"
        "- `X`: `[..., S, d_model]`; `W_Q, W_O`: `[d_model, d_model]`; `W_K, W_V`: `[d_model, "
        "g·d_k]`, $d_k = d_{model}/h$\n"
        "- Query head i uses K/V group `i // (h // g)` (each h/g neighbouring heads share one "
        "group, i.e. repeat_interleave)\n"
        "- Raise `ValueError` when $d_{model}$ is not divisible by h, or h is not divisible by g\n"
        "- `mask`: as in multi_head_attention; return `[..., S, d_model]`"
    ),
    formula="\\text{head}_i = \\text{Attention}(Q^{(i)}, K^{(\\lfloor i/(h/g) \\rfloor)}, V^{(\\lfloor i/(h/g) \\rfloor)})",
    signature="grouped_query_attention(X, W_Q, W_K, W_V, W_O, h, g, mask=None)",
    outputs=(Output("out", "output_proj"),),
    order=(0,),
    budget_s=900,
    make_cases=gqa_cases,
    oracle=gqa_oracle,
)

CROSS = Task(
    name="cross_attention",
    number=7,
    section="7.18",
    title_msgid=N_("Cross-Attention"),
    prompt_msgid=N_(
        "Implement the encoder-decoder cross-attention (one head): Q comes from the decoder, K/V "
        "from the encoder.\n"
        "\n"
        "$$\\text{CrossAttn} = "
        "\\text{softmax}\\left(\\frac{(X_{dec}W_Q)(X_{enc}W_K)^\\top}{\\sqrt{d_k}}\\right)X_{enc}W_V$$\n"
        "\n"
        "- `X_dec`: `[..., S_dec, d_model]`, `X_enc`: `[..., S_enc, d_model]`; `W_Q, W_K`: "
        "`[d_model, d_k]`, `W_V`: `[d_model, d_v]`\n"
        "- `enc_mask`: an optional boolean array `[..., S_enc]`, True = a real token (the "
        "encoder's padding mask)\n"
        "- Return `(out, A)`: `out` is `[..., S_dec, d_v]`, `A` is `[..., S_dec, S_enc]`"
    ),
    formula="\\text{softmax}\\left(\\frac{(X_{dec}W_Q)(X_{enc}W_K)^\\top}{\\sqrt{d_k}}\\right)X_{enc}W_V",
    signature="cross_attention(X_dec, X_enc, W_Q, W_K, W_V, enc_mask=None)",
    outputs=(Output("out", "weighted_sum"), Output("A", "softmax")),
    order=(1, 0),
    budget_s=600,
    make_cases=cross_cases,
    oracle=cross_oracle,
)

KV_CACHE = Task(
    name="kv_cache_step",
    number=12,
    section="7.22",
    title_msgid=N_("KV cache: one decoding step"),
    prompt_msgid=N_(
        "Implement one step of autoregressive decoding (one head): append the current token's k "
        "and v to the cache, then attend with the current q over the whole cache. The result must "
        "equal row t of the full causal forward pass.\n"
        "\n"
        "- `x_t`: `[1, d_model]` (token t); `W_Q, W_K`: `[d_model, d_k]`, `W_V`: `[d_model, d_v]`\n"
        "- `K_cache`: `[t, d_k]`, `V_cache`: `[t, d_v]` (the t tokens before; t may be 0)\n"
        "- Return `(out, K_cache, V_cache)`: `out` is `[1, d_v]`, the new caches `[t+1, d_k]` and "
        "`[t+1, d_v]`"
    ),
    formula="o_t = \\text{softmax}\\left(\\frac{q_t K_{\\le t}^\\top}{\\sqrt{d_k}}\\right)V_{\\le t}",
    signature="kv_cache_step(x_t, W_Q, W_K, W_V, K_cache, V_cache)",
    outputs=(Output("out", "weighted_sum"), Output("K_cache", "append_k"), Output("V_cache", "append_v")),
    order=(1, 2, 0),
    budget_s=600,
    make_cases=kv_cases,
    oracle=kv_oracle,
)

TASKS = (MHA, GQA, CROSS, KV_CACHE)
