"""The tasks' answers are the engine's: checked against the engine's traces and against PyTorch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.engine import ops
from drill.engine.attention import attention_trace, cross_attention_trace, decode_with_cache
from drill.engine.codetasks import TASKS, get_task
from drill.engine.codetasks import heads as L

torch = pytest.importorskip("torch")
F = torch.nn.functional


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    h=st.sampled_from([1, 2, 4]),
    g_div=st.sampled_from([1, 2, 4]),
    causal=st.booleans(),
)
def test_gqa_oracle_is_the_engine_trace(seed, h, g_div, causal):
    rng = np.random.default_rng(seed)
    g = max(1, h // g_div)
    d_model, S, B = 2 * h, int(rng.integers(1, 6)), int(rng.integers(1, 3))
    X, W_Q, W_K, W_V, W_O = L._mha_args(rng, (B,), S, d_model, h, g)
    mask = ops.causal_allowed(S) if causal else None
    trace = attention_trace(X, W_Q, W_K, W_V, W_O, heads=h, kv_heads=g, causal=causal)
    assert np.allclose(
        L.gqa_oracle(X, W_Q, W_K, W_V, W_O, h, g, mask), trace["output_proj"].output, atol=1e-12
    )


def test_mha_oracle_is_pytorch_multihead_attention():
    rng = np.random.default_rng(0)
    X, W_Q, W_K, W_V, W_O = L._mha_args(rng, (2,), 5, 8, 4)
    mha = torch.nn.MultiheadAttention(8, 4, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():  # PyTorch's Linear is x @ W.T: our W is its weight transposed
        mha.in_proj_weight.copy_(torch.from_numpy(np.concatenate([W_Q.T, W_K.T, W_V.T])))
        mha.out_proj.weight.copy_(torch.from_numpy(W_O.T))
    x = torch.from_numpy(X)
    causal = torch.from_numpy(~ops.causal_allowed(5))  # nn.MultiheadAttention: True = masked
    ref, _ = mha(x, x, x, attn_mask=causal, need_weights=False)
    assert np.allclose(
        L.mha_oracle(X, W_Q, W_K, W_V, W_O, 4, ops.causal_allowed(5)), ref.detach().numpy(), atol=1e-12
    )


def test_cross_oracle_is_the_engine_trace():
    rng = np.random.default_rng(1)
    X_dec, X_enc, W_Q, W_K, W_V = L._cross_args(rng, (2,), 3, 5, 4, 3, 3)
    pad = np.arange(5)[None, :] < np.array([5, 2])[:, None]
    out, A = L.cross_oracle(X_dec, X_enc, W_Q, W_K, W_V, pad)
    trace = cross_attention_trace(X_dec, X_enc, W_Q, W_K, W_V, pad=pad)
    assert np.allclose(out, trace["weighted_sum"].output) and np.allclose(A, trace["softmax"].output)


def test_kv_cache_cases_equal_the_full_causal_pass_and_the_engine_decoder():
    task = get_task("kv_cache_step")
    cases = task.cases(seed=5)
    x = np.vstack([c.args[0] for c in cases])
    _, W_Q, W_K, W_V, _, _ = cases[0].args
    full = attention_trace(x, W_Q, W_K, W_V, causal=True)["weighted_sum"].output
    decoded, _, _ = decode_with_cache(x, W_Q, W_K, W_V)
    steps = np.vstack([task.expected(c)[0] for c in cases])
    assert np.allclose(steps, full, atol=1e-12) and np.allclose(steps, decoded, atol=1e-12)


def test_layer_norm_and_ffn_agree_with_pytorch():
    for case in get_task("layer_norm").cases(seed=2):
        x, gamma, beta = case.args
        eps = case.kwargs.get("eps", 1e-5)
        ref = F.layer_norm(
            torch.from_numpy(x), (x.shape[-1],), torch.from_numpy(gamma), torch.from_numpy(beta), eps
        )
        assert np.allclose(get_task("layer_norm").expected(case)[0], ref.numpy(), atol=1e-10), case.name
    for case in get_task("ffn").cases(seed=2):
        x, W_1, b_1, W_2, b_2 = (torch.from_numpy(a) for a in case.args)
        act = F.gelu if case.kwargs.get("activation") == "gelu" else F.relu
        ref = act(x @ W_1 + b_1) @ W_2 + b_2
        assert np.allclose(get_task("ffn").expected(case)[0], ref.numpy(), atol=1e-10), case.name


def test_rope_keeps_dot_products_relative_and_pe_matches_the_formula():
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=(1, 8)), rng.normal(size=(1, 8))
    rope = get_task("rope").oracle
    dots = [(rope(q, np.array([m])) @ rope(k, np.array([m + 2])).T).item() for m in range(4)]
    assert np.allclose(dots, dots[0])  # depends on the offset only
    pe = get_task("sinusoidal_pe").oracle(3, 4)
    assert np.isclose(pe[2, 2], np.sin(2 / 10000 ** (2 / 4))) and np.isclose(
        pe[2, 3], np.cos(2 / 10000 ** (2 / 4))
    )


def test_noam_peaks_at_warmup():
    lr = get_task("noam_lr").oracle(np.arange(1, 9000), 512, 4000)
    assert int(np.argmax(lr)) + 1 == 4000


def test_every_task_has_cases_tied_to_its_mistakes():
    from drill.engine.mistakes import MISTAKES

    for name, task in TASKS.items():
        pitfalls = {c.pitfall for c in task.cases(seed=1)} - {None}
        assert pitfalls <= set(MISTAKES), name
        assert pitfalls, name
