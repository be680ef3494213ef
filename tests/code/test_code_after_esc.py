"""After esc (the editor left), typed letters and digits are code, not shortcuts: `e` of `shape` opened vi,
digits set the grade (issue 28, code editor). 1-4 still grade right after a run."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from drill.engine.codetasks import get_task
from tests.code.test_code_screen import make, run_and_wait
from tests.notified import notified
from tests.tui.conftest import wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def test_letters_typed_after_esc_go_to_the_editor(store, monkeypatch):
    opened = []
    monkeypatch.setattr(
        "drill.tui.screens.code_editor.edit_externally", lambda *args: opened.append(args) or ""
    )
    app = make(store)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        editor = screen.query_one("#code-editor", TextArea)
        editor.load_text("")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not editor.has_focus)
        await pilot.press(*"x.shape")
        await wait_until(pilot, lambda: editor.text == "x.shape")
        assert editor.has_focus and opened == []


async def test_digits_after_esc_do_not_change_the_proposed_grade(store):
    app = make(store)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        editor = screen.query_one("#code-editor", TextArea)
        editor.load_text(get_task("softmax").solution())
        await run_and_wait(pilot, screen)
        assert screen.proposed == 4
        await pilot.press("2")  # right after the run: 1-4 grade it
        assert screen.proposed == 2
        editor.focus()
        await pilot.pause()
        editor.load_text("")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not editor.has_focus)
        await pilot.press("3", "1", "enter")
        await wait_until(pilot, lambda: editor.text.startswith("31"))
        assert screen.proposed == 2 and not screen.graded
        assert "runs the tests again" in str(screen.query_one("#code-header").content)


async def test_ctrl_q_in_a_code_card_from_study_asks_before_dropping_the_grade(study_app, library, store):
    from tests.code.test_code_study import _open_code_card
    from tests.tui.conftest import library_of

    app = study_app(library=library_of([library.cards["code-softmax"]], library))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await _open_code_card(pilot, app)
        screen.query_one("#code-editor", TextArea).load_text(get_task("softmax").solution())
        await run_and_wait(pilot, screen)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: any("not saved yet" in n for n in notified(app)))
        assert app.is_running and app.screen is screen
        await pilot.press("enter")  # confirmed: graded like any card
        await wait_until(pilot, lambda: app.mode_screen.saving is None and screen.graded)
        await wait_until(pilot, lambda: store.card_info("code-softmax").reps == 1)
