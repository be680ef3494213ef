"""Issue 28: the help screen and the palette offer what the footer offers. A slider demo (no "next") lists no
enter in help (the footer already hid it); a stepping demo lists it, and the palette follows the same rule."""

from __future__ import annotations

import pytest

from drill.tui.keys import palette_rows
from drill.tui.screens.help import HelpScreen
from tests.tui.test_text_is_text import screen_text

from .conftest import opened, wait_until
from .test_demo_issue28 import SLIDER_DEMOS


async def help_shown(pilot) -> HelpScreen:
    await pilot.press("question_mark")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
    await pilot.pause()
    return pilot.app.screen


@pytest.mark.parametrize("name", SLIDER_DEMOS)
async def test_a_slider_demos_help_and_palette_offer_no_enter(demo_app, name):
    async with demo_app(name).run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, name)
        assert not any(action == "next" for _title, _help, action in palette_rows(screen))
        help_screen = await help_shown(pilot)
        keys = [key for key, _does in help_screen.rows]
        assert "enter" not in keys and "tab" in keys and "→ / +" in keys, keys
        text = "\n".join(screen_text(pilot.app))  # what the reader sees: the table drawn
        assert "│ enter " not in text and "│ tab        Next control" in text


async def test_a_stepping_demos_help_and_palette_offer_enter(demo_app):
    async with demo_app("causal-mask").run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, "causal-mask")
        assert any(action == "next" for _title, _help, action in palette_rows(screen))
        help_screen = await help_shown(pilot)
        assert dict(help_screen.rows)["enter"].startswith("Next — the chapter's")
        assert any("│ enter " in line for line in screen_text(pilot.app))
