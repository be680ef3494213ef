"""Pilot tests of `drill calc`'s screen: stepping, the causal/padding/heads switches, the matrix editor
(bad values give an inline message and the app keeps running) and random inputs. Values are checked against
the engine, not against numbers copied here."""

from __future__ import annotations

import numpy as np
import pytest
from textual.widgets import OptionList

from drill.engine.examples import X, build_example
from drill.tui.app import make_app
from drill.tui.screens.calc import CalcScreen
from drill.tui.widgets.matrix_editor import MatrixEditor
from tests.helpers import plain
from tests.tui.conftest import wait_until


async def calc_ready(pilot) -> CalcScreen:
    app = pilot.app
    await wait_until(
        pilot, lambda: app.error is not None or getattr(app.mode_screen, "model", None) is not None
    )
    assert app.error is None, app.error
    await pilot.pause()
    assert isinstance(app.mode_screen, CalcScreen)
    return app.mode_screen


def calc_text(screen: CalcScreen) -> str:
    """What the step's pane shows as plain text: the head, every matrix (a heatmap read back through the table
    it draws) and the note."""
    from drill.tui.widgets.heatmap import Heatmap

    texts = [plain(screen.query_one("#calc-step"))]
    for view in screen.matrix_views():
        for widget in view.parts():
            texts.append(
                plain_renderable(widget.renderable() if isinstance(widget, Heatmap) else widget.part)
            )
    texts.append(plain(screen.query_one("#calc-note")))
    return "".join(texts)


def plain_renderable(renderable) -> str:
    import io

    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def softmax(screen: CalcScreen) -> np.ndarray:
    return screen.trace["softmax"].output


async def test_left_and_right_step_through_the_trace():
    app = make_app("calc", example="worked")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        names = build_example("worked").names()
        assert screen.trace.names() == names and screen.index == 0
        steps = screen.query_one("#calc-steps", OptionList)
        for expected in range(1, 4):
            await pilot.press("right")
            assert screen.index == expected and steps.highlighted == expected
        step = screen.trace.steps[3]
        shown = calc_text(screen)
        assert step.title in shown and step.shape in shown and f"4/{len(names)}" in shown
        assert "in: x [3, 2]" in shown and "in: W_V [2, 2]" in shown and "out: project_v [3, 2]" in shown
        await pilot.press("left", "left")
        assert screen.index == 1
        for _ in range(20):
            await pilot.press("right")
        assert screen.index == len(names) - 1  # stops at the last step
        await pilot.press("up")  # the list moves the step too
        await wait_until(pilot, lambda: screen.index == len(names) - 2)


async def test_causal_switch_zeroes_the_softmax_upper_triangle():
    app = make_app("calc")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        assert np.triu(softmax(screen), k=1).max() > 0
        while screen.trace.steps[screen.index].name != "softmax":
            await pilot.press("right")
        await pilot.press("c")
        await wait_until(pilot, lambda: screen.model.state.causal)
        weights = softmax(screen)
        assert np.all(np.triu(weights, k=1) == 0)
        assert np.allclose(weights.sum(axis=-1), 1)
        assert np.allclose(weights, build_example("causal")["softmax"].output)
        assert screen.trace.steps[screen.index].name == "softmax"  # stays on the same step
        assert "causal ON" in plain(screen.query_one("#calc-header"))
        assert "0.000" in calc_text(screen)
        await pilot.press("c")
        await wait_until(pilot, lambda: not screen.model.state.causal)
        assert np.triu(softmax(screen), k=1).max() > 0
        assert "causal off" in plain(screen.query_one("#calc-header"))


async def test_padding_switch_masks_the_last_key():
    app = make_app("calc")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        await pilot.press("p")
        await wait_until(pilot, lambda: screen.model.state.pad is not None)
        assert "pad_mask" in screen.trace.names()
        assert np.all(softmax(screen)[:, -1] == 0)
        assert "pad ON 110" in plain(screen.query_one("#calc-header"))
        await pilot.press("p")
        await wait_until(pilot, lambda: screen.model.state.pad is None)
        assert "pad_mask" not in screen.trace.names()


async def test_heads_key_cycles_the_number_of_heads():
    app = make_app("calc", example="mha")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        assert screen.model.state.heads == 2
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.model.state.heads == 4)
        assert screen.trace["split_heads"].output.shape == (4, 3, 1)
        assert "heads 4" in plain(screen.query_one("#calc-header"))
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.model.state.heads == 1)
        assert "split_heads" not in screen.trace.names()
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.model.state.heads == 2)
        assert np.allclose(screen.trace["output_proj"].output, build_example("mha")["output_proj"].output)


