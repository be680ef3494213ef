"""The reference solution is asked for before it shows, and a pass after seeing it is graded at most Hard,
with the reason on screen (issue 28, code editor)."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from drill.engine.codetasks import get_task
from tests.code.test_code_screen import make, result_text, run_and_wait
from tests.notified import notified
from tests.tui.conftest import NOW, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def test_ctrl_s_asks_first_even_when_the_solution_was_seen_before(store):
    store.record_solution_view("softmax", NOW, "asked")  # seen on another day: the store would allow it
    app = make(store)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: any("ctrl+s again" in n for n in notified(app)))
        assert "Reference solution" not in result_text(screen) and not screen.solution_seen
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "Reference solution" in result_text(screen))


async def test_a_pass_after_the_solution_is_graded_at_most_hard_and_says_why(store):
    app = make(store)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        await pilot.press("ctrl+s", "ctrl+s")
        await wait_until(pilot, lambda: "Reference solution" in result_text(screen))
        screen.query_one("#code-editor", TextArea).load_text(get_task("softmax").solution())
        await run_and_wait(pilot, screen)  # a first try within the budget: Easy, had the solution not shown
        assert "All hidden tests pass." in result_text(screen)
        assert screen.proposed == 2
        assert "at most Hard: the reference solution was seen" in result_text(screen)
        await pilot.press("4")  # the learner cannot raise it
        await wait_until(pilot, lambda: any("at most Hard" in n for n in notified(app)))
        assert screen.proposed == 2
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.graded)
    assert [h.rating for h in store.card_info("code-softmax").history] == [2]


async def test_a_pass_without_the_solution_still_proposes_easy(store):
    app = make(store)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        screen.query_one("#code-editor", TextArea).load_text(get_task("softmax").solution())
        await run_and_wait(pilot, screen)
        assert screen.proposed == 4 and "at most Hard" not in result_text(screen)
        await pilot.press("ctrl+s")  # after the pass: shown at once, the grade stays
        await wait_until(pilot, lambda: "Reference solution" in result_text(screen))
        assert screen.proposed == 4
