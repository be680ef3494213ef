"""The quiz's questions and scoring without a screen: order, option mapping, sections, streaks."""

from __future__ import annotations

import pytest

from drill.errors import InputError
from drill.tui.models.quiz import QuizRun
from drill.tui.models.quiz_plan import build_items
from tests.tui.conftest import frozen_clock, library_of


def test_the_same_seed_gives_the_same_quiz(library):
    first = build_items(library, seed=11, generated=3)
    again = build_items(library, seed=11, generated=3)
    assert [(i.id, [o.key for o in i.options]) for i in first] == [
        (i.id, [o.key for o in i.options]) for i in again
    ]
    assert len(first) == len(library.quizzes) + 3
    assert {i.kind for i in first} == {"chapter", "generated"}


def test_no_shuffle_keeps_file_order_and_option_order(library):
    items = build_items(library, shuffle=False)
    assert [i.id for i in items] == [q.id for q in library.quizzes]
    for item, quiz in zip(items, library.quizzes, strict=True):
        assert [(o.letter, o.key, o.text) for o in item.options] == [
            (k, k, t) for k, t in quiz.options.items()
        ]


def test_shuffled_options_still_name_the_right_answer(library):
    for seed in range(20):
        for item in build_items(library, seed=seed):
            quiz = next(q for q in library.quizzes if q.id == item.id)
            right = item.option_by_key(quiz.answer)
            assert right.text == quiz.options[quiz.answer]
            assert item.answer_text().startswith(right.letter)


def test_count_and_section(library):
    assert len(build_items(library, count=3, seed=1)) == 3
    section = library.quizzes[0].section
    assert all(i.section == section for i in build_items(library, section=section))
    generated = build_items(library_of([], library), section="7.12", generated=3, seed=4)
    assert len(generated) == 3 and {i.section for i in generated} == {"7.12"}
    with pytest.raises(InputError, match="9.99"):
        build_items(library, section="9.99")


def test_streaks_and_wrong_answers(library):
    run = QuizRun(build_items(library, shuffle=False, count=5), frozen_clock)
    outcomes = []
    for n in range(5):
        item = run.current
        right = item.option_by_key(item.answer).letter
        wrong = next(o.letter for o in item.options if o.key != item.answer)
        if n == 3:
            result = run.time_out(30000)
        else:
            result = run.choose(right if n in (0, 1, 4) else wrong, 1000)
        outcomes.append(result.correct)
    assert outcomes == [True, True, False, False, True]
    assert run.finished and run.score == 3 and run.best_streak == 2 and run.streak == 1
    assert [r.item.id for r in run.wrong()] == [q.id for q in library.quizzes[2:4]]
    cards = run.related_cards()
    assert cards == list(dict.fromkeys(c for q in library.quizzes[2:4] for c in q.cards))
    records = run.records()
    assert [r.timed_out for r in records] == [False, False, False, True, False]
    assert records[3].chosen is None and records[2].chosen != library.quizzes[2].answer


def test_generated_questions_are_kept_within_count(library):
    for shuffle in (True, False):
        items = build_items(library, count=4, generated=2, shuffle=shuffle, seed=9)
        assert len(items) == 4 and sum(i.kind == "generated" for i in items) == 2
    only = build_items(library, count=2, generated=5, seed=9)
    assert [i.kind for i in only] == ["generated", "generated"]
