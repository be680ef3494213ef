"""`drill export --anki`: the cards as an Anki package (genanki), one note per card.

Ids are stable (derived from the pack and card ids), so importing a newer export updates the same notes
instead of duplicating them. Card text is HTML-escaped; ``$…$`` and ``$$…$$`` become Anki's MathJax
delimiters ``\\(…\\)`` and ``\\[…\\]``.
"""

from __future__ import annotations

import hashlib
import html
import re
from pathlib import Path
from typing import Any

from drill.errors import InputError

# Fixed forever: Anki keys the note type by this id (changing it would make every import a new note type).
MODEL_ID = 1_607_392_319
MODEL_NAME = "drill card (question/answer)"


CSS = """
.card { font-family: system-ui, "Noto Sans CJK SC", "PingFang SC", sans-serif; font-size: 20px; line-height: 1.5;
  text-align: left; color: #1f2328; background: #fff; }
.section { color: #656d76; font-size: 14px; margin-bottom: 8px; }
.pitfalls { margin-top: 12px; color: #8a4b08; font-size: 16px; }
"""


def stable_id(*parts: str) -> int:
    """A positive id in Anki's usual range, the same for the same parts on every run."""
    digest = hashlib.sha256("\x1f".join(("drill", *parts)).encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:4], "big") % (1 << 30)


def to_anki_html(text: str) -> str:
    """Escape the text for HTML, turn $…$ / $$…$$ into MathJax delimiters and newlines into <br>.

    The formulas are the ones the terminal renderer finds (drill.content.latex.split_math): currency
    ("$5 and $6") and code spans stay text.
    """
    from drill.content.latex import split_math

    parts = []
    for kind, value in split_math(text):
        escaped = html.escape(value, quote=False)
        if kind == "text":
            parts.append(escaped.replace("\\$", "$"))
        elif kind == "display":
            parts.append("\\[" + escaped.strip() + "\\]")
        else:
            parts.append("\\(" + escaped.strip() + "\\)")
    return "".join(parts).replace("\r\n", "\n").replace("\n", "<br>")


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


def _tag(text: str) -> str:
    return re.sub(r"\s+", "_", text.strip())


def build_decks(library: Any, section: str | None = None) -> list:
    """One deck per content pack, one note per card (optionally only one section and its sub-sections)."""
    import genanki

    model = _model()
    titles = {pack.id: pack.title for pack in getattr(library, "packs", [])}
    decks: dict[str, Any] = {}
    for card in library.cards.values():
        if section is not None and not (card.section == section or card.section.startswith(section + ".")):
            continue
        deck = decks.get(card.pack)
        if deck is None:
            deck = genanki.Deck(stable_id("deck", card.pack), f"drill::{titles.get(card.pack, card.pack)}")
            decks[card.pack] = deck
        pitfalls = "".join(f"<li>{to_anki_html(p)}</li>" for p in card.pitfalls)
        tags = [_tag(t) for t in card.tags if t.strip()] + [f"section::{_tag(card.section)}"]
        deck.add_note(
            genanki.Note(
                model=model,
                fields=[
                    to_anki_html(card.question),
                    to_anki_html(card.answer),
                    html.escape(card.section),
                    f"<ul>{pitfalls}</ul>" if pitfalls else "",
                    html.escape(card.id),
                ],
                guid=genanki.guid_for("drill", card.pack, card.id),
                tags=tags,
            )
        )
    if not decks:
        if section is not None:
            raise InputError(f"--section {section!r}: no cards in that section")
        raise InputError("the content has no cards to export")
    return list(decks.values())


def write_apkg(library: Any, path: str | Path, section: str | None = None) -> int:
    """Write the package; returns the number of notes."""
    import genanki

    decks = build_decks(library, section)
    path = Path(path)
    tmp = path.with_name(path.name + ".partial")
    try:
        genanki.Package(decks).write_to_file(str(tmp))
        tmp.replace(path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise InputError(f"--anki {str(path)!r}: cannot write the package: {err.strerror or err}") from None
    return sum(len(deck.notes) for deck in decks)
