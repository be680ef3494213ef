"""Pilot: a code card in `drill study` opens the code editor; the run proposes a grade, the learner confirms it,
and the study session grades the card with FSRS like any card (the attempts go to the code-attempts store)."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from drill.engine.codetasks import get_task
from drill.store.code_attempts import attempts
from drill.tui.screens.code import CodeScreen
from drill.tui.screens.study import StudyScreen
from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import card_shown, library_of, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def _open_code_card(pilot, app) -> CodeScreen:
    await card_shown(pilot)
    view = app.screen.query_one(CardView)
    assert view.card is not None and view.card.kind == "code"
    assert "softmax" in str(app.screen.query_one("#question").render())
    await pilot.press("space")
    await wait_until(pilot, lambda: isinstance(app.screen, CodeScreen))
    screen = app.screen
    assert isinstance(screen, CodeScreen) and screen.in_study and screen.code_task.name == "softmax"
    return screen


async def test_a_code_card_is_written_run_and_graded_from_study(study_app, library, store):
    app = study_app(library=library_of([library.cards["code-softmax"]], library))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await _open_code_card(pilot, app)
        screen.query_one("#code-editor", TextArea).load_text(
            "import numpy as np\n\ndef softmax(x):\n    return x\n"
        )
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.runs == 1 and not screen.running, tries=5000)
        assert screen.proposed == 1  # a failing run proposes Again
        screen.query_one("#code-editor", TextArea).load_text(get_task("softmax").solution())
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.runs == 2 and not screen.running, tries=5000)
        assert screen.proposed == 2  # a pass after a failed run: Hard
        await pilot.press("3", "enter")  # the learner changes it to Good and confirms
        study = app.mode_screen
        assert isinstance(study, StudyScreen)
        await wait_until(pilot, lambda: study.saving is None and study.session.stats.reviewed == 1)
        assert not isinstance(app.screen, CodeScreen)  # back in study (its one card done: the summary)
    info = store.card_info("code-softmax")
    assert info.reps == 1 and [h.rating for h in info.history] == [3] and info.due is not None
    runs = attempts(store, "softmax")
    assert [a.all_passed for a in runs] == [True, False]


async def test_going_back_from_the_editor_grades_nothing(study_app, library, store):
    app = study_app(library=library_of([library.cards["code-softmax"]], library))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await _open_code_card(pilot, app)
        await pilot.press("escape")  # leaves the editor
        assert isinstance(app.screen, CodeScreen)
        await pilot.press("escape")  # back to study
        await wait_until(pilot, lambda: isinstance(app.screen, StudyScreen))
        assert app.screen.query_one(CardView).card.id == "code-softmax"
        assert screen.graded is False
    assert store.card_info("code-softmax").reps == 0
