"""The catalogue of mistakes: wording is the chapter's, every wrong variant is wrong somewhere, and every
mistake written as a learner would write it fails its hidden tests and is named."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from drill.engine.codetasks import TASKS
from drill.engine.codetasks.grade import _same
from drill.engine.mistakes import MISTAKES
from drill.runner.verdict import check
from tests.code.submissions import WRONG

# the shipped chapter, inside the repository (the same file as the course's seed)
CHAPTER = Path(__file__).resolve().parents[2] / "data" / "transformer-chapter-7.md"
# the coding drills' mistakes; the quiz's counts and shapes (drill.engine.mistakes.quiz_shapes, .quiz_counts) share the catalogue
# and are tested in tests/content/test_content_generated.py
CODE_MISTAKES = sorted(mid for mid, m in MISTAKES.items() if m.task in TASKS)
HEADINGS = set(re.findall(r"^## (7\.\d+) ", CHAPTER.read_text(encoding="utf-8"), flags=re.M))


@pytest.mark.parametrize("mid", CODE_MISTAKES)
def test_mistake_cites_a_real_section_and_the_chapter_words(mid):
    m = MISTAKES[mid]
    assert re.fullmatch(r"[a-z_]+/[a-z0-9-]+", m.id) and m.task in TASKS
    assert m.section in HEADINGS
    if m.verbatim:  # word for word, Markdown and LaTeX as the chapter writes them
        assert m.wording in CHAPTER.read_text(encoding="utf-8")


@pytest.mark.parametrize("mid", CODE_MISTAKES)
def test_every_wrong_variant_differs_from_the_engine_on_some_hidden_case(mid):
    m = MISTAKES[mid]
    task = TASKS[m.task]
    differs = []
    for case in task.cases(seed=7):
        if case.expect_error:
            continue
        right = task.expected(case)
        right = right if len(right) > 1 else right[0]
        try:
            wrong = m.evaluate(*case.args, **case.kwargs)
        except Exception:
            continue
        differs.append((case.name, not _same(wrong, right)))
    assert any(d for _, d in differs), differs
    # the edge case named for this mistake shows it, whatever the seed
    named = [c for c in task.cases(seed=11) if c.pitfall == mid]
    for case in named:
        right = task.expected(case)
        assert not _same(m.evaluate(*case.args, **case.kwargs), right if len(right) > 1 else right[0])


def test_every_mistake_has_a_hand_written_submission():
    assert set(WRONG) == set(CODE_MISTAKES)


@pytest.mark.parametrize("mid", sorted(WRONG))
def test_a_submission_with_the_mistake_fails_and_is_named(mid):
    task = TASKS[MISTAKES[mid].task]
    verdict = check(task, WRONG[mid], seed=3)
    assert verdict.run.load == "ok"
    assert not verdict.all_passed
    assert mid in [m.id for m in verdict.mistakes], [
        (g.case.name, g.status, g.mistake) for g in verdict.grades
    ]


def test_catalogue_is_pure_numpy():
    m = MISTAKES["attention/scale-by-dk"]
    out, A = m.evaluate(np.eye(2), np.eye(2), np.eye(2))
    assert A.shape == (2, 2) and np.allclose(A.sum(-1), 1)
