"""Pilot tests of the calc screen's multi-head steps, the softmax worked as the chapter does, and the example
picker (issue 28): the output projection W_O against PyTorch's nn.MultiheadAttention, a broadcast mask level
with the per-head scores, the exponentials and row sums recomputed here, and `l` loading another example."""

from __future__ import annotations

import numpy as np
import pytest

from drill.engine.build import build_trace
from drill.engine.examples import EXAMPLES, W_K, W_Q, W_V, X
from drill.tui.app import make_app
from drill.tui.screens.calc import CalcScreen
from drill.tui.screens.calc_examples import ExamplePicker
from drill.tui.widgets.heatmap import Heatmap
from drill.tui.widgets.matrix_editor import MatrixEditor
from tests.helpers import plain
from tests.tui.conftest import wait_until
from tests.tui.test_calc import calc_ready

torch = pytest.importorskip("torch")


def torch_mha(x, wq, wk, wv, wo, heads: int, causal: bool = False) -> np.ndarray:
    """nn.MultiheadAttention with these weights (row-vector convention: PyTorch's Linear weights are the
    transposes), no biases; True in its attn_mask = masked."""
    d = x.shape[1]
    mha = torch.nn.MultiheadAttention(d, heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.from_numpy(np.concatenate([wq.T, wk.T, wv.T])))
        mha.out_proj.weight.copy_(torch.from_numpy(np.ascontiguousarray(wo.T)))
    s = x.shape[0]
    mask = torch.from_numpy(np.triu(np.ones((s, s), dtype=bool), 1)) if causal else None
    xt = torch.from_numpy(x)[None]
    out, _ = mha.eval()(xt, xt, xt, attn_mask=mask, need_weights=False)
    return out[0].detach().numpy()


async def go_to(pilot, screen: CalcScreen, name: str) -> None:
    while screen.trace.steps[screen.index].name != name:
        await pilot.press("right" if name in screen.trace.names()[screen.index :] else "left")


async def test_two_heads_end_with_w_o_and_match_nn_multihead_attention():
    app = make_app("calc", example="worked")  # single-head, no W_O
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        assert "output_proj" not in screen.trace.names()
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.model.state.heads == 2)
        assert screen.trace.names()[-2:] == ("concat_heads", "output_proj")
        identity = np.eye(2)
        np.testing.assert_allclose(
            screen.trace["output_proj"].output, torch_mha(X, W_Q, W_K, W_V, identity, 2), atol=1e-12
        )
        await go_to(pilot, screen, "output_proj")
        assert "identity" in plain(screen.query_one("#calc-note"))
        await pilot.press("h")  # back to one head: the stand-in W_O goes with the second head
        await wait_until(pilot, lambda: screen.model.state.heads == 1)
        assert screen.model.state.wo is None and "output_proj" not in screen.trace.names()
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.model.state.heads == 2)
        await go_to(pilot, screen, "output_proj")

        await pilot.press("e")  # the editor shows the W_O in use, and a typed one replaces it
        field = screen.query_one("#edit-W_O")
        await wait_until(pilot, lambda: screen.query_one(MatrixEditor).display)
        assert field.value == "1,0;0,1"
        field.value = "0.5,-1;2,0.25"
        field.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: not np.array_equal(screen.model.state.wo, identity))
        wo = np.array([[0.5, -1.0], [2.0, 0.25]])
        await pilot.press("escape")
        await pilot.press("c")
        await wait_until(pilot, lambda: screen.model.state.causal)
        np.testing.assert_allclose(
            screen.trace["output_proj"].output, torch_mha(X, W_Q, W_K, W_V, wo, 2, causal=True), atol=1e-12
        )
        assert screen.trace.steps[screen.index].name == "output_proj"
        assert "identity" not in plain(screen.query_one("#calc-note"))


def test_typed_multi_head_inputs_get_the_output_projection():
    trace = build_trace(x="1,0,1,0;0,1,0,1;1,1,0,0", heads=2)
    assert trace.names()[-1] == "output_proj"
    x = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]])
    eye = np.eye(4)
    np.testing.assert_allclose(trace["output_proj"].output, torch_mha(x, eye, eye, eye, eye, 2), atol=1e-12)


async def test_a_broadcast_mask_sits_level_with_the_per_head_scores():
    app = make_app("calc", example="worked")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await calc_ready(pilot)
        await pilot.press("h", "c")
        await wait_until(pilot, lambda: screen.model.state.heads == 2 and screen.model.state.causal)
        await go_to(pilot, screen, "masked")
        await pilot.pause()
        scores, mask, _out = screen.matrix_views()
        first_scores = next(p for p in scores.parts() if isinstance(p, Heatmap))
        mask_map = next(p for p in mask.parts() if isinstance(p, Heatmap))
        assert (
            mask_map.region.y == first_scores.region.y
            and mask_map.region.height == first_scores.region.height
        )
        assert "every head" in plain(mask.parts()[1])


async def test_the_softmax_step_shows_exponentials_and_row_sums():
    app = make_app("calc", example="worked")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await calc_ready(pilot)
        assert screen.worked_views() == []
        await go_to(pilot, screen, "softmax")
        await pilot.pause()
        exps = np.exp(screen.trace["scale"].output)  # recomputed here, from the step's input
        sums = exps.sum(axis=1)
        exp_view, sum_view = screen.worked_views()
        exp_map = next(p for p in exp_view.parts() if isinstance(p, Heatmap))
        sum_map = next(p for p in sum_view.parts() if isinstance(p, Heatmap))
        assert all(exp_map.cell_text(i, j) == f"{exps[i, j]:.3f}" for i in range(3) for j in range(3))
        assert all(sum_map.cell_text(i, 0) == f"{sums[i]:.3f}" for i in range(3))
        np.testing.assert_allclose(exps / sums[:, None], screen.trace["softmax"].output)
        assert "exponentials / row sums" in plain(screen.query_one("#calc-worked-title"))
        await pilot.press("right")
        await pilot.pause()
        assert screen.worked_views() == [] and not screen.query_one("#calc-worked-title").display


async def test_l_lists_the_examples_and_loads_the_chosen_one():
    assert any(b.key == "l" and b.action == "examples" for b in CalcScreen.BINDINGS)
    app = make_app("calc", example="worked")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        await pilot.press("right", "right")
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, ExamplePicker))
        options = app.screen.query_one("#example-list")
        assert options.option_count == len(EXAMPLES)
        assert options.highlighted == list(EXAMPLES).index("worked")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert screen.trace.example == "worked" and screen.index == 2

        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, ExamplePicker))
        app.screen.query_one("#example-list").highlighted = list(EXAMPLES).index("layernorm")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.trace.example == "layernorm")
        assert screen.index == 0 and app.screen is screen
        assert "LayerNorm" in plain(screen.query_one("#calc-header"))
