"""The demos' plots against two oracles.

- What is drawn: after every move (and a resize of the terminal), each demo's textual-plot `PlotWidget`, redrawn
  in place, holds exactly the cells a plain `PlotWidget` of the same size, mounted fresh and given the same
  calls, draws (nothing of an earlier frame is left).
- What is plotted: the datasets are the numbers an independent computation gives (PyTorch's softmax, plain
  Python for the vectors and the gradient models).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from textual import events
from textual.app import App, ComposeResult
from textual_hires_canvas import Canvas
from textual_plot import PlotWidget
from textual_plot.plot_widget import BarPlot, LinePlot

from drill.tui.screens.demo import make_demo

from .conftest import opened, shown, wait_until
from .test_demo_pilot import assert_rows_shown

MOVES = {
    "softmax": ["right", "right", "tab", "left", "tab", *["right"] * 6, "left"],
    "scaling": ["right", "right", "left", "left", "left", "left"],
    "weighted-sum": ["right", "tab", "left", "left", "tab", "right"],
    "dot-product": ["right", "right", "tab", "left", "left", "left", "shift+tab", "left"],
    "residual": ["right", "left", "left", "tab", "right", "left", "left"],
}


def cells(plot: PlotWidget) -> dict:
    """Every canvas's characters and styles, and the legend's text."""
    out: dict = {
        str(c.id): ([list(r) for r in c._buffer], [list(r) for r in c._styles]) for c in plot.query(Canvas)
    }
    out["legend"] = str(plot.query_one("#legend").render())
    return out


class PlainPlots(App[None]):
    """A plain textual-plot widget, mounted fresh (of the given size) for each drawing."""

    def compose(self) -> ComposeResult:
        return iter(())

    async def fresh(self, size: tuple[int, int]) -> PlotWidget:
        for old in self.query(PlotWidget):
            await old.remove()
        plot = PlotWidget(allow_pan_and_zoom=False)
        plot.styles.width, plot.styles.height = size
        await self.mount(plot)
        return plot


@pytest.mark.parametrize("name", list(MOVES))
async def test_every_frame_is_what_textual_plot_draws(demo_app, name):
    seen = []  # (control values, {plot id: (size, cells)})
    async with demo_app(name).run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, name)
        ids = ["#demo-plot", "#demo-curve"] if hasattr(screen.demo, "curve") else ["#demo-plot"]
        plots = [screen.query_one(i, PlotWidget) for i in ids]
        half = len(MOVES[name]) // 2
        for step, key in enumerate([None, *MOVES[name]]):
            if step == half:  # half way: the terminal shrinks, and the canvases with it
                await pilot.resize_terminal(100, 34)
            if key:
                await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            drawn = {i: ((p.size.width, p.size.height), cells(p)) for i, p in zip(ids, plots, strict=True)}
            seen.append(([c.value for c in screen.demo.controls], drawn))
        info = screen.info
    assert len({repr(state) for state, _ in seen}) > len(MOVES[name]) // 2  # the moves changed something
    assert len({size for _, drawn in seen for size, _ in drawn.values()}) == 2  # and the resize the plots

    async with PlainPlots().run_test(size=(120, 40)) as pilot:
        for values, drawn in seen:
            demo = make_demo(info)
            for control, value in zip(demo.controls, values, strict=True):
                control.value = value
            for plot_id, (size, expected) in drawn.items():
                plot = await pilot.app.fresh(size)
                await wait_until(pilot, lambda p=plot: p.query_one("#plot", Canvas)._canvas_size is not None)
                (demo.plot if plot_id == "#demo-plot" else demo.curve)(plot)
                await pilot.pause()
                await pilot.pause()
                assert cells(plot) == expected, (name, values, plot_id, size)


def datasets(screen, kind):
    return [d for d in screen.query_one("#demo-plot", PlotWidget)._datasets if isinstance(d, kind)]


async def test_softmax_and_scaling_bars_are_pytorchs(demo_app):
    async with demo_app("softmax").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "softmax")
        for keys in ((), ("right", "right"), ("tab", *["left"] * 7)):
            await pilot.press(*keys)
            await pilot.pause()
            logits = torch.tensor([c.value for c in screen.demo.controls], dtype=torch.float64)
            (bars,) = datasets(screen, BarPlot)
            np.testing.assert_allclose(bars.y, torch.softmax(logits, 0).numpy(), rtol=1e-12)
    async with demo_app("scaling").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "scaling")
        row = torch.tensor([3.0, 2.0, 1.0], dtype=torch.float64)
        for keys, d_k in (((), 64), (("right",), 128), (("left", "left", "left"), 16)):
            await pilot.press(*keys)
            await pilot.pause()
            unscaled, scaled = datasets(screen, BarPlot)
            np.testing.assert_allclose(unscaled.y, torch.softmax(row * math.sqrt(d_k), 0).numpy(), rtol=1e-12)
            np.testing.assert_allclose(scaled.y, torch.softmax(row, 0).numpy(), rtol=1e-12)


async def test_vectors_and_gradient_curves(demo_app):
    async with demo_app("dot-product").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "dot-product")
        await pilot.press("right", "tab", "left", "left")
        await pilot.pause()
        q_deg, k_deg = 45.0, 30.0
        q, k = datasets(screen, LinePlot)
        np.testing.assert_allclose(q.x, [0, 2 * math.cos(math.radians(q_deg))], atol=1e-12)
        np.testing.assert_allclose(q.y, [0, 2 * math.sin(math.radians(q_deg))], atol=1e-12)
        np.testing.assert_allclose(k.x, [0, 2 * math.cos(math.radians(k_deg))], atol=1e-12)
        np.testing.assert_allclose(k.y, [0, 2 * math.sin(math.radians(k_deg))], atol=1e-12)
    async with demo_app("weighted-sum").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "weighted-sum")
        await pilot.press("right", "right")
        await pilot.pause()
        raw = torch.tensor([c.value for c in screen.demo.controls], dtype=torch.float64)
        v = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], dtype=torch.float64)
        *vs, out = datasets(screen, LinePlot)
        for line, row in zip(vs, v, strict=True):
            np.testing.assert_allclose([line.x[1], line.y[1]], row.numpy())
        np.testing.assert_allclose([out.x[1], out.y[1]], (raw / raw.sum() @ v).numpy(), rtol=1e-12)
    async with demo_app("residual").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "residual")
        await pilot.press("left", "left", "tab", "left")
        await pilot.pause()
        depth, f = 22, 0.65
        none, one_skip, every = datasets(screen, LinePlot)
        n = np.arange(1, depth + 1)
        np.testing.assert_allclose(none.x, n)
        np.testing.assert_allclose(none.y, [math.log10(f**i) for i in n], rtol=1e-12)
        np.testing.assert_allclose(one_skip.y, [math.log10(1 + f**i) for i in n], rtol=1e-12)
        np.testing.assert_allclose(every.y, [math.log10((1 + f) ** i) for i in n], rtol=1e-12)


async def test_a_burst_of_keys_is_drawn_once_with_the_last_value(demo_app):
    """20 presses queued at once (as a held key sends them): the view and the plot are redrawn fewer times
    than there were moves, and what is shown is the last value's numbers, never an intermediate one."""
    async with demo_app("softmax").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "softmax")
        redraws = []
        redraw = screen._redraw

        def counted() -> None:
            redraws.append(screen.demo.control("z0").value)
            redraw()

        screen._redraw = counted
        for _ in range(20):
            pilot.app.post_message(events.Key("right", None))
        await wait_until(pilot, lambda: screen.demo.control("z0").value == 12.0)
        await pilot.pause()
        await pilot.pause()
        assert 1 <= len(redraws) < 20 and redraws[-1] == 12.0
        logits = torch.tensor([12.0, 1.0, 0.1], dtype=torch.float64)
        (bars,) = datasets(screen, BarPlot)
        np.testing.assert_allclose(bars.y, torch.softmax(logits, 0).numpy(), rtol=1e-12)
        text = shown(screen)
        assert "logit 1 12.0 " in text
        assert_rows_shown(text, [torch.softmax(logits, 0).numpy()])
