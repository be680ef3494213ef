"""The study, quiz and calc screens in Chinese at 80×24 and 120×40 (pytest-textual-snapshot): drill's own words
from the zh_CN catalog beside the chapter's text; the fixed-width parts (grade buttons, header, footer,
countdown) laid out by display width. The English snapshots are tests/tui's; these are the same scenes.

Regenerate with ``pytest tests/i18n/test_snapshots_zh.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

import pytest

import drill.i18n
from drill.tui.app import make_app
from tests.tui.conftest import fixed_quiz, frozen_clock, frozen_timer, library_of
from tests.tui.test_snapshots import card_on_screen, revealed
from tests.tui.test_snapshots_quiz_calc import _calc_ready, _question, _wrong_answer

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@pytest.fixture(autouse=True)
def chinese():
    drill.i18n.set_language("zh")
    yield
    drill.i18n.set_language("en")


def study(library, store, card_id="q05"):
    card = library.cards[card_id]
    return make_app(
        "study", library=library_of([card], library), store=store, clock=frozen_clock, timer=frozen_timer
    )


def quiz(library, store):
    return fixed_quiz(library, store)


@SIZES
def test_study_question_in_chinese(snap_compare, library, store, size):
    assert snap_compare(study(library, store), terminal_size=size, run_before=card_on_screen)


@SIZES
def test_study_answer_in_chinese(snap_compare, library, store, size):
    assert snap_compare(study(library, store), terminal_size=size, run_before=revealed())


@SIZES
def test_quiz_question_in_chinese(snap_compare, library, store, size):
    assert snap_compare(quiz(library, store), terminal_size=size, run_before=_question)


@SIZES
def test_quiz_feedback_in_chinese(snap_compare, library, store, size):
    assert snap_compare(quiz(library, store), terminal_size=size, run_before=_wrong_answer)


@SIZES
def test_calc_in_chinese(snap_compare, size):
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
def test_browser_in_chinese(snap_compare, library, store, size):
    """The card browser: headings never cut (遗忘次数 is wider than its column asks), the sections' Chinese
    titles and the questions cut by display width, one card graded (学习中) and the cursor on it."""
    cards = [library.cards[card_id] for card_id in ("q05", "q07", "q24", "q37", "q08")]
    app = make_app(
        "study", library=library_of(cards, library), store=store, clock=frozen_clock, timer=frozen_timer
    )

    async def run_before(pilot) -> None:
        from drill.tui.widgets.card_table import CardTable
        from tests.tui.conftest import wait_until

        await card_on_screen(pilot)
        await revealed()(pilot)
        graded = pilot.app.mode_screen.card.id
        await pilot.press("3")
        await wait_until(pilot, lambda: pilot.app.mode_screen.card.id != graded)
        await pilot.press("l")
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "BrowserScreen")
        pilot.app.screen.query_one(CardTable).move_to(graded)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
