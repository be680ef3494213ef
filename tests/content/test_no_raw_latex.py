"""No raw LaTeX reaches the screen: every string of the shipped content a card, a note or a quiz shows, rendered
as the screens render it (drill.content.latex.render_text), holds no ``_{``/``^{`` group, no backslash macro and no
``$`` delimiter outside code. The chapter writes ``x_{t+1}`` in plain text (q15) once: it is shown as xₜ₊₁.

A bare script's base may be any Latin or Greek word (``Σ_{j}``, ``α^{2}``), right after Chinese text
(``权重e^{−100}``), with one nested group (``e^{S_{ij}}``): the screens (render_text) and the Anki export
(report.anki) render them by one rule, and `test_the_anki_export_and_the_screens_render_the_same_bare_scripts`
fails when the two diverge."""

from __future__ import annotations

import html
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
        ("分母是 Σ_{j} e^{S_{ij}}", "分母是 Σⱼ e^(Sᵢⱼ)"),
        ("权重e^{−100}，方差 σ^{2}", "权重e⁻¹⁰⁰，方差 σ²"),
    ],
)
def test_a_bare_script_outside_math_is_rendered_and_code_is_kept(text, shown):
    assert render_text(text) == shown
    assert not _raw(shown)


# Probes for the one rule: every shown string with a bare script, and bases the old ASCII-only copy missed.
PROBES = [
    "位置 t 的预测会「看到」答案 x_{t+1}，等于作弊",
    "the weight is e^{−100}/Σ_{j} e^{S_{ij}}",
    "（a = e^{1/√2}）与 α^{2}",
    "权重e^{−100} 是正数",
    "kept: `x_{t+1}` but not W_{Q}",
]


def _bare_probes():
    from drill.content.latex import split_math

    seen = set(PROBES)
    for _where, text in _shown_strings():
        if any(
            kind == "text" and ("_{" in seg or "^{" in seg) for kind, seg in split_math(CODE.sub(" ", text))
        ):
            seen.add(text)
    return sorted(seen)


def test_the_anki_export_and_the_screens_render_the_same_bare_scripts():
    """The Anki export has no rule of its own: each formula it hands MathJax from running text is one the screen
    renders in place, and neither leaves a raw ``_{``/``^{`` outside a formula."""
    from drill.report.anki import to_anki_html

    diverge = {}
    for text in _bare_probes():
        exported = to_anki_html(text)
        formulas = [html.unescape(f) for f in re.findall(r"\\\((.*?)\\\)", exported)]
        outside = re.sub(r"\\\(.*?\\\)|<code>.*?</code>", " ", exported)
        screen = render_text(text)
        problems = [f for f in formulas if render_text(f"${f}$") not in screen]
        problems += re.findall(r"[_^]\{", outside) + _raw(screen)
        if problems:
            diverge[text] = problems
    assert diverge == {}
