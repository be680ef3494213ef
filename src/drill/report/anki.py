"""`drill export --anki`: the cards as an Anki package (genanki), one note per card.

Ids are stable (derived from the pack and card ids), so importing a newer export updates the same notes
instead of duplicating them. Review history is not exported: Anki schedules the deck from scratch (drill's
FSRS state could be carried over, but Anki's own FSRS recomputes it from its review log, which an .apkg built
this way has none of).

Card text is Markdown with ``$…$`` formulas: the formulas are found by drill's one splitter
(drill.content.latex.split_math: code spans and blocks, ``\\$`` and currency stay text) and become MathJax's
``\\(…\\)`` / ``\\[…\\]``; the Markdown around them becomes HTML with markdown-it-py (CommonMark plus tables
and strikethrough, raw HTML off, images off), so ``**bold**`` and backtick spans look as they do everywhere
else. Every string passes the output sanitiser (drill.report.sanitise) first. A bank card shows the bank's
question on the front (``Card.front``, as the study screen does) and, on the back, the bank's answer, then the
section's question with its answer; pitfalls and errata follow. A table card's table is an HTML table; a code
card shows its task's prompt and formula, and drill's reference solution on the back; a sub/superscript
written outside ``$…$`` is MathJax too. With ``quizzes``, each chapter quiz is a multiple-choice note of its own
note type (stem and options on the front; the right option and the chapter's explanation on the back).

With ``marks`` (a learner's flags and marks, from the store), the package carries them as Anki keeps its own: a
marked card's note has the tag ``marked``, and a flagged card's ``cards.flags`` holds the colour (1-7, Anki's
numbering, which drill's is). genanki 0.13 always writes flags 0, so the package's collection is written here
through genanki's ``Package.write_to_db`` and the flags are set in it before it is zipped. Anki counts both as
learning progress: its importer keeps them when "Import any learning progress" is ticked and strips them otherwise
(the cards arrive new either way: genanki writes no schedule).
"""

from __future__ import annotations

import hashlib
import html
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from drill.content.sections import covers
from drill.errors import InputError
from drill.i18n import _
from drill.report import sanitise

# Fixed forever: Anki keys the note type by this id (changing it would make every import a new note type).
MODEL_ID = 1_607_392_319
MODEL_NAME = "drill card (question/answer)"


CSS = """
.card { font-family: system-ui, "Noto Sans CJK SC", "PingFang SC", sans-serif; font-size: 20px; line-height: 1.5;
  text-align: left; color: #1f2328; background: #fff; }
.section { color: #656d76; font-size: 14px; margin-bottom: 8px; }
.pitfalls { margin-top: 12px; color: #8a4b08; font-size: 16px; }
.bank, .section-question { color: #656d76; font-size: 15px; font-weight: 600; margin: 8px 0 4px; }
.errata { color: #b42318; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; background: #f3f4f6;
  padding: 0 3px; border-radius: 3px; }
table { border-collapse: collapse; display: block; max-width: 100%; overflow-x: auto; }
td, th { border: 1px solid #d8dee4; padding: 2px 6px; }
pre { max-width: 100%; overflow-x: auto; font-size: 14px; background: #f3f4f6; padding: 6px; }
pre code { padding: 0; background: none; }
mjx-container[display="true"] { display: block; max-width: 100%; overflow-x: auto; overflow-y: hidden; }
img { max-width: 100%; }
.options { margin: 8px 0 0; padding-left: 0; list-style: none; } .options li { margin: 4px 0; }
.verdict { font-weight: 600; }
"""


def stable_id(*parts: str) -> int:
    """A positive id in Anki's usual range, the same for the same parts on every run."""
    digest = hashlib.sha256("\x1f".join(("drill", *parts)).encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:4], "big") % (1 << 30)


# A formula's place while the Markdown around it is rendered: control characters, which the sanitised text
# cannot hold (they are stand-ins by then) and markdown-it passes through.
_SLOT = re.compile("\x02(\\d+)\x03")


