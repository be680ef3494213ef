"""At 80x24 a generated question's sentence stays in view once answered (issue 28, "Quiz": "at 80x24 the question
scrolls out of view once answered"). The chapter's quizzes kept theirs since the options close up and the scroll
stops at the question (tests/quiz/test_why_wrong.py); a generated question's matrices are taller than the room, so
the feedback pushed its sentence off the top. The sentence now sits above the scrolling part.

Oracle: the rendered screen (an SVG screenshot read back as rows of text), not the widgets' own state."""

from __future__ import annotations

import pytest

import drill.i18n
from tests.tui.conftest import wait_until
from tests.tui.screenshots import screen_lines
from tests.tui.test_quiz import question_shown


def _squeezed(lines: list[str]) -> str:
    return "".join("".join(line.split()) for line in lines)


def _matrix_rows(stem: str) -> int:
    _, _, givens = stem.partition("\n\n")
    return sum(line.strip().startswith("[") for line in givens.splitlines())


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_generated_matrix_question_keeps_its_sentence_in_view_once_answered(quiz_app, lang):
    drill.i18n.set_language(lang)
    verdict = "✗错误" if lang == "zh" else "✗Wrong"
    app = quiz_app(generated=10, count=10, seed=7)
    checked = []
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await question_shown(pilot)
        while True:
            item = screen.item
            if item.kind == "generated" and not item.numeric and _matrix_rows(item.stem) >= 8:
                wrong = next(o for o in item.options if o.key != item.answer)
                await pilot.press(wrong.letter.lower())
                await wait_until(pilot, lambda: screen.answered is not None)
                await pilot.pause()
                shown = _squeezed(screen_lines(app.export_screenshot(), 80))
                sentence = "".join(item.stem.partition("\n\n")[0].split())
                assert sentence in shown, (item.id, sentence, shown)  # the whole sentence, not only its start
                assert verdict in shown, (item.id, shown)
                checked.append(item.id)
            else:
                await pilot.press(*(["0", "enter"] if item.numeric else [item.options[0].letter.lower()]))
                await wait_until(pilot, lambda: screen.answered is not None)
            if screen.run.finished:
                break
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.answered is None)
    assert len(checked) >= 2, checked  # the seed gives two: all by hand (X, W_Q, W_K) and the output O = P·V


@pytest.fixture
def quiz_app(library, store):
    from tests.tui.conftest import fixed_quiz

    return lambda **overrides: fixed_quiz(library, store, **overrides)
