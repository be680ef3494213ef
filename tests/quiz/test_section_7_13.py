"""`drill quiz --section 7.13` (formula ↔ code): the section has generated questions of its own (docs/quiz.md
says every card section does), and the quiz screen asks them and takes the right letter as right.

Oracle for the right letter: the question's code lines run by PyTorch (tests/quiz/test_template_properties.py);
here the screen only has to ask what the model built and grade it."""

from __future__ import annotations

from drill.content.generated import sections
from drill.tui.app import make_app
from drill.tui.models.quiz import GENERATED
from drill.tui.models.quiz_plan import build_items
from tests.helpers import plain
from tests.quiz.test_template_properties import check_code
from tests.tui.conftest import frozen_clock, library_of, wait_until


def test_section_7_13_has_generated_questions_and_they_are_right(library):
    assert "7.13" in sections()
    items = build_items(library_of([], library), section="7.13", generated=8, seed=5)
    assert (
        len(items) == 8 and {i.section for i in items} == {"7.13"} and {i.kind for i in items} == {GENERATED}
    )
    topics = {i.question.topic for i in items}
    assert topics == {"formula-code", "masked-weights"}
    for item in items:
        if item.question.topic == "formula-code":
            check_code(item.question)


async def test_the_quiz_screen_asks_a_7_13_question_and_grades_the_right_letter(library, store):
    app = make_app(
        "quiz",
        library=library_of([], library),
        store=store,
        clock=frozen_clock,
        section="7.13",
        generated=2,
        seed=1,
        seconds=30,
        shuffle=False,
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(
            pilot, lambda: app.error is not None or getattr(app.mode_screen, "run", None) is not None
        )
        assert app.error is None, app.error
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen.item is not None)
        item = screen.item
        assert item.section == "7.13" and "7.13" in item.stem
        await pilot.press(item.option_by_key(item.answer).letter.lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        assert screen.answered.correct
        assert "7.13" in plain(screen.query_one("#quiz-meta"))
