"""The code screen's layout (issue 28, "Code editor"): the prompt's display formula is never cut (one line wraps to
the pane, a drawn one keeps its lines), and a run's results show without scrolling (below an editor as tall as
its code at 80x24 and 120x40, beside it on a wide terminal); the task prompts speak the UI language.

Oracles: the formula as drill's LaTeX renderer writes it, looked for in the rendered screen (an SVG screenshot
read back as rows of text); the widgets' regions on screen; the Chinese text the prompts were written in."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Markdown, TextArea
from textual.widgets.markdown import MarkdownFence

import drill.i18n
from drill.content.latex import render_text
from drill.engine.codetasks import TASKS, get_task
from drill.tui.app import make_app
from tests.code.test_code_screen import run_and_wait
from tests.tui.conftest import frozen_clock, wait_until
from tests.tui.screenshots import screen_lines

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SIZES = [(80, 24), (120, 40), (200, 50)]
CJK = re.compile(r"[\u4e00-\u9fff]")


def fences(task: str) -> list[list[str]]:
    """The prompt's display formulas, each as its lines, as the renderer writes them (the oracle)."""
    md = render_text(get_task(task).prompt, markdown=True)
    return [block.split("\n") for block in re.findall(r"```text\n(.*?)\n```", md, re.S)]


def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("task", ["multi_head_attention", "sinusoidal_pe", "rope"])
async def test_the_prompt_formula_is_never_cut(store, task, size):
    app = make_app("code", store=store, clock=frozen_clock, task=task)
    async with app.run_test(size=size) as pilot:
        screen = app.mode_screen
        await wait_until(pilot, lambda: bool(screen.query(MarkdownFence)))
        await pilot.pause()
        (fence,) = screen.query(MarkdownFence)
        screen.query_one("#code-prompt").scroll_to_widget(fence, animate=False, top=True)
        await pilot.pause()
        prompt = screen.query_one("#code-prompt").content_region
        rows = [
            line[prompt.x : prompt.right]
            for line in screen_lines(app.export_screenshot(), size[0])[prompt.y : prompt.bottom]
        ]
        (formula,) = fences(task)
        if len(formula) == 1:  # one line: wrapped to the pane, every character of it on screen in order
            assert squeezed(formula[0]) in squeezed("".join(rows)), rows
        else:  # drawn: each line whole on one row, or the fence scrolls sideways with a scrollbar
            cut = [line for line in formula if not any(line.strip() in row for row in rows)]
            assert not cut or (fence.max_scroll_x > 0 and fence.show_horizontal_scrollbar), rows


@pytest.mark.parametrize("size, rows", [((80, 24), 12), ((120, 40), 28)], ids=["80x24", "120x40"])
async def test_a_run_s_results_show_below_an_editor_as_tall_as_its_code(store, size, rows):
    app = make_app("code", store=store, clock=frozen_clock, task="attention", seed=3)
    async with app.run_test(size=size) as pilot:
        screen = app.mode_screen
        editor = screen.query_one("#code-editor", TextArea)
        code_rows = editor.document.line_count + 2  # its lines and its border
        await pilot.pause()
        assert editor.outer_size.height <= max(
            code_rows + 1, 10
        )  # not a mostly empty editor (+ its scrollbar)
        await run_and_wait(pilot, screen)
        await pilot.pause()
        results = screen.query_one("#code-results")
        assert results.has_focus and results.scroll_y == 0
        assert results.region.bottom <= size[1] - 1 and results.scrollable_content_region.height >= rows
        shown = squeezed("".join(screen_lines(app.export_screenshot(), size[0])))
        assert squeezed(screen.shown.plain.split("\n")[0]) in shown  # the account's first line, in view
        editor.focus()  # back to the code: the editor shows it whole again
        await pilot.pause()
        assert editor.outer_size.height >= min(code_rows, 10)


async def test_on_a_wide_terminal_the_results_sit_beside_the_editor(store):
    app = make_app("code", store=store, clock=frozen_clock, task="attention", seed=3)
    async with app.run_test(size=(200, 50)) as pilot:
        screen = app.mode_screen
        await run_and_wait(pilot, screen)
        await pilot.pause()
        editor, results = screen.query_one("#code-editor").region, screen.query_one("#code-results").region
        assert results.x >= editor.right and results.y == editor.y and results.height >= 40


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_task_prompt_speaks_the_ui_language(store, lang):
    drill.i18n.set_language(lang)
    app = make_app("code", store=store, clock=frozen_clock, task="softmax")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.mode_screen
        await wait_until(pilot, lambda: bool(screen.query(MarkdownFence)))
        shown = screen.query_one("#code-prompt-text", Markdown).source
    if lang == "en":
        assert "Numerically stable row-wise softmax" in shown and "last dimension" in shown
        assert not CJK.search(shown), shown
    else:
        assert "数值稳定的逐行 Softmax" in shown and "先减去每行最大值" in shown


def test_every_prompt_is_translated_faithfully_formula_for_formula():
    """English and Chinese prompts of every task: the English has no Chinese left, the Chinese is Chinese, and
    both carry the same display formulas, inline math, code spans and bullet count (nothing dropped)."""

    def skeleton(text: str):
        return (
            re.findall(r"\$\$.*?\$\$", text, re.S),
            sorted(re.findall(r"(?<!\$)\$[^$]+\$(?!\$)", text)),
            text.count("\n- "),
        )

    for name in TASKS:
        drill.i18n.set_language("en")
        en = get_task(name).prompt, get_task(name).title
        drill.i18n.set_language("zh")
        zh = get_task(name).prompt, get_task(name).title
        assert not CJK.search(en[0] + en[1]), name
        assert CJK.search(zh[0]) and zh[0] != en[0], name
        assert skeleton(en[0]) == skeleton(zh[0]), name
