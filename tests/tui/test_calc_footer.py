"""Issue 28: calc's `l Examples` is in the footer at 80×24 (it showed from about 100 columns), in both
languages; what gives way for it (r Random first) stays in help and the palette."""

from __future__ import annotations

import pytest

from drill.i18n import set_language
from drill.tui.app import make_app
from drill.tui.keys import palette_rows
from drill.tui.screens.calc_examples import ExamplePicker
from tests.tui.conftest import wait_until
from tests.tui.test_calc import calc_ready
from tests.tui.test_study_ux import footer_keys
from tests.tui.test_text_is_text import screen_text


@pytest.mark.parametrize("language", ["en", "zh_CN"])
async def test_l_examples_is_in_the_footer_at_80_columns(language):
    set_language(language)
    try:
        app = make_app("calc", example="worked")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await calc_ready(pilot)
            await wait_until(pilot, lambda: bool(footer_keys(app)))
            keys = footer_keys(app)
            assert {"examples", "help", "quit", "causal", "heads", "edit"} <= set(keys), sorted(keys)
            bottom = screen_text(app)[-1]
            assert f" l {keys['examples'].description} " in bottom, bottom
            assert {"random", "padding"} <= {action for _t, _h, action in palette_rows(screen)}
            await pilot.press("l")  # and it does what it says
            await wait_until(pilot, lambda: isinstance(app.screen, ExamplePicker))
    finally:
        set_language("en")


async def test_at_120_columns_every_key_is_in_the_footer():
    app = make_app("calc", example="worked")
    async with app.run_test(size=(120, 40)) as pilot:
        await calc_ready(pilot)
        await wait_until(pilot, lambda: bool(footer_keys(app)))
        assert {"causal", "padding", "heads", "edit", "random", "examples"} <= set(footer_keys(app))
