"""The code screen under the pseudo-locale (issue 13 §1): the task and its editor, the results after a failing
and after a passing run (with PyTorch's result beside the learner's), the proposed grade, the history, the
solution and the toasts. Every word on screen is drill's own through the catalog (inside ⟦…⟧), the task's (the
chapter's words: its title, prompt, formula, case names, the verbatim mistakes' wording), code, or an engine
name. (`drill code --list`, the task list, is the CLI's: tests/i18n/test_cli_pseudo.py.)"""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from drill.engine.codetasks import get_task
from drill.tui.app import make_app
from tests.code.submissions import WRONG
from tests.code.test_code_screen import run_and_wait
from tests.i18n.conftest import pseudo, pseudo_locale_dir  # noqa: F401 - the fixtures
from tests.i18n.test_screens_pseudo import shown_unmarked
from tests.notified import notified
from tests.tui.conftest import frozen_clock, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# The header names the command as typed ("drill code · softmax · 7.10"; "drill" is exempt already); PyTorch
# is a library's name (its result's table is headed by it alone), the same in every language.
NAMES = (r"\bcode\b(?= ·)", r"\bPyTorch\b")


def task_content(name: str, *code: str) -> str:
    """What the screen shows of the task itself (the chapter's words and notation), and code: the starter, the
    solution, what the learner typed."""
    from drill.content.latex import render_latex, render_text
    from drill.engine.mistakes import mistakes_for
    from drill.runner import torch_ref

    task = get_task(name)
    prompt = render_text(task.prompt, markdown=True)
    shown = prompt.replace("**", "").replace("`", "")  # as the Markdown widget draws it: no emphasis marks
    texts = [task.name, task.title, task.prompt, prompt, shown, task.signature]
    texts += [task.formula, render_latex(task.formula), task.starter(), task.solution(), *code]
    texts.append(torch_ref.call(name) or "")  # the PyTorch call its result is computed with: code
    texts += [output.name for output in task.outputs] + [output.step for output in task.outputs]
    cases = task.cases(0)
    texts += [case.name for case in cases]
    for mistake in mistakes_for(name):
        texts.append(mistake.id)
        if mistake.verbatim:  # the chapter's words; drill's own wording goes through the catalog
            texts += [mistake.wording, render_text(mistake.wording)]
    return "\n".join(texts)


async def test_the_code_screen_speaks_only_through_the_catalog(pseudo, store):  # noqa: F811
    wrong = WRONG["softmax/wrong-axis"]  # a named mistake, with values PyTorch shows beside
    app = make_app("code", store=store, clock=frozen_clock, task="softmax", seed=7)
    content = task_content("softmax", wrong)
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen.store is not None)
        await pilot.pause()
        assert shown_unmarked(app, content, NAMES) == []

        editor = screen.query_one("#code-editor", TextArea)
        editor.load_text(wrong)
        await run_and_wait(pilot, screen)
        await wait_until(pilot, lambda: screen.torch_shown is screen.verdict, tries=5000)
        await pilot.pause()
        assert "softmax/wrong-axis" in screen.shown.plain and "PyTorch" in screen.shown.plain
        assert screen.proposed == 1 and shown_unmarked(app, content, NAMES) == []

        await pilot.press("ctrl+s")  # asked once: a toast says it is recorded if asked again
        await wait_until(pilot, lambda: bool(notified(app)))
        await pilot.pause()
        assert shown_unmarked(app, content, NAMES) == []
        app.clear_notifications()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "def " in screen.shown.plain)
        await pilot.pause()
        assert shown_unmarked(app, content, NAMES) == []

        editor.load_text(get_task("softmax").solution())
        await run_and_wait(pilot, screen)
        await pilot.pause()
        assert screen.verdict.all_passed and shown_unmarked(app, content, NAMES) == []

        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: screen.shown.plain.count("\n") > 3)
        await pilot.pause()
        assert shown_unmarked(app, content, NAMES) == []

        screen.set_focus(None)
        await pilot.press("enter")  # confirm the proposed grade: a toast
        await wait_until(pilot, lambda: screen.graded)
        await pilot.pause()
        assert shown_unmarked(app, content, NAMES) == []
