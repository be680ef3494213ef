"""Pilot tests of the code screen: type, run, see results, grade; attempts and the solution in the store."""

from __future__ import annotations

import pytest
from textual.widgets import Static, TextArea

from drill.engine.codetasks import get_task
from drill.store.code_attempts import (  # the store module itself, as the screen saw it
    attempts,
    may_show_solution,
)
from drill.tui.app import make_app
from drill.tui.screens.code import CodeScreen
from drill.tui.screens.code_cards import propose_grade
from tests.code.submissions import WRONG
from tests.tui.conftest import frozen_clock, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def result_text(screen) -> str:
    return str(screen.query_one("#code-result-text", Static).content)


async def run_and_wait(pilot, screen):
    runs = screen.runs
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: screen.runs > runs and not screen.running, tries=5000)


def make(store, task="softmax", **extra):
    return make_app("code", store=store, clock=frozen_clock, task=task, **extra)


async def test_type_run_see_results_and_grade(store):
    app = make(store)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        assert isinstance(screen, CodeScreen)
        editor = screen.query_one("#code-editor", TextArea)
        assert editor.language == "python" and "def softmax(x):" in editor.text
        editor.load_text("import numpy as np\n\ndef softmax(x):\n    return x\n")
        await run_and_wait(pilot, screen)
        assert "✗" in result_text(screen) and screen.proposed == 1
        editor.load_text(get_task("softmax").solution())
        await run_and_wait(pilot, screen)
        assert "All hidden tests pass." in result_text(screen)
        assert screen.proposed == 2  # a pass after a failed run proposes Hard
        await pilot.press("3")
        assert screen.proposed == 3  # the learner changes it
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.graded)
    runs = attempts(store, "softmax")
    assert [a.all_passed for a in runs] == [True, False]  # newest first, both saved with their code
    assert runs[1].code.endswith("return x\n") and runs[0].seed > 0
    info = store.card_info("code-softmax")  # the grade went to FSRS, as the confirmed Good
    assert info.reps == 1 and [h.rating for h in info.history] == [3] and info.due is not None


async def test_a_named_mistake_shows_the_chapters_words(store):
    app = make(store, task="attention")
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        screen.query_one("#code-editor", TextArea).load_text(WRONG["attention/scale-by-dk"])
        await run_and_wait(pilot, screen)
        assert "不是除以 dₖ" in result_text(screen) and "7.9" in result_text(screen)
    assert attempts(store, "attention")[0].mistakes[0] == "attention/scale-by-dk"


async def test_solution_only_after_asking_twice_and_it_is_recorded(store):
    app = make(store, task="causal_mask")
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "np.tril" not in result_text(screen) and not may_show_solution(store, "causal_mask")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "np.tril" in result_text(screen))
    assert may_show_solution(store, "causal_mask")


async def test_last_attempt_reopens_the_code(store):
    app = make(store, task="padding_mask")
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        screen.query_one("#code-editor", TextArea).load_text("def padding_mask(lengths, S):\n    return 42\n")
        await run_and_wait(pilot, screen)
    app = make(store, task="padding_mask")
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: "return 42" in screen.query_one("#code-editor", TextArea).text)
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: "0/" in result_text(screen))


@pytest.mark.parametrize(
    "passed, failed_before, seconds, budget, grade",
    [
        (False, 0, 10, 300, 1),
        (True, 0, 10, 300, 4),
        (True, 0, 400, 300, 3),
        (True, 2, 10, 300, 2),
    ],
)
def test_proposed_grade(passed, failed_before, seconds, budget, grade):
    assert propose_grade(passed, failed_before, seconds, budget) == grade


async def test_external_editor_edits_the_code(store, monkeypatch, tmp_path):
    import shlex
    import sys

    editor = tmp_path / "editor.py"  # an "editor" that rewrites the file it is given
    editor.write_text(
        "import sys\np = sys.argv[1]\nt = open(p).read()\n"
        "open(p, 'w').write(t.replace('raise NotImplementedError', 'return x'))\n"
    )
    monkeypatch.setenv("VISUAL", f"{shlex.quote(sys.executable)} {shlex.quote(str(editor))}")
    app = make(store)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: "return x" in screen.query_one("#code-editor", TextArea).text)
        assert "NotImplementedError" not in screen.query_one("#code-editor", TextArea).text


async def test_timed_mode_counts_down_the_budget(store):
    now = [100.0]
    app = make_app("code", store=store, clock=frozen_clock, timer=lambda: now[0], task="noam_lr", timed=True)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        budget = get_task("noam_lr").budget_s
        assert screen.remaining == budget
        now[0] += 61
        screen._tick()
        await pilot.pause()
        assert screen.remaining == budget - 61
        assert "time left 2:59" in str(screen.query_one("#code-header", Static).content)
        now[0] += 1000
        screen._tick()
        await pilot.pause()
        assert "time is up" in str(screen.query_one("#code-header", Static).content)
