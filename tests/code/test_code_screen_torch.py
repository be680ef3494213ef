"""Pilot: with PyTorch installed, the code screen shows PyTorch's result beside the learner's for the first case
whose values are wrong (computed after the results are shown)."""

from __future__ import annotations

import numpy as np
import pytest
from textual.widgets import TextArea

from drill.runner.verdict import _fmt
from tests.code.test_code_screen import make, result_text, run_and_wait
from tests.tui.conftest import wait_until

pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def test_pytorch_result_is_shown_beside_a_wrong_one(store):
    app = make(store, seed=7)
    async with app.run_test(size=(140, 60)) as pilot:
        screen = app.mode_screen
        screen.query_one("#code-editor", TextArea).load_text(
            "import numpy as np\n\ndef softmax(x):\n    return x\n"
        )
        await run_and_wait(pilot, screen)
        await wait_until(pilot, lambda: screen.torch_shown is screen.verdict, tries=5000)
        text = result_text(screen)
        assert "PyTorch (torch.softmax(x, dim=-1)) on random-1, beside yours:" in text
        first = next(g for g in screen.verdict.grades if g.status == "fail")
        import torch

        want = torch.softmax(torch.as_tensor(first.case.args[0]), dim=-1).numpy()
        index = first.mismatch.index
        assert np.isclose(want[index], first.mismatch.expected[index])
        after = text[text.index("beside yours:") :]
        assert _fmt(want[index]) in after and _fmt(first.mismatch.got[index]) in after


async def test_a_pass_adds_nothing_from_pytorch(store):
    from drill.engine.codetasks import get_task

    app = make(store)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        screen.query_one("#code-editor", TextArea).load_text(get_task("softmax").solution())
        await run_and_wait(pilot, screen)
        assert screen.verdict.all_passed
        # PyTorch's line comes from a worker: wait until no such worker is left to post it, then the negative
        # holds for good (a screen that looked PyTorch up on a pass would show its line by then).
        await wait_until(pilot, lambda: not torch_workers(app), tries=5000)
        assert screen.torch_shown is None and "PyTorch" not in result_text(screen)


def torch_workers(app) -> list:
    """The code screen's PyTorch workers not yet finished (group "code-torch")."""
    return [w for w in app.workers if w.group == "code-torch" and not w.is_finished]


@pytest.mark.parametrize(
    ("task", "mistake", "call"),
    [
        ("grouped_query_attention", "kv-heads-tiled", "enable_gqa=True"),
        ("sinusoidal_pe", "sin-cos-swapped", "10000^(2i/d)"),
        ("rope", "rotation-sign", "torch.polar"),
        ("kv_cache_step", "append-after-attend", "is_causal=True"),
        ("noam_lr", "max-not-min", "LambdaLR"),
    ],
)
async def test_pytorch_is_shown_for_the_tasks_without_a_building_block_too(store, task, mistake, call):
    """GQA/MQA, the positional encodings, the KV-cache step and Noam: PyTorch's value of the first wrong
    element, beside the learner's, is PyTorch's own (recomputed here from torch_ref on the failing case)."""
    from drill.runner import torch_ref
    from tests.code.submissions import WRONG

    app = make(store, task=task, seed=11)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = app.mode_screen
        screen.query_one("#code-editor", TextArea).load_text(WRONG[f"{task}/{mistake}"])
        await run_and_wait(pilot, screen)
        await wait_until(pilot, lambda: screen.torch_shown is screen.verdict, tries=5000)
        text = result_text(screen)
        first = next(g for g in screen.verdict.grades if g.status == "fail")
        assert call in text and f"on {first.case.name}, beside yours:" in text
        names = [o.name for o in screen.code_task.outputs]
        want = torch_ref.reference(task, first.case)[names.index(first.mismatch.output)]
        index = first.mismatch.index
        assert np.isclose(want[index], first.mismatch.expected[index])
        after = text[text.index("beside yours:") :]
        assert _fmt(want[index]) in after
