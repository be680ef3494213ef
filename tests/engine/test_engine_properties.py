"""Property tests (hypothesis) for the attention engine."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.engine import ops
from drill.engine.attention import attention_trace, decode_with_cache

FAST = settings(max_examples=60, deadline=None)


@st.composite
def problems(draw, max_s=6, heads_choices=(1, 2)):
    """Random X [S, d_model] and weights, from a seed (numbers stay in a sensible range)."""
    seed = draw(st.integers(0, 2**32 - 1))
    s = draw(st.integers(1, max_s))
    h = draw(st.sampled_from(heads_choices))
    d_k = draw(st.integers(1, 3))
    d_model = draw(st.integers(1, 5))
    scale = draw(st.sampled_from([0.1, 1.0, 3.0]))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((s, d_model)) * scale
    wq, wk, wv = (rng.standard_normal((d_model, h * d_k)) for _ in range(3))
    wo = rng.standard_normal((h * d_k, d_model)) if h > 1 else None
    return dict(x=x, wq=wq, wk=wk, wv=wv, wo=wo, heads=h, rng=rng)


def run(p, **kw):
    return attention_trace(p["x"], p["wq"], p["wk"], p["wv"], p["wo"], heads=p["heads"], **kw)


def final(trace):
    return trace.steps[-1].output


@FAST
@given(problems(), st.booleans())
def test_rows_of_a_sum_to_one(p, causal):
    a = run(p, causal=causal)["softmax"].output
    np.testing.assert_allclose(a.sum(axis=-1), 1.0, atol=1e-12)
    assert np.all(a >= 0)


@FAST
@given(problems())
def test_permutation_equivariance_without_positions(p):
    perm = p["rng"].permutation(p["x"].shape[0])
    out = final(run(p))
    permuted = dict(p, x=p["x"][perm])
    np.testing.assert_allclose(final(run(permuted)), out[perm], atol=1e-10)


@FAST
@given(problems(max_s=7), st.data())
def test_causal_outputs_ignore_the_future(p, data):
    s = p["x"].shape[0]
    t = data.draw(st.integers(0, s - 1))
    changed = p["x"].copy()
    changed[t + 1 :] = p["rng"].standard_normal(changed[t + 1 :].shape) * 5
    before = final(run(p, causal=True))
    after = final(run(dict(p, x=changed), causal=True))
    np.testing.assert_allclose(after[: t + 1], before[: t + 1], atol=1e-10)


@FAST
@given(problems(), st.data())
def test_padded_keys_get_zero_weight(p, data):
    s = p["x"].shape[0]
    pad = np.array(data.draw(st.lists(st.sampled_from([0, 1]), min_size=s, max_size=s)))
    trace = run(p, pad=pad)
    a = trace["softmax"].output
    assert np.all(a[..., pad == 0] == 0)
    if pad.any():
        np.testing.assert_allclose(a.sum(axis=-1), 1.0, atol=1e-12)
    else:  # every key masked: zeros, never NaN
        assert np.all(a == 0) and "fully masked" in trace["softmax"].note
    # changing the padded tokens' values changes nothing for the real queries' outputs
    if pad.any() and (pad == 0).any():
        x2 = p["x"].copy()
        x2[pad == 0] += 7.0
        out1, out2 = final(trace), final(run(dict(p, x=x2), pad=pad))
        np.testing.assert_allclose(out2[pad == 1], out1[pad == 1], atol=1e-9)


@FAST
@given(problems(heads_choices=(1,)))
def test_one_head_multi_head_equals_single_head(p):
    single = attention_trace(p["x"], p["wq"], p["wk"], p["wv"])
    multi = attention_trace(p["x"], p["wq"], p["wk"], p["wv"], np.eye(p["wv"].shape[1]), heads=1, kv_heads=1)
    np.testing.assert_allclose(multi["output_proj"].output, single["weighted_sum"].output, atol=1e-12)


@FAST
@given(problems(heads_choices=(1,)))
def test_kv_cache_decoding_equals_full_causal_pass(p):
    full = run(p, causal=True)["weighted_sum"].output
    decoded, cache, projections = decode_with_cache(p["x"], p["wq"], p["wk"], p["wv"])
    np.testing.assert_allclose(decoded, full, atol=1e-10)
    assert cache.k.shape[0] == p["x"].shape[0] == projections


@FAST
@given(
    st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(0, 40), st.integers(0, 40), st.integers(-20, 20)
)
def test_rope_scores_depend_only_on_the_offset(seed, half, m, n, shift):
    rng = np.random.default_rng(seed)
    d = 2 * half
    q, k = rng.standard_normal(d), rng.standard_normal(d)

    def score(i, j):
        return ops.rope(q[None], np.array([i]))[0] @ ops.rope(k[None], np.array([j]))[0]

    shift = max(shift, -min(m, n))
    assert abs(score(m, n) - score(m + shift, n + shift)) < 1e-9
    assert abs(score(m, n) - q @ ops.rope(k[None], np.array([n - m]))[0]) < 1e-9


@FAST
@given(problems(max_s=5, heads_choices=(2, 4)), st.sampled_from([1, 2]))
def test_gqa_equals_mha_with_repeated_kv_weights(p, g):
    h = p["heads"]
    if h % g:
        g = 1
    d_model = p["x"].shape[1]
    d_k = p["wq"].shape[1] // h
    rng = p["rng"]
    wk_g = rng.standard_normal((d_model, g * d_k))
    wv_g = rng.standard_normal((d_model, g * d_k))
    gqa = attention_trace(p["x"], p["wq"], wk_g, wv_g, p["wo"], heads=h, kv_heads=g)
    # expand the KV weights so each query head gets its group's columns: plain MHA must agree
    idx = np.concatenate([np.arange(d_k) + (i // (h // g)) * d_k for i in range(h)])
    mha = attention_trace(p["x"], p["wq"], wk_g[:, idx], wv_g[:, idx], p["wo"], heads=h)
    np.testing.assert_allclose(final(gqa), final(mha), atol=1e-10)


@FAST
@given(st.lists(st.floats(-50, 50), min_size=1, max_size=8))
def test_softmax_is_shift_invariant_and_finite(values):
    z = np.array([values])
    a = ops.softmax(z)
    np.testing.assert_allclose(a, ops.softmax(z + 123.0), atol=1e-12)
    assert np.isfinite(a).all() and abs(a.sum() - 1) < 1e-12
