"""benchmarks/ptyrun.py's screen text: every pty test and benchmark reads the terminal through it."""

from __future__ import annotations

from types import SimpleNamespace

import pyte

from tests.tui.conftest import ptyrun


def _text(feed: str, columns: int = 6) -> str:
    screen = pyte.Screen(columns, 1)
    pyte.Stream(screen).feed(feed)
    return ptyrun().Terminal.text(SimpleNamespace(screen=screen))


def test_wide_characters_take_two_cells():
    assert _text("注意ab") == "注意ab"


def test_a_wide_character_overwritten_by_a_narrow_one_leaves_a_blank_not_an_error():
    """注 at columns 1-2, 意 at 3-4, then "a" written over column 1: the stub of 注 is left in column 2 (pyte's own
    ``Screen.display`` raises IndexError on it; a CI run of the editor's signal test met it)."""
    assert _text("注意\x1b[1Ga") == "a 意"
