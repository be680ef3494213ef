"""PyTorch's result for every hidden test of the tasks it has a building block for equals the engine's (PyTorch
is the independent oracle here), so the code screen can show it beside the learner's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drill.engine.codetasks import TASKS
from drill.runner import torch_ref

pytest.importorskip("torch")  # the test extras install it; the screen shows nothing without it


@pytest.mark.parametrize("name", sorted(torch_ref.REFERENCES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pytorch_agrees_with_the_engine_on_every_hidden_test(name, seed):
    task = TASKS[name]
    compared = 0
    for case in task.cases(seed):
        if case.expect_error:
            assert torch_ref.reference(name, case) is None, case.name  # PyTorch refuses it too
            continue
        got = torch_ref.reference(name, case)
        if got is None:  # a per-batch mask nn.MultiheadAttention takes only per head
            assert name == "multi_head_attention" and np.asarray(case.kwargs["mask"]).ndim != 2
            continue
        expected = task.expected(case)
        assert len(got) == len(expected) == len(task.outputs)
        for out, want, have in zip(task.outputs, expected, got, strict=True):
            if have is None:  # SDPA gives no weights
                continue
            compared += 1
            if out.kind == "bool":
                assert np.array_equal(np.asarray(have, dtype=bool), np.asarray(want, dtype=bool)), case.name
            else:
                np.testing.assert_allclose(have, want, rtol=1e-9, atol=1e-12, err_msg=f"{name}/{case.name}")
    assert compared >= 3


def test_every_task_has_a_pytorch_reference():
    assert set(torch_ref.REFERENCES) == set(TASKS)
    for name in TASKS:
        assert torch_ref.call(name)


def _solution(name: str):
    """The task's reference solution (drill's own file, run by the runner in a child for a learner; loaded
    here to call it on inputs the hidden tests do not hold)."""
    namespace: dict = {}
    exec(compile(TASKS[name].solution(), f"<solution {name}>", "exec"), namespace)
    return namespace[name]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
@pytest.mark.parametrize("name", sorted(TASKS))
def test_every_reference_solution_agrees_with_pytorch_on_random_inputs(name, seed):
    """drill's reference solution and PyTorch, on the hidden tests of a random seed (random shapes, batch sizes
    and values): the same outputs to 1e-9, the same refusals."""
    task, solve = TASKS[name], _solution(name)
    for case in task.cases(seed):
        ref = torch_ref.reference(name, case)
        if case.expect_error:
            assert ref is None, case.name
            with pytest.raises(ValueError):
                solve(*case.args, **case.kwargs)
            continue
        if ref is None:  # a per-batch mask nn.MultiheadAttention takes only per head
            assert name == "multi_head_attention" and np.asarray(case.kwargs["mask"]).ndim != 2
            continue
        got = solve(*case.args, **case.kwargs)
        got = got if isinstance(got, tuple) else (got,)
        for out, have, want in zip(task.outputs, got, ref, strict=True):
            if want is None:
                continue
            if out.kind == "bool":
                assert np.array_equal(np.asarray(have, dtype=bool), want), f"{name}/{case.name}"
            else:
                assert np.shape(have) == np.shape(want), f"{name}/{case.name}"
                np.testing.assert_allclose(have, want, rtol=1e-9, atol=1e-12, err_msg=f"{name}/{case.name}")


def test_the_new_references_are_pytorchs_own_computation():
    """The references without a PyTorch building block, checked by hand against the chapter's formulas: the
    GQA head grouping is repeat_interleave (reversing the K/V groups changes the answer), the sinusoidal
    encoding's sin on even and cos on odd columns with 10000^(2i/d), RoPE's interleaved pairs turned by
    +pos·θ_i, and Noam's warm-up and decay at the chapter's setting."""
    gqa = next(c for c in TASKS["grouped_query_attention"].cases(5) if c.name == "groups")
    right = torch_ref.reference("grouped_query_attention", gqa)[0]
    X, W_Q, W_K, W_V, W_O, h, g = gqa.args
    # tiling the K/V heads (head i uses group i % g) instead of repeat_interleave changes the answer
    perm = np.arange(W_K.shape[1]).reshape(g, -1)[::-1].reshape(-1)
    swapped = torch_ref.reference(
        "grouped_query_attention", type(gqa)(gqa.name, (X, W_Q, W_K[:, perm], W_V[:, perm], W_O, h, g))
    )[0]
    assert not np.allclose(right, swapped)
    (pe,) = torch_ref.reference("sinusoidal_pe", type(gqa)("pe", (3, 4)))
    assert pe[1, 0] == pytest.approx(np.sin(1.0)) and pe[1, 1] == pytest.approx(np.cos(1.0))
    assert pe[2, 2] == pytest.approx(np.sin(2 / 100)) and pe[2, 3] == pytest.approx(np.cos(2 / 100))
    x = np.array([[1.0, 0.0, 0.0, 1.0]])
    (rot,) = torch_ref.reference("rope", type(gqa)("rope", (x, np.array([1]))))
    # pair (x0, x1) = (1, 0) turned by +1 rad; pair (x2, x3) = (0, 1) by 1/100 rad
    np.testing.assert_allclose(rot, [[np.cos(1), np.sin(1), -np.sin(0.01), np.cos(0.01)]], rtol=1e-12)
    (lr,) = torch_ref.reference("noam_lr", type(gqa)("noam", (np.array([1, 4000, 16000]), 512, 4000)))
    np.testing.assert_allclose(lr, 512**-0.5 * np.array([4000**-1.5, 4000**-0.5, 16000**-0.5]), rtol=1e-12)