async def test_a_bad_matrix_value_gives_an_inline_message_and_the_app_keeps_running():
    app = make_app("calc")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        before = screen.trace
        await pilot.press("e")
        editor = screen.query_one(MatrixEditor)
        field = screen.query_one("#edit-X")
        await wait_until(pilot, lambda: editor.display and field.has_focus)
        assert field.value == "1,0;0,1;1,1"
        message = screen.query_one("#editor-message")

        field.value = "1,0;0,x;1,1"
        await pilot.press("enter")
        await wait_until(pilot, lambda: message.display)
        text = plain(message)
        assert "X" in text and "row 2, column 2" in text and "[3, 2]" in text
        assert field.has_class("bad") and app.is_running and screen.trace is before

        field.value = "1,2,3;4,5,6"  # a wrong width: W_Q no longer fits
        await pilot.press("enter")
        await wait_until(pilot, lambda: "W_Q" in plain(message))
        assert "[2, 3]" in plain(message) and screen.trace is before

        field.value = "1,0;0,1"  # a good value applies: two tokens now
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.trace is not before)
        assert not message.display and not field.has_class("bad")
        assert screen.trace["softmax"].output.shape == (2, 2)
        assert "S=2 d=2" in plain(screen.query_one("#calc-header"))

        wq = screen.query_one("#edit-W_Q")
        wq.value = "1,0;0"
        wq.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: "W_Q" in plain(message))
        assert "ragged" in plain(message) and app.is_running

        await pilot.press("escape")
        await wait_until(pilot, lambda: not editor.display)
        # Keys reach the screen again once the editor is closed.
        await pilot.press("c")
        await wait_until(pilot, lambda: screen.model.state.causal)


async def test_r_draws_random_inputs_of_the_same_shapes():
    app = make_app("calc")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        await pilot.press("c")
        await wait_until(pilot, lambda: screen.model.state.causal)
        await pilot.press("r")
        await wait_until(pilot, lambda: not np.array_equal(screen.model.state.x, X))
        state = screen.model.state
        assert state.x.shape == X.shape and state.causal
        assert np.allclose(softmax(screen).sum(axis=-1), 1)
        first = state.x.copy()
        await pilot.press("r")
        await wait_until(pilot, lambda: not np.array_equal(screen.model.state.x, first))


async def test_a_fixed_example_says_what_works_and_r_makes_it_editable():
    app = make_app("calc", example="layernorm")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        assert not screen.model.editable
        await pilot.press("c")
        await pilot.press("e")
        await pilot.pause()
        assert app.is_running and screen.trace.example == "layernorm"
        assert not screen.query_one(MatrixEditor).display
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.model.editable)
        assert screen.trace["softmax"].output.shape == (4, 4)


async def test_cli_inputs_reach_the_screen():
    app = make_app("calc", x="1,0;0,1;1,1", causal=True, heads=2)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        state = screen.model.state
        assert state.causal and state.heads == 2 and state.x.shape == (3, 2)


async def test_bad_cli_inputs_end_with_the_error():
    app = make_app("calc", example="no-such-example")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.error is not None)
    assert "no-such-example" in str(app.error)


async def test_a_typed_pad_mask_applies_and_a_wrong_length_is_refused():
    app = make_app("calc")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        await pilot.press("e")
        pad = screen.query_one("#edit-pad")
        pad.value = "1,0"
        pad.focus()
        await pilot.press("enter")
        message = screen.query_one("#editor-message")
        await wait_until(pilot, lambda: message.display)
        assert "3 tokens" in plain(message) and screen.model.state.pad is None
        pad.value = "1,0,1"
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.model.state.pad is not None)
        assert np.all(softmax(screen)[:, 1] == 0) and not message.display
        await pilot.press("escape")
        await pilot.press("p")  # off, then on again brings the typed mask back
        await wait_until(pilot, lambda: screen.model.state.pad is None)
        await pilot.press("p")
        await wait_until(pilot, lambda: screen.model.state.pad is not None)
        assert screen.model.state.pad.tolist() == [True, False, True]


@pytest.mark.parametrize("name", ["causal", "causal_padding", "gqa", "mqa", "mha"])
async def test_examples_are_read_back_with_their_switches(name):
    app = make_app("calc", example=name)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await calc_ready(pilot)
        # Recomputing from the state read off the trace gives the example's numbers back.
        again = screen.model.state.compute()
        assert np.allclose(again["softmax"].output, build_example(name)["softmax"].output)


async def test_matrices_are_heatmaps_repainted_cell_by_cell():
    """The softmax step's output is a heatmap with PyTorch's numbers; the causal switch updates it in place,
    repainting exactly the cells whose numbers changed (the last query sees every key either way)."""
    import torch

    from drill.engine.examples.common import W_K, W_Q, X
    from drill.tui.widgets.heatmap import Heatmap

    x, wq, wk = (torch.tensor(m, dtype=torch.float64) for m in (X, W_Q, W_K))
    scaled = (x @ wq) @ (x @ wk).T / 2**0.5
    plain_weights = torch.softmax(scaled, -1).numpy()
    hidden = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)
    causal_weights = torch.softmax(scaled.masked_fill(hidden, float("-inf")), -1).numpy()
    app = make_app("calc")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await calc_ready(pilot)
        while screen.trace.steps[screen.index].name != "softmax":
            await pilot.press("right")
        await pilot.pause()
        out = screen.matrix_views()[-1].parts()[-1]
        assert isinstance(out, Heatmap)
        assert all(out.cell_text(i, j) == f"{plain_weights[i, j]:.3f}" for i in range(3) for j in range(3))
        assert "out: softmax [3, 3]" in calc_text(screen)
        await pilot.press("c")
        await wait_until(pilot, lambda: screen.model.state.causal)
        await pilot.pause()
        assert screen.matrix_views()[-1].parts()[-1] is out  # the same widget, updated
        assert all(out.cell_text(i, j) == f"{causal_weights[i, j]:.3f}" for i in range(3) for j in range(3))
        changed = {
            (i, j)
            for i in range(3)
            for j in range(3)
            if f"{plain_weights[i, j]:.3f}" != f"{causal_weights[i, j]:.3f}"
        }
        assert set(out.last_changed) == changed and all(i < 2 for i, _ in changed)
