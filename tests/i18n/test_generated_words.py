"""Generated quiz questions speak the UI language: their words go through the catalog, their numbers do not.

Oracle: tests/content/golden_generated.json, written by tests/content/golden_generated.py from the code as it
was when every template wrote its Chinese directly (24 templates x seeds 0..9, three whole quizzes). In Chinese
the questions are that record byte for byte; in English they are the same questions (same inputs, values,
right letter, mistakes, and the same numbers in every text) with no CJK character left. Under the pseudo-locale
every word of drill's own is marked.

Exempt: the mistake ids (names, the same in every language) and a note's ``{wording}`` when the named mistake
is ``verbatim`` (the chapter's own words, content); in English drill's own wordings are checked like every other
word. Under the pseudo-locale every wording is exempt: a marked wording's LaTeX groups (``$d_{ff}$``) look like
placeholders to the marker, so the rendered math splits its marks; tests/i18n/test_mistake_wordings.py checks
the catalogue's marks before rendering.
"""

from __future__ import annotations

import json
import re

import pytest

from drill.content.generated import generate_questions
from drill.content.latex import render_text
from drill.engine.mistakes import MISTAKES
from drill.i18n import current_language, set_language
from tests.content.golden_generated import GOLDEN, snapshot
from tests.i18n.pseudo import unmarked_words

