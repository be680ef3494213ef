"""The transformer-block demo (7.2) on screen: every module's numbers equal PyTorch's encoder and decoder
layers loaded with the same weights; a moved input repaints only the cells it changed; enter opens the
module's own demo; the roles are the chapter's words."""

from __future__ import annotations

from pathlib import Path

from drill.tui.demos.block import MODULES
from drill.tui.widgets.heatmap import Heatmap

from .conftest import opened, shown, wait_until
from .test_block_engine import torch_block
from .test_demo_pilot import assert_rows_shown

CHAPTER = Path(__file__).resolve().parents[2] / "data" / "transformer-chapter-7.md"


def test_roles_and_names_are_the_chapters_words():
    chapter = CHAPTER.read_text(encoding="utf-8")
    for module in MODULES:
        assert module.name in chapter, module.name
        for role in module.roles:
            assert role in chapter, role


async def test_every_module_shows_pytorchs_numbers(demo_app):
    async with demo_app("transformer-block").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "transformer-block")
        demo = screen.demo
        assert demo.control("module").index == 1 and demo.control("heads").shown() == "2"
        expected = torch_block(0, 2, demo.control("x11").value)
        await pilot.press("left")
        for index, module in enumerate(MODULES):
            assert demo.control("module").index == index
            text = shown(screen)
            assert module.name in text
            for role in module.roles:
                assert role in text
            for name in (module.step, *module.inputs, *module.extras):
                if name in expected:
                    value = expected[name].numpy()
                    for matrix in value if value.ndim == 3 else [value]:
                        assert_rows_shown(text, matrix)
            assert "(B, S, d_model) = (1, 3, 4)" in text  # input and output both (B, S, d_model)
            await pilot.press("right")


async def test_a_moved_input_repaints_only_the_cells_it_changed(demo_app):
    async with demo_app("transformer-block").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "transformer-block")
        x = screen.parts()
        heatmaps = [w for w in x if isinstance(w, Heatmap)]
        given, output = heatmaps[0], heatmaps[-1]  # enc_input, then the weights, then enc_self_attn
        before = given.cell_text(0, 0)
        await pilot.press("tab", "tab", "tab", "right")
        start = screen.demo.control("x11").value
        await wait_until(pilot, lambda: given.cell_text(0, 0) != before)
        assert given.cell_text(0, 0) == f"{start:.3f}".replace("-", "−")
        assert given.last_changed == ((0, 0),)  # one input moved: one cell of X repainted
        assert given in screen.parts()  # updated in place, not rebuilt
        assert output.last_changed is not None and len(output.last_changed) >= 1
        expected = torch_block(0, 2, start)
        text = shown(screen)
        assert_rows_shown(text, expected["enc_self_attn"].numpy())
        for head in expected["enc_weights"].numpy():
            assert_rows_shown(text, head)


async def test_heads_and_seed_change_the_numbers(demo_app):
    async with demo_app("transformer-block").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "transformer-block")
        x11 = screen.demo.control("x11").value
        await pilot.press("tab", "right")  # 4 heads
        await wait_until(pilot, lambda: sum(isinstance(w, Heatmap) for w in screen.parts()) == 6)
        text = shown(screen)
        expected = torch_block(0, 4, x11)
        for head in expected["enc_weights"].numpy():
            assert_rows_shown(text, head)
        assert "head 4" in text
        await pilot.press("tab", "right", "right")  # seed 2
        expected = torch_block(2, 4, x11)
        assert_rows_shown(shown(screen), expected["enc_self_attn"].numpy())


async def test_enter_opens_the_modules_demo(demo_app):
    from drill.tui.screens.demo import DemoScreen

    async with demo_app("transformer-block").run_test(size=(120, 40)) as pilot:
        block = await opened(pilot, "transformer-block")
        await pilot.press("enter")
        mha = await opened(pilot, "mha")
        assert isinstance(mha, DemoScreen) and mha is not block
        await pilot.press("escape")
        await wait_until(pilot, lambda: pilot.app.screen is block)
        await pilot.press(*["right"] * 7)  # decoder · Cross-Attention
        assert block.demo.module.step == "dec_cross_attn"
        await pilot.press("enter")
        await opened(pilot, "cross-attention")


async def test_a_heatmap_moved_to_another_module_keeps_no_stale_title(demo_app):
    """Self-attention shows a heatmap per head ("head 1", ...); the next module's matrices, drawn in the same
    widgets, have no head titles."""
    async with demo_app("transformer-block").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "transformer-block")
        assert "head 1" in shown(screen)
        await pilot.press("right")  # Encoder · Add&Norm: no attention weights
        await wait_until(pilot, lambda: screen.demo.module.step == "enc_norm_1")
        await pilot.pause()
        titles = [w.renderable().title for w in screen.parts() if isinstance(w, Heatmap)]
        assert titles and all(title is None for title in titles)
        assert "head 1" not in shown(screen)


async def test_heads_seed_and_input_moves_show_pytorchs_numbers(demo_app):
    """Each of the other controls moved (heads, the seed, X[1,1]): the module's matrices are PyTorch's
    encoder layer's for that setting."""
    async with demo_app("transformer-block").run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, "transformer-block")
        demo = screen.demo
        for keys in (
            ("tab", "right"),
            ("tab", "right", "right"),
            ("tab", "left", "left"),
            ("shift+tab", "left"),
        ):
            await pilot.press(*keys)
            await pilot.pause()
            heads, seed = int(demo.control("heads").shown()), int(demo.control("seed").value)
            expected = torch_block(seed, heads, demo.control("x11").value)
            text = shown(screen)
            module = demo.module
            assert module.step == "enc_self_attn"
            checked = [n for n in (module.step, *module.inputs, *module.extras) if n in expected]
            assert checked == ["enc_self_attn", "enc_weights"]
            for name in checked:
                value = expected[name].numpy()
                assert value.shape[0] == (heads if value.ndim == 3 else 3)
                for matrix in value if value.ndim == 3 else [value]:
                    assert_rows_shown(text, matrix)
