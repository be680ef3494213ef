"""No raw LaTeX reaches the screen: every string of the shipped content a card, a note or a quiz shows, rendered
as the screens render it (drill.content.latex.render_text), holds no ``_{``/``^{`` group, no backslash macro and no
``$`` delimiter outside code. The chapter writes ``x_{t+1}`` in plain text (q15) once: it is shown as xₜ₊₁."""

from __future__ import annotations

import re

import pytest

from drill.content.errata import card_notes, shown_span
from drill.content.latex import render_text
from drill.content.loader import load_content

CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
RAW = re.compile(r"[_^]\{|\\[A-Za-z]+|(?<!\\)\$")


def _raw(text: str) -> list[str]:
    return RAW.findall(CODE.sub(" ", text))


def _shown_strings():
    library = load_content()
    for card in library.cards.values():
        fields = [card.question, card.answer, card.bank_answer, card.bank_question, *(card.pitfalls or [])]
        for text in fields:
            if text:
                yield card.id, text
        for note in card_notes(card):
            yield f"{card.id} note", note.correction
            yield f"{card.id} quote", shown_span(note.span)
    for quiz in library.quizzes:
        for text in (quiz.stem, quiz.explanation, *quiz.options.values()):
            yield quiz.id, text


@pytest.mark.parametrize("markdown", [False, True])
def test_no_raw_latex_in_any_shown_content_string(markdown):
    left = {}
    for where, text in _shown_strings():
        raw = _raw(render_text(text, markdown=markdown))
        if raw:
            left[where] = raw
    assert left == {}


@pytest.mark.parametrize(
    "text, shown",
    [
        ("位置 t 的预测会「看到」答案 x_{t+1}，等于作弊", "位置 t 的预测会「看到」答案 xₜ₊₁，等于作弊"),
        ("the weight is e^{−100}/Σ", "the weight is e⁻¹⁰⁰/Σ"),
        ("（a = e^{1/√2}）", "（a = e^(1/√2)）"),
        ("kept: `x_{t+1}` and $d_k$", "kept: `x_{t+1}` and dₖ"),
    ],
)
def test_a_bare_script_outside_math_is_rendered_and_code_is_kept(text, shown):
    assert render_text(text) == shown
