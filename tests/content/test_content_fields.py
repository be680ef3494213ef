"""drill.fields: a field is declared once (rule, default) and read, reported, cached and restored from that."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import pytest

from drill import fields
from drill.content import load_content
from drill.content.models import Card, Check, Pack, Quiz
from drill.content.rules import Text, TextList
from drill.content.schema import DocumentErrors
from drill.content.yamlio import parse_yaml
from drill.errors import ContentError


class Refused(fields.Errors):
    def invalid(self, path, problem, spec, values):
        return ValueError(f"{path}: {problem}")


def test_every_record_round_trips_through_its_dump(mini_pack):
    library = load_content(mini_pack, cache=False)
    records = [*library.packs, *library.cards.values(), *library.quizzes, *library.checks]
    assert {type(r) for r in records} == {Pack, Card, Quiz, Check}
    for record in records:
        assert fields.read(type(record), fields.dump(record), Refused(), trusted=False) == record


def test_declarations_are_the_dataclass_fields():
    """Every field a file can hold is declared; the rest (none today) would be plain attributes."""
    for cls in (Card, Quiz, Check, Pack):
        assert [s.name for s in fields.specs(cls)] == [f.name for f in dataclasses.fields(cls)]
    assert [s.key for s in fields.specs(Pack)][:3] == ["pack", "title", "source"]
    assert [s.name for s in fields.specs(Card) if s.given] == ["pack", "errata"]  # errata: from errata.yaml


# A new card kind with a new field: one declaration, and the reader, the messages and the cache follow.
@dataclass(frozen=True, kw_only=True)
class CodeCard(Card):
    language: str = fields.declare(Text(), default="python")
    hints: tuple[str, ...] = fields.declare(TextList(), default=())


def _read(text: str) -> CodeCard:
    doc = parse_yaml(text, Path("code.yaml"))
    return fields.read(
        CodeCard, doc.data["cards"][0], DocumentErrors(doc, ("cards", 0), "card"), given={"pack": "p"}
    )


CARD = "cards:\n  - id: c1\n    section: '7.1'\n    tags: [code]\n    question: q\n    answer: a\n"


def test_a_new_field_is_one_declaration():
    assert _read(CARD).language == "python" and _read(CARD).hints == ()
    card = _read(CARD + "    language: rust\n    hints: [borrow]\n")
    assert (card.language, card.hints, card.asked_in) == ("rust", ("borrow",), ("7.1",))
    assert fields.read(CodeCard, fields.dump(card), Refused(), trusted=False) == card
    with pytest.raises(ContentError, match=r"^code\.yaml:8: cards\[0\]\.hints\[1\]: must not be empty$"):
        _read(CARD + "    language: rust\n    hints: [borrow, '']\n")
    with pytest.raises(
        ContentError,
        match=r"code\.yaml:7: cards\[0\]\.languge: unknown field 'languge' in a card \(did you mean 'language'\?\)",
    ):
        _read(CARD + "    languge: rust\n")


def test_missing_and_empty_fields_name_the_record():
    with pytest.raises(
        ContentError,
        match=r"code\.yaml:2: cards\[0\]\.answer: required field 'answer' is missing from card c1",
    ):
        _read(CARD.replace("    answer: a\n", ""))
    with pytest.raises(ContentError, match=r"code\.yaml:6: cards\[0\]\.answer: required field is empty"):
        _read(CARD.replace("answer: a", "answer:"))


def test_a_given_field_is_not_allowed_in_a_file():
    with pytest.raises(ContentError, match=r"unknown field 'pack' in a card"):
        _read(CARD + "    pack: other\n")
