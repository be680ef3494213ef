"""7.12's worked example at every step, against the numbers the chapter prints, at its precision.

The chapter's values are typed in here from the text (not read from the engine). Its one rounding slip in this
example (A[1, 2] printed 0.504 for 0.50349) is kept in test_chapter_errata.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from drill.engine.examples import build_example


def near(actual, printed, decimals):
    actual, printed = np.asarray(actual, dtype=float), np.asarray(printed, dtype=float)
    assert actual.shape == printed.shape
    assert np.all(np.abs(actual - printed) <= 0.5 * 10.0**-decimals + 1e-9), (actual, printed)


@pytest.fixture(scope="module")
def worked():
    return build_example("worked")


def test_step0_input(worked):
    near(worked["x"].output, [[1, 0], [0, 1], [1, 1]], 0)
    assert worked["x"].shape == "[S, d_model]"


def test_step1_projections(worked):
    near(worked["project_q"].output, [[1, 0], [1, 1], [2, 1]], 0)
    near(worked["project_k"].output, [[0, 1], [1, 0], [1, 1]], 0)
    near(worked["project_v"].output, [[1, 0], [0, 1], [1, 1]], 0)


def test_step2_scores(worked):
    near(worked["scores"].output, [[0, 1, 1], [1, 1, 2], [1, 2, 3]], 0)
    assert worked["scores"].shape == "[S, S]"


def test_step3_scale(worked):
    near(worked["scale"].output, [[0, 0.707, 0.707], [0.707, 0.707, 1.414], [0.707, 1.414, 2.121]], 3)
    # recomputed from the engine's own scores: S / sqrt(d_k), d_k = 2 (K's columns)
    d_k = worked["project_k"].output.shape[1]
    assert d_k == 2
    np.testing.assert_allclose(
        worked["scale"].output, worked["scores"].output / math.sqrt(d_k), rtol=0, atol=1e-12
    )


def test_step4_softmax_intermediates():
    sm = build_example("softmax")
    exps = sm["exp"].output
    near(exps[0], [1, 2.028, 2.028], 3)
    near(exps[1], [2.028, 2.028, 4.113], 3)
    near(exps[2, :2], [2.028, 4.113], 3)  # exps[2, 2] = 8.342, printed 8.343: see the errata test
    near(sm["row_sum"].output, [5.056, 8.169, 14.484], 3)


def test_step4_softmax(worked):
    a = worked["softmax"].output
    near(a[0], [0.198, 0.401, 0.401], 3)
    near(a[1, :2], [0.248, 0.248], 3)
    near(a[2], [0.140, 0.284, 0.576], 3)
    np.testing.assert_allclose(a.sum(axis=1), 1.0)


def test_step5_output(worked):
    near(worked["weighted_sum"].output, [[0.599, 0.802], [0.752, 0.752], [0.716, 0.860]], 3)
    assert worked["weighted_sum"].shape == "[S, d_v]"


def test_shapes_follow_the_chapter(worked):
    dims = [
        tuple(worked[n].output.shape)
        for n in ("x", "project_q", "scores", "scale", "softmax", "weighted_sum")
    ]
    assert dims == [(3, 2), (3, 2), (3, 3), (3, 3), (3, 3), (3, 2)]


def test_every_step_has_formula_and_explanation(worked):
    for step in worked:
        assert step.formula and step.title and step.explanation
        assert step.output.dtype == np.float64
