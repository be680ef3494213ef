"""PyTorch's result for every hidden test of the tasks it has a building block for equals the engine's (PyTorch
is the independent oracle here), so the code screen can show it beside the learner's."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_tasks_without_a_pytorch_block_have_none():
    for name in ("sinusoidal_pe", "rope", "kv_cache_step", "noam_lr"):
        assert torch_ref.call(name) is None
        assert torch_ref.reference(name, TASKS[name].cases(1)[0]) is None
