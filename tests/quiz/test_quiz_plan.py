"""A quiz's order is known before its generated questions are made (drill.tui.models.quiz_plan), and it is the
order the quiz always had.

Oracle: the questions built all at once, as `build_items` built them before the plan existed (the generated
questions first, then the chapter's, one of each stem, one shuffle), written out here.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import drill.content.generated
from drill.tui.models.quiz import chapter_item, generated_item
from drill.tui.models.quiz_plan import PENDING, build_items, plan_items, quiz_sections


def made_at_once(library, *, count=None, section=None, shuffle=True, generated=0, seed=0):
    rng = random.Random(seed) if shuffle else None
    quizzes = [q for q in library.quizzes if section is None or section in quiz_sections(library, q)]
    n = min(generated, count or generated)
    made = [generated_item(q) for q in drill.content.generated.generate_questions(seed, n)] if n else []
    if rng is not None:
        rng.shuffle(quizzes)
    if count:
        quizzes = quizzes[: max(0, count - len(made))]
    items = [chapter_item(q, rng) for q in quizzes] + made
    items = list({item.stem: item for item in reversed(items)}.values())[::-1]
    if rng is not None:
        rng.shuffle(items)
    return items


def shown(items):
    return [(item.id, item.stem, [(o.letter, o.key) for o in item.options]) for item in items]


@pytest.mark.parametrize("generated", [0, 3, 8])
@pytest.mark.parametrize("count", [None, 5])
def test_the_plan_keeps_the_order_a_seed_always_gave(library, generated, count):
    for seed in range(12):
        for shuffle in (True, False):
            kwargs = dict(count=count, shuffle=shuffle, generated=generated, seed=seed)
            assert shown(build_items(library, **kwargs)) == shown(made_at_once(library, **kwargs))


def test_the_plan_makes_no_generated_question_and_its_first_chapter_question_is_the_one_asked(
    library, monkeypatch
):
    real = drill.content.generated.generate_questions
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(drill.content.generated, "generate_questions", counted)
    openings = set()
    for seed in range(16):
        plan = plan_items(library, generated=8, seed=seed)
        assert calls == []
        placeholders = plan.placeholders()
        assert len(placeholders) == len(library.quizzes) + 8
        assert sum(item is PENDING for item in placeholders) == 8
        items = plan.complete()
        calls.clear()
        assert [item.kind for item in items] == [
            "generated" if item is PENDING else "chapter" for item in placeholders
        ]
        # every chapter question made by the plan is the one asked, where it was planned
        assert all(a is b for a, b in zip(placeholders, items, strict=True) if a is not PENDING)
        first = plan.first()
        assert (first is items[0]) if first is not None else items[0].kind == "generated"
        openings.add(first is not None)
    assert openings == {True, False}  # both kinds of opening are seen in these seeds


def test_a_generated_question_asking_what_a_chapter_question_asks_is_left_out(library, monkeypatch):
    real = drill.content.generated.generate_questions
    stem = library.quizzes[0].stem

    def one_repeats_the_chapter(seed, n, section=None):
        questions = real(seed, n, section=section)
        from dataclasses import replace

        return [replace(questions[0], prompt=stem), *questions[1:]]

    monkeypatch.setattr(drill.content.generated, "generate_questions", one_repeats_the_chapter)
    items = build_items(library, generated=3, seed=2)
    assert len(items) == len(library.quizzes) + 2
    assert [item.kind for item in items if item.stem == stem] == ["chapter"]


def test_planning_a_quiz_imports_no_numpy():
    code = (
        "import sys\n"
        "from drill.content import load_content\n"
        "from drill.tui.models.quiz_plan import plan_items\n"
        "plan = plan_items(load_content(), generated=8, seed=1)\n"
        "assert 'numpy' not in sys.modules, 'numpy was imported to plan'\n"
        "plan.complete()\n"
        "assert 'numpy' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
