"""Agreement with PyTorch (CPU, float64) to 1e-6 on random inputs of several shapes.

Mind the conventions: SDPA's boolean attn_mask means True = may attend; nn.MultiheadAttention's boolean masks
mean True = masked. The engine uses row vectors (x @ W), so PyTorch's Linear weights are transposed.
"""

from __future__ import annotations

import numpy as np
import pytest

from drill.engine import ops
from drill.engine.attention import attention_trace, cross_attention_trace

torch = pytest.importorskip("torch")
F = torch.nn.functional

SHAPES = [(1, 1, 4, 1), (2, 5, 8, 2), (3, 7, 12, 3), (2, 16, 32, 4), (1, 9, 16, 8)]  # (B, S, d_model, h)
TOL = dict(atol=1e-6, rtol=0)


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def weights(rng, d_model, h, g=None):
    g = h if g is None else g
    d_k = d_model // h
    wq = rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)
    wk = rng.standard_normal((d_model, g * d_k)) / np.sqrt(d_model)
    wv = rng.standard_normal((d_model, g * d_k)) / np.sqrt(d_model)
    wo = rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)
    return wq, wk, wv, wo


def heads_of(a, b, s, h):
    return t(a.reshape(b, s, h, -1).transpose(0, 2, 1, 3))


@pytest.mark.parametrize("b,s,d,h", SHAPES)
@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_is_causal(b, s, d, h, causal):
    rng = np.random.default_rng(s * 31 + d)
    x = rng.standard_normal((b, s, d))
    wq, wk, wv, wo = weights(rng, d, h)
    trace = attention_trace(x, wq, wk, wv, wo, heads=h, causal=causal)
    q, k, v = (heads_of(x @ w, b, s, h) for w in (wq, wk, wv))
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    ours = trace["weighted_sum"].output if h > 1 else trace["weighted_sum"].output[:, None]
    np.testing.assert_allclose(ours, ref.numpy(), **TOL)


@pytest.mark.parametrize("b,s,d,h", SHAPES)
def test_sdpa_boolean_padding_mask_with_dead_rows(b, s, d, h):
    rng = np.random.default_rng(s + 7 * d)
    x = rng.standard_normal((b, s, d))
    wq, wk, wv, wo = weights(rng, d, h)
    pad = rng.integers(0, 2, (b, s)).astype(bool)
    pad[0, :] = False if s > 1 and b > 1 else pad[0, :]  # a sequence with every key padded (all rows dead)
    trace = attention_trace(x, wq, wk, wv, wo, heads=h, causal=True, pad=pad)
    allowed = torch.from_numpy(pad[:, None, None, :] & np.tril(np.ones((s, s), dtype=bool))[None, None])
    q, k, v = (heads_of(x @ w, b, s, h) for w in (wq, wk, wv))
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)  # True = attend; dead rows → 0
    ours = trace["weighted_sum"].output if h > 1 else trace["weighted_sum"].output[:, None]
    np.testing.assert_allclose(ours, ref.numpy(), **TOL)
    assert not np.isnan(trace["softmax"].output).any()


@pytest.mark.parametrize("h,g", [(4, 2), (4, 1), (8, 2)])
def test_sdpa_enable_gqa(h, g):
    rng = np.random.default_rng(h * 10 + g)
    b, s, d = 2, 6, 16
    x = rng.standard_normal((b, s, d))
    wq, wk, wv, wo = weights(rng, d, h, g)
    trace = attention_trace(x, wq, wk, wv, wo, heads=h, kv_heads=g, causal=True)
    q = heads_of(x @ wq, b, s, h)
    k, v = heads_of(x @ wk, b, s, g), heads_of(x @ wv, b, s, g)
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    np.testing.assert_allclose(trace["weighted_sum"].output, ref.numpy(), **TOL)


def _mha_module(d, h, wq, wk, wv, wo):
    mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True).double()
    with torch.no_grad():
        mha.in_proj_weight.copy_(t(np.concatenate([wq.T, wk.T, wv.T])))
        mha.out_proj.weight.copy_(t(wo.T))
    return mha.eval()