@lru_cache(maxsize=1)
def _markdown():
    from markdown_it import MarkdownIt

    # "entity" off: a card's "&amp;" or "&#65;" is the chapter's text, shown as written (as the HTML/Markdown
    # reports and the CSV show it), not decoded to "&"/"A" (text is text: markdown-it would read it as markup).
    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    return md.disable(["image", "entity"])


# A table row quoted in running text (an erratum's 「| 16 | [0.75, 0.5, 0.25] | 44.5% |」): its cells, word for
# word, between column rules (│), so the quote does not read as a broken Markdown table.
_QUOTED_ROW = re.compile(r"(?<=「)\|([^「」\n`]*)\|(?=」)")


def _quoted_row(match: re.Match) -> str:
    return " │ ".join(cell.strip() for cell in match.group(1).split("|"))


def to_anki_html(text: str) -> str:
    """Card Markdown as Anki HTML: formulas as MathJax delimiters, the rest rendered by markdown-it-py.

    One paragraph comes back without its ``<p>`` (a question reads as a line, as before).
    """
    from drill.content.latex import split_math, sub_bare_scripts

    formulas: list[str] = []
    source = []

    def slot(formula: str) -> str:
        formulas.append(formula)
        return f"\x02{len(formulas) - 1}\x03"

    for kind, value in split_math(_QUOTED_ROW.sub(_quoted_row, sanitise.text(text.replace("\r\n", "\n")))):
        if kind == "text":
            # a sub/superscript outside $…$: content's one rule (drill.content.latex.sub_bare_scripts)
            source.append(sub_bare_scripts(value, lambda f: slot(f"\\({html.escape(f, quote=False)}\\)")))
            continue
        escaped = html.escape(value.strip(), quote=False)
        source.append(slot(f"\\[{escaped}\\]" if kind == "display" else f"\\({escaped}\\)"))
    rendered = _markdown().render("".join(source)).strip()
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        rendered = rendered[3:-4]
    return _SLOT.sub(lambda m: formulas[int(m.group(1))], rendered)


def _code_task(card: Any) -> Any:
    from drill.engine.codetasks import get_task

    return get_task(card.task)


def _code_question(card: Any) -> str:
    """A code card's front: the task as `drill code` states it (its prompt, the formula when the prompt does
    not already show it, the function to write), not the study screen's "space opens the code editor"."""
    task = _code_task(card)
    parts = [to_anki_html(task.prompt)]
    if task.formula.strip() and task.formula.strip() not in task.prompt:
        parts.append(to_anki_html(f"$${task.formula}$$"))
    parts.append(
        f"<pre><code>def {html.escape(sanitise.text(task.signature), quote=False)}: ...</code></pre>"
    )
    return "".join(parts)


def _code_answer(card: Any) -> str:
    """A code card's back: drill's reference solution, and where the hidden tests run."""
    task = _code_task(card)
    solution = html.escape(sanitise.text(task.solution()), quote=False)
    run = html.escape(f"drill code {card.task}", quote=False)
    return (
        f"<pre><code>{solution}</code></pre>"
        + f'<div class="section">{_("hidden tests:")} <code>{run}</code></div>'
    )


def _answer(card: Any) -> str:
    """The back: as the study screen reveals it (drill.tui.widgets.card_view.answer_markdown)."""
    if getattr(card, "bank_question", None):
        bank = to_anki_html(card.bank_answer or card.answer)
        section = (
            f'<div class="section-question">§{html.escape(sanitise.text(card.section))} '
            f"{to_anki_html(card.question)}</div>{to_anki_html(card.answer)}"
        )
        return f'<div class="bank">题库答案（7.24）</div>{bank}<hr>{section}'
    parts = [to_anki_html(card.answer)]
    if getattr(card, "bank_answer", None):
        parts.append(f'<hr><div class="bank">题库答案（7.24）</div>{to_anki_html(card.bank_answer)}')
    return "".join(parts)


