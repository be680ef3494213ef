"""Generated numeric questions: every answer matches an independent numpy recomputation from the inputs the
question shows; generation is deterministic for a seed; typed answers are parsed strictly."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.content.generated import (
    CHOICE,
    KINDS,
    NUMERIC,
    GeneratedQuestion,
    check_answer,
    check_numeric_answer,
    generate_questions,
    parse_number,
)
from drill.errors import InputError


def reference_weights(q: GeneratedQuestion):
    """Scaled scores and softmax weights recomputed from the shown inputs with plain numpy."""
    x, wq, wk = (np.array(q.inputs[k], dtype=float) for k in ("X", "W_Q", "W_K"))
    assert wq.shape[1] == q.inputs["d_k"]
    scaled = (x @ wq) @ (x @ wk).T / math.sqrt(q.inputs["d_k"])
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    return scaled, e / e.sum(axis=1, keepdims=True)


def reference_answer(q: GeneratedQuestion):
    if q.topic == "score-shape":
        d = q.inputs
        rows, cols = (d["S_dec"], d["S_enc"]) if "S_dec" in d else (d["S"], d["S"])
        return f"[{d['B']}, {rows}, {cols}]"
    scaled, weights = reference_weights(q)
    i = q.inputs["i"]
    if q.topic == "argmax-key":
        return f"key token {int(np.argmax(weights[i])) + 1}"
    j = q.inputs["j"]
    return weights[i, j] if q.topic == "softmax-weight" else scaled[i, j]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), n=st.integers(min_value=1, max_value=12))
def test_answers_match_an_independent_recomputation(seed, n):
    questions = generate_questions(seed, n)
    assert len(questions) == n
    assert len({q.id for q in questions}) == n
    for q in questions:
        expected = reference_answer(q)
        if q.kind == NUMERIC:
            assert q.tolerance and q.tolerance > 0 and q.options is None
            assert q.answer == pytest.approx(expected, abs=1e-12)
            assert check_numeric_answer(f"{expected:.4f}", q)
            assert not check_numeric_answer(f"{expected + 3 * q.tolerance:.6f}", q)
        else:
            assert q.kind == CHOICE and q.tolerance is None
            assert q.answer in q.options
            assert q.options[q.answer] == expected
            assert len(set(q.options.values())) == len(q.options) >= 4  # distinct, real choices
            assert check_answer(q.answer.lower(), q)
        assert q.prompt.strip() and q.explanation.strip()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_deterministic_for_a_seed(seed):
    assert generate_questions(seed, 8) == generate_questions(seed, 8)


def test_every_kind_appears_and_questions_are_not_degenerate():
    questions = generate_questions(11, 80)
    assert {q.topic for q in questions} == set(KINDS)
    for q in questions:
        if q.topic == "softmax-weight":
            assert 0.05 <= q.answer <= 0.95  # a guess of 0 or 1 is never within tolerance
        if q.topic == "argmax-key":
            _, weights = reference_weights(q)
            top2 = sorted(weights[q.inputs["i"]])[-2:]
            assert top2[1] - top2[0] > 0.02  # one clear answer
        if q.topic == "score-shape":
            assert ("S_dec" in q.inputs) == (q.section == "7.18")
    assert any("S_dec" in q.inputs for q in questions) and any("S" in q.inputs for q in questions)


def test_prompt_shows_the_inputs_as_plain_text():
    q = next(q for q in generate_questions(5, 8) if q.topic == "softmax-weight")
    assert "X =" in q.prompt and "W_Q =" in q.prompt and f"d_k = {q.inputs['d_k']}" in q.prompt
    first_row = "  ".join(str(v) for v in q.inputs["X"][0])
    assert first_row.replace(" ", "") in q.prompt.replace(" ", "")
    assert "±0.005" in q.prompt


@pytest.mark.parametrize(
    "text, value",
    [
        ("0.25", 0.25),
        (" .25 ", 0.25),
        ("25%", 0.25),
        ("1/4", 0.25),
        ("−0.5", -0.5),
        ("０．２５", 0.25),
        ("2.5e-1", 0.25),
    ],
)
def test_parse_number_accepts_what_people_type(text, value):
    assert parse_number(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "  ", "abc", "0.2.5", "1/0", "nan", "inf", "[0.2]", "0,25"])
def test_parse_number_rejects_non_numbers_with_input_error(text):
    with pytest.raises(InputError):
        parse_number(text)


def test_choice_answer_must_be_an_option():
    q = next(q for q in generate_questions(2, 8) if q.kind == CHOICE)
    with pytest.raises(InputError, match="not one of the options"):
        check_answer("Z", q)


def test_importing_the_module_does_not_import_numpy():
    code = "import sys, drill.content.generated; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("section", ["7.7", "7.9", "7.11", "7.12", "7.18"])
def test_section_filter_gives_n_questions_of_that_section(section):
    questions = generate_questions(4, 6, section=section)
    assert len(questions) == 6 and {q.section for q in questions} == {section}
    for q in questions:
        expected = reference_answer(q)
        if q.kind == NUMERIC:
            assert q.answer == pytest.approx(expected, abs=1e-12)
        else:
            assert q.options[q.answer] == expected


def test_section_without_generated_questions_is_an_input_error():
    with pytest.raises(
        InputError, match="no generated questions for section 7.1 .*7.7, 7.9, 7.11, 7.12, 7.18"
    ):
        generate_questions(1, 3, section="7.1")