@pytest.mark.parametrize("b,s,d,h", SHAPES)
@pytest.mark.parametrize("average", [False, True])
def test_nn_multihead_attention(b, s, d, h, average):
    rng = np.random.default_rng(b * 100 + s * 10 + d)
    x = rng.standard_normal((b, s, d))
    wq, wk, wv, wo = weights(rng, d, h)
    keep = np.ones((b, s), dtype=bool)
    keep[:, -1] = s == 1  # pad the last token (unless that would pad everything)
    trace = attention_trace(x, wq, wk, wv, wo, heads=h, causal=True, pad=keep)
    mha = _mha_module(d, h, wq, wk, wv, wo)
    causal_masked = t(np.triu(np.ones((s, s), dtype=bool), 1))  # True = masked (the opposite of SDPA)
    out, attn = mha(
        t(x),
        t(x),
        t(x),
        attn_mask=causal_masked,
        key_padding_mask=t(~keep),
        need_weights=True,
        average_attn_weights=average,
    )
    np.testing.assert_allclose(trace["output_proj"].output, out.detach().numpy(), **TOL)
    a = trace["softmax"].output
    if h == 1:
        a = a[:, None]
    np.testing.assert_allclose(a.mean(axis=1) if average else a, attn.detach().numpy(), **TOL)


def test_nn_multihead_cross_attention():
    rng = np.random.default_rng(5)
    b, s_dec, s_enc, d, h = 2, 4, 7, 8, 2
    dec, enc = rng.standard_normal((b, s_dec, d)), rng.standard_normal((b, s_enc, d))
    wq, wk, wv, wo = weights(rng, d, h)
    trace = cross_attention_trace(dec, enc, wq, wk, wv, wo, heads=h)
    out, attn = _mha_module(d, h, wq, wk, wv, wo)(t(dec), t(enc), t(enc), average_attn_weights=False)
    np.testing.assert_allclose(trace["output_proj"].output, out.detach().numpy(), **TOL)
    np.testing.assert_allclose(trace["softmax"].output, attn.detach().numpy(), **TOL)
    assert trace["scores"].output.shape == (b, h, s_dec, s_enc)


@pytest.mark.parametrize("shape", [(4,), (3, 8), (2, 5, 16), (2, 3, 4, 7)])
def test_layer_norm(shape):
    rng = np.random.default_rng(len(shape))
    x = rng.standard_normal(shape) * 3 + 1
    gamma, beta = rng.standard_normal(shape[-1]), rng.standard_normal(shape[-1])
    ref = F.layer_norm(t(x), (shape[-1],), t(gamma), t(beta), eps=1e-5)
    np.testing.assert_allclose(ops.layer_norm(x, gamma, beta, eps=1e-5), ref.numpy(), **TOL)


def test_rms_norm():
    rng = np.random.default_rng(1)
    x, gamma = rng.standard_normal((3, 6, 10)), rng.standard_normal(10)
    ref = F.rms_norm(t(x), (10,), t(gamma), eps=1e-6)
    np.testing.assert_allclose(ops.rms_norm(x, gamma, eps=1e-6), ref.numpy(), **TOL)


@pytest.mark.parametrize("shape", [(7,), (4, 9), (2, 3, 11)])
def test_gelu_exact_and_tanh(shape):
    x = np.random.default_rng(3).standard_normal(shape) * 4
    np.testing.assert_allclose(ops.gelu(x), F.gelu(t(x)).numpy(), **TOL)
    np.testing.assert_allclose(ops.gelu_tanh(x), F.gelu(t(x), approximate="tanh").numpy(), **TOL)
    assert not np.allclose(ops.gelu(x), ops.gelu_tanh(x), atol=1e-9, rtol=0)


def test_silu_and_softmax():
    x = np.random.default_rng(4).standard_normal((5, 9)) * 10
    np.testing.assert_allclose(ops.silu(x), F.silu(t(x)).numpy(), **TOL)
    np.testing.assert_allclose(ops.softmax(x), F.softmax(t(x), dim=-1).numpy(), **TOL)


def test_large_trace_on_the_blocked_path_matches_sdpa():
    from drill.engine import parallel

    b, s, d, h = 2, 256, 64, 4
    # big enough for the multi-core path, where available
    assert b * h * s * s >= parallel.MIN_PARALLEL_ELEMENTS
    rng = np.random.default_rng(11)
    x = rng.standard_normal((b, s, d))
    wq, wk, wv, wo = weights(rng, d, h)
    pad = np.ones((b, s), dtype=bool)
    pad[1, -40:] = False
    trace = attention_trace(x, wq, wk, wv, wo, heads=h, causal=True, pad=pad)
    allowed = torch.from_numpy(pad[:, None, None, :] & np.tril(np.ones((s, s), dtype=bool))[None, None])
    q, k, v = (heads_of(x @ w, b, s, h) for w in (wq, wk, wv))
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
    np.testing.assert_allclose(trace["weighted_sum"].output, ref.numpy(), **TOL)
