"""Snapshot tests of the quiz and calc screens (pytest-textual-snapshot) at 80×24 and 120×40.

Deterministic: fixed seeds, --no-shuffle, a frozen clock and a frozen countdown timer (the countdown shows
the full time, or "stopped" after an answer). Chinese text comes from the chapter's quizzes.
Regenerate with ``pytest tests/tui/test_snapshots_quiz_calc.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

import pytest

from drill.tui.app import make_app
from drill.tui.screens.quiz_score import QuizScoreScreen
from tests.tui.conftest import fixed_quiz, library_of, wait_until

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@pytest.fixture
def quiz_app(library, store):
    def build(**overrides):
        return fixed_quiz(overrides.pop("library", library), store, **overrides)

    return build


async def _question(pilot) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: getattr(app.mode_screen, "run", None) is not None)
    await app.workers.wait_for_complete()
    await pilot.pause()


async def _wrong_answer(pilot) -> None:
    await _question(pilot)
    screen = pilot.app.mode_screen
    wrong = next(o for o in screen.item.options if o.key != screen.item.answer)
    await pilot.press(wrong.letter.lower())
    await wait_until(pilot, lambda: screen.answered is not None)
    await pilot.pause()


@SIZES
def test_quiz_question(snap_compare, quiz_app, size):
    assert snap_compare(quiz_app(), terminal_size=size, run_before=_question)


@SIZES
def test_quiz_feedback_after_a_wrong_answer(snap_compare, quiz_app, size):
    assert snap_compare(quiz_app(), terminal_size=size, run_before=_wrong_answer)


@SIZES
def test_quiz_generated_question_names_the_mistake_chosen(snap_compare, quiz_app, library, size):
    # seed 2: a Chinese engine-computed question; a wrong option's feedback names its mistake and section
    app = quiz_app(library=library_of([], library), generated=2, seed=2, section="7.9")

    async def run_before(pilot) -> None:
        await _question(pilot)
        item = pilot.app.mode_screen.item
        assert item.kind == "generated" and item.section == "7.9"
        await pilot.press(next(iter(item.question.mistakes)).lower())
        await wait_until(pilot, lambda: pilot.app.mode_screen.answered is not None)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@SIZES
def test_quiz_score_and_review(snap_compare, quiz_app, size):
    app = quiz_app(count=1)

    async def run_before(pilot) -> None:
        await _wrong_answer(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, QuizScoreScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


async def _calc_ready(pilot) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: getattr(app.mode_screen, "model", None) is not None)
    await pilot.pause()


@SIZES
def test_calc_causal_softmax(snap_compare, size):
    app = make_app("calc", example="worked")

    async def run_before(pilot) -> None:
        await _calc_ready(pilot)
        await pilot.press("c")
        screen = pilot.app.mode_screen
        while screen.trace.steps[screen.index].name != "softmax":
            await pilot.press("right")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@SIZES
def test_calc_multi_head(snap_compare, size):
    app = make_app("calc", example="mha")

    async def run_before(pilot) -> None:
        await _calc_ready(pilot)
        screen = pilot.app.mode_screen
        while screen.trace.steps[screen.index].name != "weighted_sum":
            await pilot.press("right")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_calc_editor_with_a_bad_value(snap_compare):
    app = make_app("calc", example="worked")

    async def run_before(pilot) -> None:
        await _calc_ready(pilot)
        await pilot.press("e")
        screen = pilot.app.mode_screen
        field = screen.query_one("#edit-W_Q")
        field.cursor_blink = False  # the cursor's cell is drawn on or off by a timer: not part of the layout
        field.value = "1,0;1,x"
        field.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.query_one("#editor-message").display)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
