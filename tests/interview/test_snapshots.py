"""`drill interview` at 80×24 and 120×40, in English and in Chinese (pytest-textual-snapshot): the question with
its time budget and a typed answer, the rubric with a point and a grade chosen, and the scorecard.

Deterministic: a fixed seed, a frozen clock and a timer the test moves. Regenerate with
``pytest tests/interview/test_snapshots.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

import pytest

import drill.i18n
from tests.interview.pilot import ManualTimer, interview_app, phase
from tests.tui.conftest import wait_until

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
LANGUAGES = pytest.mark.parametrize("language", ["en", "zh"])


@pytest.fixture
def language_set():
    def use(language: str) -> None:
        drill.i18n.set_language(language)

    yield use
    drill.i18n.set_language("en")


def build(library, store, timer=None):
    return interview_app(library, store, timer or ManualTimer(), seed=3, questions=2, minutes=3)


async def typed(pilot) -> None:
    await phase(pilot, "asking")
    screen = pilot.app.mode_screen
    editor = screen.query_one("#iv-answer")
    # the cursor's cell is drawn on or off by a 0.5 s timer: not part of the layout
    editor.cursor_blink = False
    editor.insert(
        "每个 query 都要和每个 key 打分：行是 query 位置，列是 key 位置，共 S×S 个元素。所以代价随序列长度线性增长。"
    )
    screen.options.timer.now = 75
    screen.query_one("#countdown").check()
    await pilot.pause()


async def rubric(pilot) -> None:
    await typed(pilot)
    screen = pilot.app.mode_screen
    await pilot.press("ctrl+d")
    await phase(pilot, "rubric")
    await wait_until(pilot, lambda: screen.rubric.judged)  # the judge's ticks, as the learner first sees them
    await pilot.press("3")
    await wait_until(pilot, lambda: screen.chosen == 3)
    await pilot.pause()


async def scorecard(pilot) -> None:
    await rubric(pilot)
    screen = pilot.app.mode_screen
    await pilot.press("enter")
    await phase(pilot, "asking")
    screen.options.timer.now += 200
    screen.query_one("#countdown").check()  # the second question times out
    await phase(pilot, "rubric")
    await pilot.press("enter")
    await phase(pilot, "done")
    for toast in pilot.app.query("Toast"):  # the "Graded …" notices fade on their own: not part of the layout
        toast.remove()
    body = screen.query_one("#iv-body")
    # the scorecard from its title, and its scrollbar drawn so
    await wait_until(pilot, lambda: body.scroll_y == 0)
    await pilot.pause()
    await pilot.pause()


@SIZES
@LANGUAGES
def test_interview_question(snap_compare, library, store, language_set, language, size):
    language_set(language)
    assert snap_compare(build(library, store), terminal_size=size, run_before=typed)


@SIZES
@LANGUAGES
def test_interview_rubric(snap_compare, library, store, language_set, language, size):
    language_set(language)
    assert snap_compare(build(library, store), terminal_size=size, run_before=rubric)


@SIZES
@LANGUAGES
def test_interview_scorecard(snap_compare, library, store, language_set, language, size):
    language_set(language)
    assert snap_compare(build(library, store), terminal_size=size, run_before=scorecard)
