"""`drill export --anki` imported into a fresh collection by Anki itself (the `anki` package, 26.x), every field
read back: Markdown became HTML, formulas MathJax outside code only, bank cards show the bank's wording, and a
second import of a newer export updates the same notes instead of adding new ones."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from drill.report.anki import MODEL_NAME, write_apkg

pytestmark = pytest.mark.anki
anki_collection = pytest.importorskip("anki.collection", reason="the test extra installs anki")


class _Text(HTMLParser):
    """The text of an HTML field, with the text inside <code> kept apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.code: list[str] = []
        self.tags: list[str] = []
        self._in_code = 0

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self._in_code += tag == "code"

    def handle_endtag(self, tag):
        self._in_code -= tag == "code"

    def handle_data(self, data):
        (self.code if self._in_code else self.text).append(data)


def parse(field: str) -> _Text:
    parser = _Text()
    parser.feed(field)
    parser.close()
    return parser


def import_package(path, collection_path):
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

    col = Collection(str(collection_path))
    try:
        col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=str(path),
                options=ImportAnkiPackageOptions(with_scheduling=False, with_deck_configs=False),
            )
        )
        notes = {}
        for nid in col.find_notes(""):
            note = col.get_note(nid)
            notes[note["CardId"]] = (
                dict(note.items()),
                set(note.tags),
                note.note_type()["name"],
            )
        decks = sorted(d.name for d in col.decks.all_names_and_ids())
        return notes, decks, col.card_count()
    finally:
        col.close()


@pytest.fixture(scope="module")
def shipped():
    from drill.content import load_content

    return load_content(cache=False)


@pytest.fixture(scope="module")
def imported(shipped, tmp_path_factory):
    folder = tmp_path_factory.mktemp("anki")
    package = folder / "drill.apkg"
    assert write_apkg(shipped, package) == len(shipped.cards)
    notes, decks, cards = import_package(package, folder / "collection.anki2")
    return notes, decks, cards, package, folder


def _formulas(text: str) -> list[str]:
    """Every $…$ / $$…$$ formula outside code, found here by a plain scan (code spans and fences skipped)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"(`+)(?:(?!\1).)+?\1", "", text, flags=re.S)
    text = text.replace("\\$", "")
    return re.findall(r"\$\$(.+?)\$\$|\$([^$\s](?:[^$]*?[^$\s])?)\$(?!\d)", text, flags=re.S)


def test_every_card_arrives_with_every_field(imported, shipped):
    notes, decks, cards, _, _ = imported
    assert set(notes) == set(shipped.cards)
    assert cards == len(shipped.cards)
    assert any(d.startswith("drill::") for d in decks)
    for cid, card in shipped.cards.items():
        fields, tags, model = notes[cid]
        assert model == MODEL_NAME
        assert set(fields) == {"Question", "Answer", "Section", "Pitfalls", "CardId"}
        assert html.unescape(fields["Section"]) == card.section
        assert f"section::{card.section}" in tags
        for name in ("Question", "Answer", "Pitfalls"):
            parsed = parse(fields[name])
            text = "".join(parsed.text)
            # Markdown was rendered: no emphasis markers or backticks left as text outside code.
            assert "**" not in text, (cid, name, text)
            assert "`" not in text, (cid, name, text)
            # Formulas are MathJax; a dollar sign outside code is only ever an escaped or currency one.
            assert "$$" not in text, (cid, name)
            # A formula inside a code span stays code, never MathJax.
            assert not any("\\(" in chunk or "\\[" in chunk for chunk in parsed.code), (cid, name)
            assert "script" not in parsed.tags and "img" not in parsed.tags


def test_questions_are_the_bank_wording_and_formulas_are_all_there(imported, shipped):
    notes, *_ = imported
    banked = [c for c in shipped.cards.values() if c.bank_question]
    assert banked, "the shipped pack has bank cards with their own wording"
    for card in shipped.cards.values():
        fields = notes[card.id][0]
        question = "".join(parse(fields["Question"]).text)
        front = card.bank_question or card.question
        # Every formula of the front is in the field as MathJax, with its source inside the delimiters.
        for display, inline in _formulas(front):
            source = (display or inline).strip()
            delimited = f"\\[{source}\\]" if display else f"\\({source}\\)"
            assert delimited in question, (card.id, delimited, question)
        if card.bank_question:
            answer = "".join(parse(fields["Answer"]).text)
            assert "题库答案（7.24）" in answer
            # The section's own question follows on the back, so every answer sits under its question.
            plain = re.sub(r"\$[^$]*\$|[*`]", "", card.question).split()
            assert plain and all(word in answer for word in plain[:3]), card.id


def test_markdown_became_html(imported, shipped):
    notes, *_ = imported
    strong = [c for c in shipped.cards.values() if any("**" in t for t in c.shown_text())]
    coded = [c for c in shipped.cards.values() if any("`" in t for t in c.shown_text())]
    assert len(strong) > 30 and coded  # (35 of 41 notes showed raw ** before: issue 13)
    for card in strong:
        assert "<strong>" in "".join(notes[card.id][0].values()), card.id
    for card in coded:
        assert "<code>" in "".join(notes[card.id][0].values()), card.id


def test_reimporting_a_newer_export_updates_the_same_notes(imported, shipped):
    notes, _, cards, package, folder = imported
    again = folder / "again.apkg"
    write_apkg(shipped, again)
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

    path = folder / "twice.anki2"
    for pkg in (package, again):
        col = Collection(str(path))
        try:
            col.import_anki_package(
                ImportAnkiPackageRequest(
                    package_path=str(pkg), options=ImportAnkiPackageOptions(with_scheduling=False)
                )
            )
        finally:
            col.close()
    col = Collection(str(path))
    try:
        assert col.note_count() == len(notes) == len(shipped.cards)
        assert col.card_count() == cards
    finally:
        col.close()


def test_hostile_text_arrives_as_visible_stand_ins(tmp_path, library):
    from dataclasses import replace

    from drill.content.models import Library

    hostile = '\x1b[31mred\x1b[0m \u202eevil\u202c zero\u200bwidth =HYPERLINK("http://x")'
    card = replace(library.cards["q01"], question=hostile, answer=hostile, section="7.2", pitfalls=(hostile,))
    lib = Library(packs=library.packs, cards={"q01": card})
    package = tmp_path / "hostile.apkg"
    write_apkg(lib, package)
    notes, _, _ = import_package(package, tmp_path / "c.anki2")
    fields = notes["q01"][0]
    for name in ("Question", "Answer", "Pitfalls"):
        text = html.unescape(fields[name])
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202a-\u202e]", text), (name, text)
        assert "␛[31mred␛[0m" in text and "<U+202E>evil<U+202C>" in text and "<U+200B>" in text


# --------------------------------------------------------------------------- as Anki's renderer shows them

_MATH = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)


class _Rendered(_Text):
    """A rendered card side: text outside <code>/<pre> and outside <style>, with the MathJax kept apart."""

    def __init__(self) -> None:
        super().__init__()
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, attrs)
        self._skip += tag in ("style", "script", "pre")

    def handle_endtag(self, tag):
        super().handle_endtag(tag)
        self._skip -= tag in ("style", "script", "pre")

    def handle_data(self, data):
        if not self._skip:
            super().handle_data(data)


def _outside_math(side: str) -> str:
    parser = _Rendered()
    parser.feed(side)
    parser.close()
    return _MATH.sub(" ", "".join(parser.text))


@pytest.fixture(scope="module")
def rendered(shipped, tmp_path_factory):
    """Every card of an export with the quizzes, as Anki's own template renderer draws its two sides."""
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

    folder = tmp_path_factory.mktemp("anki-rendered")
    package = folder / "drill.apkg"
    assert write_apkg(shipped, package, quizzes=True) == len(shipped.cards) + len(shipped.quizzes)
    col = Collection(str(folder / "collection.anki2"))
    try:
        col.import_anki_package(
            ImportAnkiPackageRequest(package_path=str(package), options=ImportAnkiPackageOptions())
        )
        sides = {}
        for cid in col.find_cards(""):
            card = col.get_card(cid)
            note = card.note()
            key = note["CardId"] if "CardId" in note else "quiz:" + note["QuizId"]
            sides[html.unescape(key)] = (card.question(), card.answer(), note.note_type()["name"])
        return sides
    finally:
        col.close()


