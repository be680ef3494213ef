"""Pilot tests of `drill quiz` on the real content and the real store (a temp SQLite file).

Time is a fake monotonic clock: a timeout is produced by moving it past the limit and letting the countdown
check (what its interval does a few times a second), never by sleeping.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from drill.content.generated import generate_questions
from drill.content.models import Quiz
from drill.errors import InputError
from drill.store import open_store
from drill.store.tables import answers_t, attempts_t
from drill.tui.app import make_app
from drill.tui.screens.quiz import QuizScreen
from drill.tui.screens.quiz_score import QuizScoreScreen
from drill.tui.widgets.choices import ChoiceRow
from drill.tui.widgets.countdown import Countdown
from tests.helpers import plain
from tests.tui.conftest import NOW, frozen_clock, library_of, wait_until


class FakeTimer:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def timer() -> FakeTimer:
    return FakeTimer()


@pytest.fixture
def quiz_app(library, store, timer):
    def build(**overrides):
        options = dict(
            library=library, store=store, clock=frozen_clock, timer=timer, shuffle=False, seconds=30, seed=7
        )
        options.update(overrides)
        return make_app("quiz", **options)

    return build


def screen_of(app) -> QuizScreen:
    assert isinstance(app.mode_screen, QuizScreen)
    return app.mode_screen


async def question_shown(pilot) -> QuizScreen:
    app = pilot.app
    await wait_until(
        pilot, lambda: app.error is not None or getattr(app.mode_screen, "run", None) is not None
    )
    assert app.error is None, app.error
    await app.workers.wait_for_complete()
    await pilot.pause()
    return screen_of(app)


def letter_of(screen: QuizScreen, key: str) -> str:
    return screen.item.option_by_key(key).letter


def stored_attempts(db_url: str):
    reopened = open_store(db_url, "tester")
    try:
        with reopened.engine.connect() as conn:
            attempts = conn.execute(select(attempts_t).order_by(attempts_t.c.id)).mappings().all()
            answers = conn.execute(select(answers_t).order_by(answers_t.c.id)).mappings().all()
        return attempts, answers
    finally:
        reopened.close()


async def test_a_right_answer_by_letter(quiz_app, library):
    app = quiz_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        first = library.quizzes[0]
        assert screen.item.id == first.id  # --no-shuffle: file order
        assert first.stem in plain(screen.query_one("#quiz-stem"))
        await pilot.press(letter_of(screen, first.answer).lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        assert screen.answered.correct and screen.answered.chosen == first.answer
        feedback = plain(screen.query_one("#quiz-feedback"))
        assert "✓ Right" in feedback and first.explanation in feedback
        assert "score 1" in plain(screen.query_one("#quiz-header"))
        assert not screen.query_one(Countdown).running


async def test_a_wrong_answer_by_number_shows_the_answer(quiz_app, library):
    app = quiz_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        first = library.quizzes[0]
        wrong_key = next(k for k in first.options if k != first.answer)
        number = "ABCD".index(letter_of(screen, wrong_key)) + 1
        await pilot.press(str(number))
        await wait_until(pilot, lambda: screen.answered is not None)
        assert not screen.answered.correct and screen.answered.chosen == wrong_key
        rows = {row.key: row for row in screen.query(ChoiceRow)}
        assert rows[first.answer].has_class("right") and "✓ answer" in plain(rows[first.answer])
        assert rows[wrong_key].has_class("wrong") and "✗ your choice" in plain(rows[wrong_key])
        feedback = plain(screen.query_one("#quiz-feedback"))
        assert "✗ Wrong" in feedback and f"The answer is {letter_of(screen, first.answer)}" in feedback
        # A second key does not change a given answer.
        await pilot.press(letter_of(screen, first.answer).lower())
        await pilot.pause()
        assert len(screen.run.results) == 1 and not screen.run.results[0].correct


async def test_shuffled_options_keep_the_answer_mapping(quiz_app, library):
    app = quiz_app(shuffle=True, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        items = screen.run.items
        assert sorted(i.id for i in items) == sorted(q.id for q in library.quizzes)
        # Some question shows its options in another order than the file (letters follow display order).
        assert any([o.key for o in i.options] != list("ABCD") for i in items)
        for item in items:
            assert [o.letter for o in item.options] == list("ABCD")[: len(item.options)]
        item = screen.item
        await pilot.press(item.option_by_key(item.answer).letter.lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        assert screen.answered.correct
        assert screen.answered.chosen == item.answer  # the original key is what is stored


async def test_a_timeout_counts_as_wrong_and_shows_the_answer(quiz_app, library, timer):
    app = quiz_app(seconds=20)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        countdown = screen.query_one(Countdown)
        assert "20 s" in plain(countdown)
        timer.now += 12
        countdown.check()
        await pilot.pause()
        assert screen.answered is None and "8 s" in plain(countdown)
        timer.now += 8.5
        countdown.check()
        await wait_until(pilot, lambda: screen.answered is not None)
        result = screen.answered
        assert result.timed_out and not result.correct and result.chosen is None
        assert result.duration_ms == 20000
        feedback = plain(screen.query_one("#quiz-feedback"))
        first = library.quizzes[0]
        assert "Time's up" in feedback and f"The answer is {letter_of(screen, first.answer)}" in feedback
        assert screen.query_one("#quiz-feedback").has_class("wrong")
        # Answering after the timeout changes nothing.
        await pilot.press(letter_of(screen, first.answer).lower())
        await pilot.pause()
        assert len(screen.run.results) == 1


async def test_score_screen_and_every_answer_stored(quiz_app, library, timer, db_url):
    app = quiz_app(count=3)
    quizzes = library.quizzes[:3]
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        # 1: right (after 4 s)
        timer.now += 4
        await pilot.press(letter_of(screen, quizzes[0].answer).lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.answered is None and screen.item.id == quizzes[1].id)
        # 2: wrong
        wrong = next(k for k in quizzes[1].options if k != quizzes[1].answer)
        await pilot.press(letter_of(screen, wrong).lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.answered is None and screen.item.id == quizzes[2].id)
        # 3: time runs out
        timer.now += 31
        screen.query_one(Countdown).check()
        await wait_until(pilot, lambda: screen.answered is not None)
        assert "see your score" in plain(screen.query_one("#quiz-feedback"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, QuizScoreScreen))
        score = app.screen
        rendered = plain(score.query_one("#score"))
        assert "1 / 3" in rendered and "best streak" in rendered and "attempt #" in rendered
        review = plain(score.query_one("#score-review"))
        assert quizzes[1].id in review and quizzes[2].id in review and quizzes[0].id not in review
        assert "(time ran out)" in review
        assert screen.saved_attempt is not None
    attempts, answers = stored_attempts(db_url)
    assert len(attempts) == 1
    attempt = attempts[0]
    assert (attempt["score"], attempt["total"]) == (1, 3) and attempt["finished_at"] is not None
    assert attempt["settings"]["count"] == 3 and attempt["settings"]["shuffle"] is False
    assert [a["item_id"] for a in answers] == [q.id for q in quizzes]
    assert [a["correct"] for a in answers] == [True, False, False]
    assert [a["chosen"] for a in answers] == [quizzes[0].answer, wrong, None]
    assert [a["timed_out"] for a in answers] == [False, False, True]
    assert answers[0]["duration_ms"] == 4000 and answers[2]["duration_ms"] == 30000
    assert {a["kind"] for a in answers} == {"chapter"}


async def test_make_the_cards_of_wrong_answers_due_now(quiz_app, library, store):
    first = library.quizzes[0]
    studied, *others = first.cards
    store.sync_content(library)
    store.grade(studied, 4, NOW - timedelta(hours=1))  # Easy: due days from now
    assert store.card_info(studied, NOW).due > NOW
    app = quiz_app(count=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        wrong = next(k for k in first.options if k != first.answer)
        await pilot.press(letter_of(screen, wrong).lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, QuizScoreScreen))
        offer = plain(app.screen.query_one("#score-offer"))
        assert studied in offer and f"make the {len(first.cards)} cards" in offer
        await pilot.press("m")
        await wait_until(pilot, lambda: app.screen.made_due is not None)
        assert app.screen.made_due == 1  # the never-studied card stays new
        assert "now due" in plain(app.screen.query_one("#score-offer"))
    assert store.card_info(studied, NOW).due == NOW
    for card in others:
        assert store.card_info(card, NOW).kind.value == "new"


async def test_quitting_part_way_keeps_the_answers_given(quiz_app, library, db_url):
    app = quiz_app(count=3)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        await pilot.press(letter_of(screen, library.quizzes[0].answer).lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    attempts, answers = stored_attempts(db_url)
    assert len(attempts) == 1 and attempts[0]["finished_at"] is None
    assert (attempts[0]["score"], attempts[0]["total"]) == (1, 1)
    assert [a["item_id"] for a in answers] == [library.quizzes[0].id]


async def test_a_wrong_generated_option_names_its_mistake_and_the_section(quiz_app, library, db_url):
    question = generate_questions(6, 4)[0]
    wrong = next(letter for letter in question.mistakes)
    mistake = question.mistakes[wrong]
    app = quiz_app(library=library_of([], library), generated=4, seed=6)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        assert screen.item.id == question.id and not screen.item.numeric
        await pilot.press(wrong.lower())
        await wait_until(pilot, lambda: screen.answered is not None)
        assert not screen.answered.correct
        feedback = plain(screen.query_one("#quiz-feedback"))
        assert mistake in feedback and "reread §" in feedback
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    _, answers = stored_attempts(db_url)
    assert answers[0]["kind"] == "generated" and answers[0]["chosen"] == wrong and not answers[0]["correct"]


async def test_a_sectioned_quiz_mixes_the_chapter_and_the_engine_without_repeats(quiz_app, library, db_url):
    section = "7.9"
    chapter = [q for q in library.quizzes if any(library.cards[c].section == section for c in q.cards)]
    assert chapter and all(q.section == "7.25" for q in chapter)  # filed under 7.25, found through its cards
    app = quiz_app(section=section, generated=3, seed=2)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        items = screen.run.items
        assert {i.kind for i in items} == {"chapter", "generated"}
        assert {i.id for i in items if i.kind == "chapter"} == {q.id for q in chapter}
        assert all(i.section == section for i in items if i.kind == "generated")
        assert len({i.stem for i in items}) == len(items)
        for item in items:
            assert screen.item.id == item.id
            await pilot.press(item.option_by_key(item.answer).letter.lower())
            await wait_until(pilot, lambda: screen.answered is not None)
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.answered is None or screen.run.finished)
        await wait_until(pilot, lambda: not app.is_running or screen.run.finished)
    attempts, answers = stored_attempts(db_url)
    assert attempts[0]["score"] == attempts[0]["total"] == len(items)


async def test_generated_choice_question_is_answered_by_letter(quiz_app, library):
    questions = generate_questions(5, 8)
    app = quiz_app(library=library_of([], library), generated=8, seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        for question in questions:
            assert screen.item.id == question.id
            if question.kind == "choice":
                await pilot.press(question.answer.lower())
                await wait_until(pilot, lambda: screen.answered is not None)
                assert screen.answered.correct and screen.answered.chosen == question.answer
                return
            screen.query_one("#quiz-input").value = "0"
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.answered is not None)
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.answered is None)
    raise AssertionError("no choice question among the generated ones")


async def test_quiz_text_is_never_markup(quiz_app, library):
    quiz = Quiz(
        id="quiz-markup",
        pack="transformer-ch7",
        section="7.25",
        stem="[bold]x[/] [@click=app.quit]click[/] \x1b[31m?",
        options={"A": "[red]a[/red]", "B": "[@click=app.quit]b", "C": "c", "D": "d"},
        answer="B",
        explanation="[link=https://example.com]no link[/link]",
        cards=(),
    )
    lib = library_of([], library)
    lib = type(lib)(packs=lib.packs, cards=lib.cards, quizzes=[quiz], checks=lib.checks)
    app = quiz_app(library=lib)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        stem = plain(screen.query_one("#quiz-stem"))
        assert "[bold]x[/] [@click=app.quit]click[/]" in stem and "\x1b" not in stem and "␛" in stem
        rows = [plain(r) for r in screen.query(ChoiceRow)]
        assert "[red]a[/red]" in rows[0] and "[@click=app.quit]b" in rows[1]
        await pilot.click(ChoiceRow)  # clicking the first row answers A; the [@click] text does nothing
        await wait_until(pilot, lambda: screen.answered is not None)
        assert app.is_running
        assert "[link=https://example.com]no link[/link]" in plain(screen.query_one("#quiz-feedback"))


async def test_a_section_without_questions_is_a_clear_error(quiz_app):
    app = quiz_app(section="9.99")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.error is not None)
    assert isinstance(app.error, InputError) and "9.99" in str(app.error)


async def test_the_countdown_interval_times_out_on_the_real_clock(library, store):
    """The wiring, with time.monotonic: a 1-second question runs out on its own (polled, not slept)."""
    app = make_app("quiz", library=library, store=store, clock=frozen_clock, shuffle=False, seconds=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await question_shown(pilot)
        for _ in range(400):  # up to ~20 s on a slow machine; normally about 1 s
            if screen.answered is not None:
                break
            await pilot.pause(0.05)
        assert screen.answered is not None and screen.answered.timed_out


def test_the_countdown_reads_minutes_from_a_minute_on():
    from drill.tui.widgets.countdown import clock

    assert [clock(s) for s in (0, 9, 59, 60, 61, 179, 300, 3600)] == [
        "  0 s",
        "  9 s",
        " 59 s",
        " 1:00",
        " 1:01",
        " 2:59",
        " 5:00",
        "60:00",
    ]
