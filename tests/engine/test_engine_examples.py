"""Each named example computes what its chapter section describes."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from drill.engine import ops
from drill.engine.examples import EXAMPLES, build_example
from drill.errors import InputError


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_builds_and_serialises(name):
    trace = build_example(name)
    data = json.loads(trace.to_json())
    assert [s["name"] for s in data["steps"]] == list(trace.names())
    for step in trace:
        assert step.shape.startswith("[") and step.shape.endswith("]")
        assert not np.isnan(step.output).any(), f"{name}/{step.name} holds NaN"


def test_unknown_example_is_an_input_error():
    with pytest.raises(InputError, match="unknown example 'nope'.*worked"):
        build_example("nope")


def test_xxt_symmetric_scores_asymmetric_weights():
    t = build_example("xxt")
    s, a = t["xxt"].output, t["softmax"].output
    np.testing.assert_array_equal(s, s.T)
    assert a[0, 2] != pytest.approx(a[2, 0])
    assert a[0, 2] == pytest.approx(math.e / (2 * math.e + 1))
    assert a[2, 0] == pytest.approx(1 / (2 + math.e))
    shared = t["shared_scores"].output
    np.testing.assert_array_equal(shared, shared.T)
    assert not np.allclose(t["shared_softmax"].output, t["shared_softmax"].output.T)
    # the chapter's W_Q W_Kᵀ happens to be symmetric, so its "separate" S is symmetric too; the step says so
    assert np.allclose(t["bilinear"].output, t["bilinear"].output.T)
    assert "not a coincidence" in t["bilinear"].note


def test_scaling_table_and_variance():
    t = build_example("scaling")
    np.testing.assert_allclose(t["scale"].output, np.array([0, 1, 2, 3]) / math.sqrt(2))
    table = t["table"].output
    assert np.allclose(table[:, 1], table[0, 1])  # scaled: independent of d_k
    assert np.all(np.diff(table[:, 2]) >= 0) and table[-1, 2] > 0.999  # unscaled: saturates
    var = t["dot_variance"].output
    np.testing.assert_array_equal(var[:, 0], [1, 16, 64, 256])
    for d_k, raw, scaled in var:
        assert raw == pytest.approx(d_k, rel=1e-12)
        assert scaled == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("d_k", [1, 2, 3, 5])
def test_dot_variance_equals_brute_force_enumeration(d_k):
    # oracle: every (q, k) in {-1, +1}^d_k x {-1, +1}^d_k, equally likely; the population variance of q·k
    from itertools import product

    from drill.engine.examples.basics import dot_variance

    dots = [
        sum(a * b for a, b in zip(q, k, strict=True))
        for q in product((-1, 1), repeat=d_k)
        for k in product((-1, 1), repeat=d_k)
    ]
    mean = sum(dots) / len(dots)
    var = sum((v - mean) ** 2 for v in dots) / len(dots)
    raw, scaled = dot_variance(d_k)
    assert raw == pytest.approx(var, abs=1e-12)
    assert scaled == pytest.approx(var / d_k, abs=1e-12)


def test_softmax_naive_equals_stable_and_sigmoid_does_not_normalise():
    t = build_example("softmax")
    np.testing.assert_allclose(t["softmax"].output, t["stable_softmax"].output)
    assert np.all(t["stable_exp"].output <= 1.0)
    assert np.all(t["sigmoid_row_sum"].output > 1.0)
    assert t["overflow_threshold"].output[0] == pytest.approx(math.log(65504))


def test_stable_softmax_survives_huge_scores():
    a = ops.softmax(np.array([[1000.0, 999.0, -1000.0]]))
    assert np.isfinite(a).all() and a.sum() == pytest.approx(1.0)


def test_causal_example_matches_its_three_stages():
    t = build_example("causal")
    assert np.isneginf(t["masked"].output[np.triu_indices(3, 1)]).all()
    a = t["softmax"].output
    np.testing.assert_allclose(a[:2], [[1, 0, 0], [0.5, 0.5, 0]])
    np.testing.assert_allclose(a[2], build_example("worked")["softmax"].output[2])


def test_padding_row():
    t = build_example("padding")
    a = t["softmax"].output[0]
    assert a[4] == 0 and a[5] == 0 and a.sum() == pytest.approx(1.0)
    assert t["softmax_unmasked"].output[0, 4:].sum() > 0.8


def test_padding_batch_broadcasts_a_b_by_s_mask():
    t = build_example("padding_batch")
    assert t["pad_mask"].output.shape == (2, 3) and t["pad_mask"].shape == "[B, S]"
    assert t["mask"].output.shape == (2, 3, 3)
    assert np.all(t["softmax"].output[1, :, 2] == 0)
    assert np.all(t["softmax"].output[0, :, 2] > 0)


def test_fully_masked_row_is_zero_with_a_note():
    t = build_example("fully_masked")
    assert np.all(t["softmax"].output[0] == 0) and np.all(t["weighted_sum"].output[0] == 0)
    assert "fully masked" in t["softmax"].note and "scaled_dot_product_attention" in t["softmax"].note
    assert t["softmax"].output[1:].sum(axis=1) == pytest.approx([1, 1])


def test_causal_padding_has_no_dead_row():
    t = build_example("causal_padding")
    assert t["softmax"].note is None
    assert np.all(t["softmax"].output[:, 2] == 0)


def test_mha_split_concat_and_output():
    t = build_example("mha")
    assert t["split_heads"].output.shape == (2, 3, 2)
    assert t["scores"].shape == "[h, S, S]"
    heads = t["weighted_sum"].output
    np.testing.assert_allclose(t["concat_heads"].output, np.concatenate([heads[0], heads[1]], axis=1))
    np.testing.assert_allclose(t["output_proj"].output, t["concat_heads"].output)  # W_O = I


def test_mha_concat_toy():
    np.testing.assert_allclose(build_example("mha_concat")["output_proj"].output, [0.6, 0.8, 0.2, 0.5])


@pytest.mark.parametrize("name,groups", [("gqa", 2), ("mqa", 4)])
def test_gqa_and_mqa_share_kv_heads(name, groups):
    t = build_example(name)
    k = t["repeat_k"].output
    for i in range(4):
        np.testing.assert_array_equal(k[i], t["split_k"].output[i // groups])


def test_cross_attention_is_not_square():
    t = build_example("cross")
    assert t["scores"].output.shape == (2, 3)
    assert t["scores"].shape == "[S_dec, S_enc]"
    assert t["weighted_sum"].output.shape == (2, 2)


def test_residual_table():
    t = build_example("residual")
    np.testing.assert_allclose(t["without_residual"].output, 0.7 ** np.array([1, 4, 12, 24]))
    assert np.all(t["with_residual"].output >= 1.0)
    np.testing.assert_allclose(t["add"].output, t["x"].output + t["sublayer"].output)
    assert t["residual_chain"].output[1] == pytest.approx(1.7**4)


def test_layernorm_and_rmsnorm():
    t = build_example("layernorm")
    assert float(t["variance"].output) == 1.25  # biased: divide by d = 4
    np.testing.assert_allclose(t["affine"].output, ops.layer_norm(np.array([1.0, 2, 3, 4])))
    assert t["normalized"].output.mean() == pytest.approx(0.0, abs=1e-12)
    rms = t["rmsnorm"].output
    assert np.sqrt((rms**2).mean()) == pytest.approx(1.0, abs=1e-6)


def test_ffn_variants():
    t = build_example("ffn")
    np.testing.assert_allclose(t["output"].output[0], [2, 0])
    assert np.all(t["relu"].output >= 0)
    gap = np.abs(t["gelu"].output - t["gelu_tanh"].output).max()
    assert 0 < gap < 1e-3  # the tanh form is an approximation, close but not equal
    np.testing.assert_allclose(t["swiglu_hidden"].output, t["swiglu_gate"].output * t["swiglu_up"].output)


def test_positional_encoding():
    t = build_example("posenc")
    pe = t["pe"].output
    np.testing.assert_allclose(pe[0, 0::2], 0)
    np.testing.assert_allclose(pe[0, 1::2], 1)
    assert pe[1, 0] == pytest.approx(math.sin(1))
    assert float(t["pe_mean_square"].output) == pytest.approx(0.5)
    assert float(t["scaled_var"].output) == pytest.approx(1.0, abs=0.02)
    assert float(t["shift_error"].output) < 1e-10


def test_rope_relative_property_in_the_example():
    t = build_example("rope")
    assert float(t["toeplitz_error"].output) < 1e-12
    s = t["scores"].output
    for off in range(-4, 5):
        assert np.ptp(np.diagonal(s, offset=off)) < 1e-12


def test_kvcache_example():
    t = build_example("kvcache")
    assert float(t["max_difference"].output) < 1e-12
    np.testing.assert_array_equal(t["passes"].output, [1, 3])
    np.testing.assert_array_equal(t["kv_projections"].output, [10, 4])


def test_noam_peaks_at_warmup():
    t = build_example("noam")
    lr, step = t["lr"].output, t["step"].output
    assert step[np.argmax(lr)] == 4000
    assert float(t["peak"].output) == pytest.approx((512 * 4000) ** -0.5)


def test_params():
    t = build_example("params")
    np.testing.assert_allclose(t["per_d2"].output, [3, 4, 8, 8])
    assert t["qkv_heads"].output[2] == 12 * t["qkv_heads"].output[0]