def _pitfalls(card: Any) -> str:
    parts = []
    if card.pitfalls:
        items = "".join(f"<li>{to_anki_html(p)}</li>" for p in card.pitfalls)
        parts.append(f"<ul>{items}</ul>")
    parts.append(_corrections(card))
    return "".join(parts)


def _corrections(card: Any) -> str:
    """The corrections beside the chapter's words the card shows (drill.content.errata, in the UI language),
    each marked as drill's; on the back, as the study screen shows them once revealed."""
    from drill.content.errata import MARKS, card_notes

    items = "".join(
        f"<li><b>{html.escape(_(MARKS[c.kind]))}</b> {to_anki_html('「' + c.quote + '」')}：{to_anki_html(c.correction)}</li>"
        for c in card_notes(card)
    )
    return f'<ul class="errata">{items}</ul>' if items else ""


def _model():
    import genanki

    return genanki.Model(
        MODEL_ID,
        MODEL_NAME,
        fields=[
            {"name": "Question"},
            {"name": "Answer"},
            {"name": "Section"},
            {"name": "Pitfalls"},
            {"name": "CardId"},
        ],
        templates=[
            {
                "name": "Card 1",
                "qfmt": '<div class="section">{{Section}}</div>{{Question}}',
                "afmt": '{{FrontSide}}<hr id="answer">{{Answer}}'
                '{{#Pitfalls}}<div class="pitfalls">{{Pitfalls}}</div>{{/Pitfalls}}',
            }
        ],
        css=CSS,
        sort_field_index=4,
    )


QUIZ_MODEL_ID = 1_607_392_320  # fixed forever, as MODEL_ID
QUIZ_MODEL_NAME = "drill quiz (multiple choice)"


def _quiz_model():
    import genanki

    return genanki.Model(
        QUIZ_MODEL_ID,
        QUIZ_MODEL_NAME,
        fields=[
            {"name": "Question"},
            {"name": "Options"},
            {"name": "Answer"},
            {"name": "Explanation"},
            {"name": "Section"},
            {"name": "QuizId"},
        ],
        templates=[
            {
                "name": "Card 1",
                "qfmt": '<div class="section">{{Section}}</div>{{Question}}{{Options}}',
                "afmt": '{{FrontSide}}<hr id="answer"><div class="verdict">{{Answer}}</div>{{Explanation}}',
            }
        ],
        css=CSS,
        sort_field_index=5,
    )


def quiz_fields(quiz: Any) -> list[str]:
    """A chapter quiz as a multiple-choice note: the stem, the lettered options, the right one, the chapter's
    explanation (every text the chapter's, rendered as card text is)."""
    options = "".join(
        f"<li><b>{html.escape(sanitise.text(letter))}.</b> {to_anki_html(text)}</li>"
        for letter, text in quiz.options.items()
    )
    right = html.escape(sanitise.text(quiz.answer))
    answer = f"{right}. {to_anki_html(quiz.options.get(quiz.answer, ''))}"
    return [
        to_anki_html(quiz.stem),
        f'<ol class="options">{options}</ol>',
        answer,
        to_anki_html(quiz.explanation),
        sanitise.html(quiz.section),
        sanitise.html(quiz.id),
    ]


def _tag(text: str) -> str:
    return re.sub(r"\s+", "_", sanitise.text(text).strip())


# A learner's flags and marks: (pack, card id) -> (flag 0-7, marked), as the store keeps them.
Marks = dict[tuple[str, str], tuple[int, bool]]

MARKED_TAG = "marked"  # Anki's own tag for a marked note (Browse > Notes > Toggle Mark)


