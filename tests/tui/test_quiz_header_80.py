"""`drill quiz`'s header at 80 columns is cut at its end (…), never wrapped: wrapped, the words after the last
that fit went to a hidden second row and left a gap before the countdown (issue 28: `score 1 ·    time left`,
the streak gone). Before an answer the streak shows whole; after one the countdown's "(stopped)" takes the room
and the line is cut after the score."""

from __future__ import annotations

import pytest

from tests.tui.conftest import fixed_quiz, wait_until


def header_line(screen) -> str:
    header = screen.query_one("#quiz-header")
    return header.render_line(0).text  # what the header's one row draws


@pytest.mark.parametrize("answer", ["right", "wrong"])
async def test_the_header_is_cut_at_its_end_not_wrapped_at_80_columns(library, store, answer):
    app = fixed_quiz(library, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: getattr(app.mode_screen, "run", None) is not None)
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.mode_screen
        line = header_line(screen)
        assert "streak 0 · " in line and line.rstrip().endswith("…"), line  # whole before an answer
        item = screen.item
        key = item.answer if answer == "right" else next(o.key for o in item.options if o.key != item.answer)
        await pilot.press(item.option_by_key(key).letter.lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        await pilot.pause()
        line = header_line(screen).rstrip()
        score = 1 if answer == "right" else 0
        assert f"score {score} · s" in line, line
        # cut at its end, not wrapped: the text runs up to the countdown, with no run of blanks inside it
        assert line.endswith("…") and "  " not in line, line
        assert screen.query_one("#quiz-header").region.right == screen.query_one("#countdown").region.x
