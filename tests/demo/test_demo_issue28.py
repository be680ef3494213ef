"""Pilot tests of issue 28's demo items: enter is offered only where it does something; the residual note's
numbers follow the slider; the scaling demo shows the chapter's table (recomputed here, the chapter's wrong
figures marked) and says why drill's own differs; the causal-mask demo calls scaled scores scaled; and at
80×24 the dot-product plots keep their rows, whole-number ticks, and ? and q in the footer."""

from __future__ import annotations

import math
import re

import pytest
import torch

from drill.tui.widgets.footer import StudyFooter
from tests.tui.test_study_ux import footer_keys
from tests.tui.test_text_is_text import screen_text

from .conftest import opened, shown, wait_until

SLIDER_DEMOS = ["softmax", "weighted-sum", "scaling", "dot-product", "residual", "ffn"]


async def footer_ready(pilot) -> None:
    await wait_until(pilot, lambda: bool(pilot.app.screen.query(StudyFooter).results(StudyFooter)))
    await wait_until(pilot, lambda: bool(pilot.app.screen.query_one(StudyFooter).shown))
    await pilot.pause()


@pytest.mark.parametrize("name", SLIDER_DEMOS)
async def test_a_slider_demo_offers_no_next(demo_app, name):
    async with demo_app(name).run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, name)
        await footer_ready(pilot)
        keys = footer_keys(pilot.app)
        assert "next" not in keys and {"help", "quit", "move(1)"} <= set(keys)
        before = shown(screen)
        await pilot.press("enter")  # nothing to step: nothing happens, and nothing promised it would
        await pilot.pause()
        assert shown(screen) == before


async def test_a_step_demo_offers_next_and_enter_steps_it(demo_app):
    async with demo_app("causal-mask").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "causal-mask")
        await footer_ready(pilot)
        assert "next" in footer_keys(pilot.app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.demo.control("step").index == 1)


async def test_the_causal_mask_demo_calls_the_scaled_scores_scaled(demo_app):
    async with demo_app("causal-mask").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "causal-mask")
        text = shown(screen)
        assert "raw scores" not in text
        assert screen.demo.control("step").shown() == "scaled scores"
        trace = screen.demo.trace
        assert math.isclose(  # what the stage shows is QKᵀ / √d_k
            float(trace["scale"].output[1, 0]), float(trace["scores"].output[1, 0]) / math.sqrt(2)
        )


async def test_the_residual_note_follows_the_factor(demo_app):
    async with demo_app("residual").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "residual")
        assert "(1 + 0.70)ⁿ = 1.70ⁿ" in shown(screen)
        await pilot.press("tab", "right")  # 0.7 -> 0.75
        await wait_until(pilot, lambda: screen.demo.control("factor").value == 0.75)
        text = shown(screen)
        assert "(1 + 0.75)ⁿ = 1.75ⁿ" in text and "(1 + 0.7)ⁿ" not in text and "1.7ⁿ" not in text
        assert "1 + 0.7ⁿ" in text  # the chapter's own model, quoted as printed


async def test_the_scaling_demo_shows_the_chapters_table_and_says_why_drills_differs(demo_app):
    async with demo_app("scaling").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "scaling")
        text = shown(screen)
        row = torch.tensor([3.0, 2.0, 1.0], dtype=torch.float64)
        for d_k, scaled, printed, wrong in [
            (1, "[3, 2, 1]", "66.5%", False),
            (16, "[0.75, 0.5, 0.25]", "44.5%", True),
            (64, "[0.375, 0.25, 0.125]", "38.3%", True),
        ]:
            best = torch.softmax(row / math.sqrt(d_k), -1).max().item() * 100
            line = re.search(rf"^\s*{d_k}\s+{re.escape(scaled)}\s+(\S+)%\s+(.*)$", text, re.M)
            assert line, text
            assert line.group(1) == f"{best:.1f}"
            assert line.group(2).strip() == printed + (" ✗" if wrong else "")
        unscaled = torch.softmax(row * 8, -1).max().item() * 100
        assert re.search(rf"\[24, 16, 8\]\s+{unscaled:.2f}%", text)
        assert "drill's own table" in text and "not the chapter's" in text


async def test_dot_product_at_80x24_keeps_its_plots_ticks_and_footer(demo_app):
    from textual_plot import PlotWidget

    async with demo_app("dot-product").run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, "dot-product")
        await footer_ready(pilot)
        plots = list(screen.query(PlotWidget).results(PlotWidget))
        await wait_until(pilot, lambda: all(p.size.height >= 12 for p in plots))
        keys = footer_keys(pilot.app)
        assert {"help", "quit"} <= set(keys)
        lines = screen_text(pilot.app)
        ticks = next(line for line in lines if re.search(r"-2\s+-1\s+0\s+1\s+2", line))
        assert "-180" in ticks  # the curve's axis on the same line, every label whole
        assert all(re.fullmatch(r"-?\d+", word) for word in ticks.split())