# Markdown table cells as text ("| 原始分数 | 缩放后 |"), not the chapter's |q||k| (absolute values).
_RAW_TABLE = re.compile(r"\|\s+[^|\n]+\s+\|\s+[^|\n]*\s*\|")


def test_every_rendered_side_is_free_of_raw_markup(rendered, shipped):
    assert len(rendered) == len(shipped.cards) + len(shipped.quizzes)
    tables = 0
    for key, (front, back, _) in rendered.items():
        for name, side in (("front", front), ("back", back)):
            text = _outside_math(side)
            assert not _RAW_TABLE.search(text), (key, name, text)
            for raw in ("**", "$", "^{", "_{"):
                assert raw not in text, (key, name, raw, text)
        tables += "<table>" in front
    table_cards = [c for c in shipped.cards.values() if c.kind == "cloze"]
    assert table_cards and tables >= len(table_cards)  # every table card's front holds an HTML table


def test_code_cards_show_the_prompt_and_the_reference_solution(rendered, shipped):
    from drill.engine.codetasks import get_task

    code_cards = [c for c in shipped.cards.values() if c.kind == "code"]
    assert len(code_cards) >= 10
    for card in code_cards:
        task = get_task(card.task)
        front, back, _ = rendered[card.id]
        assert "space opens the code editor" not in front and "空格" not in front
        # the prompt's words (drill's, in the UI language: English here), its math left to the renderer
        prose = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " ", task.prompt, flags=re.S)
        words = re.findall(r"[A-Za-z]{4,}|[\u4e00-\u9fff]{3,}", prose)
        assert words and all(w in html.unescape(front) for w in words), (card.id, words)
        solution = html.unescape(back)
        assert f"def {task.name}(" in solution, card.id
        # The solution's every non-blank line is on the back, verbatim.
        assert all(line.strip() in solution for line in task.solution().splitlines() if line.strip()), card.id


def test_chapter_quizzes_import_as_multiple_choice_notes(rendered, shipped):
    from drill.report.anki import QUIZ_MODEL_NAME

    assert len(shipped.quizzes) == 8
    for quiz in shipped.quizzes:
        front, back, model = rendered["quiz:" + quiz.id]
        assert model == QUIZ_MODEL_NAME
        shown = html.unescape(front)
        assert all(f"{letter}." in shown for letter in quiz.options)
        assert "<ol" in front and front.count("<li>") == len(quiz.options)
        after = html.unescape(back.split('id="answer"', 1)[1])
        assert after.lstrip("> ").startswith(f'<div class="verdict">{quiz.answer}.')
        assert re.sub(r"[*`$]", "", quiz.explanation)[:10] in re.sub(r"<[^>]+>", "", after)
