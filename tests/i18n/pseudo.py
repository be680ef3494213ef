"""A pseudo-locale made from drill's source at test time, and a checker for text shown under it.

Every message marked in ``src/drill`` (Babel, the keywords and mapping of hatch_build.py) is "translated" to
itself with each run of its own text wrapped in ``⟦…⟧`` (a ``{placeholder}`` stays outside the marks: what
fills it is checked on its own). The catalog is compiled into a temporary folder under the name ``zh_CN`` and
``drill.i18n.LOCALE_DIR`` points there, so ``--lang zh`` (or ``set_language("zh")``) goes through the real
language choice and shows the marked strings. Any run of letters left once the marked spans, the content
(exempt: the chapter's own text) and the caller's allowed tokens are removed is a string of drill's own that
does not go through the catalog.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPEN, CLOSE = "⟦", "⟧"
MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
WORDS = re.compile(r"[^\W\d_]{2,}")  # two or more letters (any script): a word someone wrote


def _hatch_build():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import hatch_build

    return hatch_build


PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def mark(message: str) -> str:
    """``message`` with each run of its own text wrapped in ``⟦…⟧`` and its ``{placeholders}`` left outside, so
    what fills a placeholder (another message, a value) must carry its own marks to pass the checker."""
    parts = PLACEHOLDER.split(message)
    return "".join(part if PLACEHOLDER.fullmatch(part) else f"{OPEN}{part}{CLOSE}" for part in parts if part)


def build_pseudo_locale(target: Path) -> Path:
    """Compile the pseudo catalog as ``target/zh_CN/LC_MESSAGES/drill.mo``; returns ``target``."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    extracted = _hatch_build().extract(ROOT / "src" / "drill")
    pseudo = Catalog(locale="en", domain="drill")  # English plural rule: both forms are kept
    for message in extracted:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            string = tuple(mark(form) for form in message.id)
        else:
            string = mark(message.id)
        pseudo.add(message.id, string)
    mo = target / "zh_CN" / "LC_MESSAGES" / "drill.mo"
    mo.parent.mkdir(parents=True, exist_ok=True)
    with mo.open("wb") as handle:
        write_mo(handle, pseudo)
    return target


def unmarked_words(text: str, *, exempt: tuple[str, ...] = (), allowed: tuple[str, ...] = ()) -> list[str]:
    """The words in ``text`` that are neither inside ``⟦…⟧`` (innermost first: a marked message may hold
    another), nor one of the ``exempt`` strings (content), nor matched by an ``allowed`` regex."""
    for string in sorted(exempt, key=len, reverse=True):
        if string:
            text = text.replace(string, " ")
    previous = None
    while previous != text:
        previous, text = text, MARKED.sub(" ", text)
    for pattern in allowed:
        text = re.sub(pattern, " ", text)
    return WORDS.findall(text)


def content_strings(library) -> tuple[str, ...]:
    """Every string of the loaded content a screen or report may show (the chapter's text is exempt)."""
    strings: list[str] = []
    for pack in library.packs:
        strings += [pack.id, pack.title]
    for card in library.cards.values():
        strings += [card.id, card.section, card.question, card.answer, *card.tags, *card.pitfalls]
        strings += list(card.errata)  # errata.yaml's notes: content the answer shows under the pitfalls
        if card.bank_answer:
            strings.append(card.bank_answer)
        if card.bank_question:  # the front of a bank card: the 7.24 wording
            strings.append(card.bank_question)
    for quiz in library.quizzes:
        strings += [quiz.id, quiz.section, quiz.stem, quiz.explanation, *quiz.options.values()]
    for check in library.checks:
        strings += [check.id, check.example, check.step]
        if check.erratum:
            strings.append(check.erratum)
    return tuple(strings)
