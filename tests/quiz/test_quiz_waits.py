"""A chapter question in first place is asked while the generated questions are made (QuizScreen.planned);
its answer's verdict waits until the answer is on disk (the store opens after them), and so does enter: the
second question comes once they exist, never a blank one. A generated question in first place is made before
the screen shows.

The generated questions are held (drill.content.generated.generate_questions waits on an event the test
sets); the order expected is the plan's own (`build_items` with the same seed), made in the test.
"""

from __future__ import annotations

import threading

import drill.content.generated
from drill.tui.app import make_app
from drill.tui.models.quiz_plan import build_items, plan_items
from tests.helpers import plain
from tests.tui.conftest import frozen_clock, wait_until
from tests.tui.test_quiz import stored_attempts


def held_generation(monkeypatch) -> threading.Event:
    made = threading.Event()
    real = drill.content.generated.generate_questions

    def held(*args, **kwargs):
        assert made.wait(30), "the test never let the generated questions be made"
        return real(*args, **kwargs)

    monkeypatch.setattr(drill.content.generated, "generate_questions", held)
    return made


async def test_an_answer_before_the_store_opens_gets_its_verdict_once_it_is_on_disk(
    library, db_url, monkeypatch
):
    seed = next(s for s in range(1, 100) if plan_items(library, generated=8, seed=s).first() is not None)
    expected = build_items(library, generated=8, seed=seed)  # made before the hold
    made = held_generation(monkeypatch)  # the worker opens the store after the generated questions
    app = make_app(
        "quiz", library=library, db_url=db_url, user="tester", clock=frozen_clock, seed=seed, generated=8
    )
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen.item is not None)
        first = screen.item
        assert first.kind == "chapter" and first.id == expected[0].id
        assert first.stem in plain(screen.query_one("#quiz-stem"))
        assert f"question 1/{len(expected)}" in plain(screen.query_one("#quiz-header"))
        assert screen.store is None
        await pilot.press(next(o.letter for o in first.options if o.key == first.answer).lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        feedback = plain(screen.query_one("#quiz-feedback"))
        assert "Saving your answer" in feedback and "✓" not in feedback and "✗" not in feedback
        assert not screen.query_one("#choices").has_class("answered")  # nothing of the verdict shown
        await pilot.press("enter")
        await pilot.pause()
        assert screen.answered is not None and screen.item.kind == "pending"  # enter waits with the answer
        assert first.stem in plain(screen.query_one("#quiz-stem"))
        made.set()
        await wait_until(pilot, lambda: "✓" in plain(screen.query_one("#quiz-feedback")))
        _attempts, answers = stored_attempts(db_url)  # acknowledged: on disk already, before any quit
        assert [(a["item_id"], a["correct"]) for a in answers] == [(first.id, True)]
        assert "Saving" not in plain(screen.query_one("#quiz-feedback"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.answered is None)
        second = screen.item
        assert second.id == expected[1].id
        assert second.stem.split("\n")[0] in plain(screen.query_one("#quiz-stem"))
        assert f"question 2/{len(expected)}" in plain(screen.query_one("#quiz-header"))
        await pilot.press("q")
    _attempts, answers = stored_attempts(db_url)
    assert [(a["item_id"], a["correct"]) for a in answers] == [(first.id, True)]


async def test_a_generated_question_first_is_made_before_the_screen_is_shown(library, db_url):
    """Without a chapter question first, the generated questions are made while the screen mounts (before its
    first paint): the screen asks the seed's first, generated, question from the start, the shell's "Loading
    the questions…" never."""
    seed = next(s for s in range(1, 100) if plan_items(library, generated=8, seed=s).first() is None)
    expected = build_items(library, generated=8, seed=seed)
    app = make_app(
        "quiz", library=library, db_url=db_url, user="tester", clock=frozen_clock, seed=seed, generated=8
    )
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.mode_screen
        assert screen.item is not None  # asked on mount, before the app ran a single step for the test
        assert screen.item.id == expected[0].id and screen.item.kind == "generated"
        assert "Loading the questions" not in plain(screen.query_one("#quiz-stem"))
        assert expected[0].stem.split("\n")[0] in plain(screen.query_one("#quiz-stem"))
        await pilot.press("q")