def build_decks(
    library: Any, section: str | None = None, quizzes: bool = False, marks: Marks | None = None
) -> list:
    """One deck per content pack, one note per card (optionally only one section and its sub-sections);
    with ``quizzes``, one multiple-choice note per chapter quiz too; with ``marks``, a marked card's note
    tagged ``marked``."""
    import genanki

    model = _model()
    titles = {pack.id: pack.title for pack in getattr(library, "packs", [])}
    decks: dict[str, Any] = {}

    def deck_of(pack: str) -> Any:
        if pack not in decks:
            decks[pack] = genanki.Deck(stable_id("deck", pack), f"drill::{titles.get(pack, pack)}")
        return decks[pack]

    for card in library.cards.values():
        if not covers(section, card.section):
            continue
        tags = [_tag(t) for t in card.tags if t.strip()] + [f"section::{_tag(card.section)}"]
        if (marks or {}).get((card.pack, card.id), (0, False))[1] and MARKED_TAG not in tags:
            tags.append(MARKED_TAG)
        code = getattr(card, "kind", "") == "code"
        deck_of(card.pack).add_note(
            genanki.Note(
                model=model,
                fields=[
                    _code_question(card) if code else to_anki_html(getattr(card, "front", card.question)),
                    _code_answer(card) if code else _answer(card),
                    sanitise.html(card.section),
                    _pitfalls(card),
                    sanitise.html(card.id),
                ],
                guid=genanki.guid_for("drill", card.pack, card.id),
                tags=tags,
            )
        )
    if quizzes:
        quiz_model = _quiz_model()
        for quiz in getattr(library, "quizzes", ()):
            if not covers(section, quiz.section):
                continue
            deck_of(quiz.pack).add_note(
                genanki.Note(
                    model=quiz_model,
                    fields=quiz_fields(quiz),
                    guid=genanki.guid_for("drill", quiz.pack, "quiz", quiz.id),
                    tags=["quiz", f"section::{_tag(quiz.section)}"],
                )
            )
    if not decks:
        if section is not None:
            raise InputError(f"--section {section!r}: no cards in that section")
        raise InputError("the content has no cards to export")
    return list(decks.values())


def note_flags(decks: list, library: Any, marks: Marks | None) -> dict[str, int]:
    """The flagged notes' guids and their flag (one card per note: the card's flag)."""
    import genanki

    flags: dict[str, int] = {}
    for (pack, card_id), (flag, _marked) in (marks or {}).items():
        if flag and card_id in library.cards:
            flags[genanki.guid_for("drill", pack, card_id)] = int(flag)
    exported = {note.guid for deck in decks for note in deck.notes}
    return {guid: flag for guid, flag in flags.items() if guid in exported}


def _write_package(decks: list, flags: dict[str, int], path: Path) -> None:
    """genanki's Package.write_to_file, with the cards' flags set in the collection before it is zipped."""
    import itertools
    import json
    import sqlite3
    import tempfile
    import time
    import zipfile

    import genanki

    with tempfile.TemporaryDirectory(prefix="drill-apkg-") as folder:
        collection = Path(folder) / "collection.anki2"
        conn = sqlite3.connect(collection)
        try:
            timestamp = time.time()
            genanki.Package(decks).write_to_db(
                conn.cursor(), timestamp, itertools.count(int(timestamp * 1000))
            )
            conn.executemany(
                "UPDATE cards SET flags = ? WHERE nid IN (SELECT id FROM notes WHERE guid = ?)",
                [(flag, guid) for guid, flag in sorted(flags.items())],
            )
            conn.commit()
        finally:
            conn.close()
        with zipfile.ZipFile(path, "w") as package:
            package.write(collection, "collection.anki2")
            package.writestr("media", json.dumps({}))


def write_apkg(
    library: Any,
    path: str | Path,
    section: str | None = None,
    quizzes: bool = False,
    marks: Marks | None = None,
) -> int:
    """Write the package (atomically: drill.report.files); returns the number of notes. ``marks``: the
    learner's flags and marks (see the module's docstring)."""
    from drill.report.files import write_with

    decks = build_decks(library, section, quizzes, marks)
    flags = note_flags(decks, library, marks)
    write_with(path, lambda tmp: _write_package(decks, flags, Path(tmp)), what="--anki")
    return sum(len(deck.notes) for deck in decks)