CJK = re.compile("[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
FUNCTIONS = (r"\b(sin|cos)\b",)  # the PE template names the function a dimension uses: a name, not a word


def _golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def _now() -> dict:
    """The current code's record in the current language, through JSON as the golden record was."""
    return json.loads(json.dumps(snapshot(), ensure_ascii=False))


def _questions(record: dict):
    """(where, question) for every question of a record, in a fixed order."""
    for part in ("templates", "quizzes"):
        for key, questions in record[part].items():
            for n, q in enumerate(questions):
                yield f"{part}/{key}/{n}", q


def _wordings(q: dict, *, own: bool = False) -> tuple[str, ...]:
    """The wordings of the mistakes behind a question's wrong options as a note shows them: the ``verbatim``
    ones (the chapter's words), and with ``own`` drill's own too."""
    from drill.content.errata import corrections_in

    def plain(text: str) -> str:
        return render_text(text).replace("**", "").replace("`", "")

    chosen = [MISTAKES[mid] for mid in q["mistakes"].values() if own or MISTAKES[mid].verbatim]
    # the chapter's words a wording quotes come back in drill's correction beside them, as 「span」
    quotes = tuple(f"「{plain(c.quote)}」" for m in chosen for c in corrections_in(m.declared))
    quotes += tuple(plain(c.quote) for m in chosen for c in corrections_in(m.declared))
    # and the correction itself: content (errata.yaml's note_en / note), not a catalog string
    quotes += tuple(plain(c.correction) for m in chosen for c in corrections_in(m.declared))
    return tuple(plain(m.wording) for m in chosen) + quotes


def _texts(q: dict) -> list[tuple[str, str]]:
    return [("prompt", q["prompt"]), ("explanation", q["explanation"])] + [
        (f"option {letter}", text) for letter, text in q["options"].items()
    ]


def _same(field: str, new, old) -> bool:
    """A field as the record holds it: the words and the numbers shown byte for byte; ``values`` (each option's
    raw float before it is rounded for the text) to 1e-12, since its last bit follows numpy's build (numpy 2.4.6
    gives 0.322949007802061 where the record has 0.32294900780206093)."""
    if field == "values":
        return new.keys() == old.keys() and new == pytest.approx(old, rel=1e-12, abs=1e-15)
    return new == old


def _texts_only(record):
    """The record without the raw ``values`` (compared by ``_same``)."""
    if isinstance(record, dict):
        return {k: _texts_only(v) for k, v in record.items() if k != "values"}
    if isinstance(record, list):
        return [_texts_only(v) for v in record]
    return record


def _without(text: str, exempt: tuple[str, ...]) -> str:
    for string in sorted(exempt, key=len, reverse=True):
        text = text.replace(string, " ")
    return text


def test_the_golden_record_covers_every_template_and_every_right_letter():
    golden = _golden()
    from drill.content.quizgen import TEMPLATES

    assert set(golden["templates"]) == set(TEMPLATES)
    for name, questions in golden["templates"].items():
        assert len(questions) == 10 and {q["answer"] for q in questions} == set("ABCD"), name
    assert all(CJK.search(q["prompt"]) for _, q in _questions(golden))  # written in Chinese, as it was


def test_in_chinese_every_generated_question_is_the_golden_record_byte_for_byte():
    set_language("zh")
    golden, now = _golden(), _now()
    for (where, old), (_, new) in zip(_questions(golden), _questions(now), strict=True):
        for field in old:
            assert _same(field, new[field], old[field]), f"{where} ({old['topic']}) {field}"
    assert _texts_only(now) == _texts_only(golden)


def test_in_english_the_same_questions_carry_no_chinese():
    set_language("en")
    golden, now = _golden(), _now()
    for (where, old), (_, new) in zip(_questions(golden), _questions(now), strict=True):
        label = f"{where} ({old['topic']})"
        for field in ("id", "topic", "section", "answer", "mistakes", "values", "inputs"):
            assert _same(field, new[field], old[field]), f"{label} {field}"
        assert set(new["options"]) == set(old["options"]), label
        # the same numbers in each text: the stem, each option, the working (the explanation's first line)
        assert sorted(NUMBER.findall(new["prompt"])) == sorted(NUMBER.findall(old["prompt"])), label
        for letter, text in new["options"].items():
            assert NUMBER.findall(text) == NUMBER.findall(old["options"][letter]), f"{label} option {letter}"
        working_new, working_old = (q["explanation"].split("\n")[0] for q in (new, old))
        assert sorted(NUMBER.findall(working_new)) == sorted(NUMBER.findall(working_old)), label
        for name, text in _texts(new):
            left = _without(text, _wordings(new))
            assert not CJK.search(left), f"{label} {name}: {left!r}"
            assert text != dict(_texts(old))[name] or not CJK.search(text), f"{label} {name} unchanged"


def test_the_language_is_read_when_the_questions_are_generated():
    """The same seed gives the same quiz in both languages: only its words change."""
    set_language("zh")
    chinese = generate_questions(3, 12)
    set_language("en")
    english = generate_questions(3, 12)
    assert current_language() == "en"
    assert [(q.id, q.topic, q.answer, q.values) for q in chinese] == [
        (q.id, q.topic, q.answer, q.values) for q in english
    ]
    assert all(CJK.search(q.prompt) for q in chinese)
    assert not any(CJK.search(q.prompt) for q in english)


def _code_lines() -> tuple[str, ...]:
    """7.13's options are lines of PyTorch code (the chapter's, and each named mistake's): code, the same in
    every language, like the mistake ids."""
    from drill.content.quizgen.code import CODE_STEPS

    return tuple(line for _, right, wrong in CODE_STEPS.values() for line in (right, *(w for _, w in wrong)))


def test_under_the_pseudo_locale_every_word_of_a_generated_question_is_marked(pseudo):
    for where, q in _questions(_now()):
        exempt = _wordings(q, own=True) + tuple(q["mistakes"].values()) + _code_lines()
        for name, text in _texts(q):
            assert "⟦" in text or name.startswith("option"), f"{where} {name}"
            assert unmarked_words(text, exempt=exempt, allowed=FUNCTIONS) == [], f"{where} {name}: {text!r}"


@pytest.mark.parametrize("count, text", [(1, "1 step"), (4, "4 steps")])
def test_a_path_length_option_counts_its_steps_in_english(count, text):
    from drill.content.quizgen import TEMPLATES

    assert TEMPLATES["path-length"].fmt(count) == text
