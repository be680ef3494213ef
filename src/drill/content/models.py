"""The validated content: frozen records built by drill.content.schema from the YAML files.

Plain dataclasses (no numpy, no pydantic at import): the study screen loads these before its first paint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Card:
    id: str
    pack: str
    section: str
    question: str
    answer: str
    tags: tuple[str, ...]
    asked_in: tuple[str, ...]
    bank: int | None = None
    bank_answer: str | None = None
    pitfalls: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()


@dataclass(frozen=True)
class Quiz:
    id: str
    pack: str
    section: str
    stem: str
    options: dict[str, str]
    answer: str
    explanation: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Check:
    id: str
    pack: str
    section: str
    example: str
    step: str
    index: tuple[int, ...]
    claimed: float
    decimals: int
    card: str | None = None
    erratum: str | None = None


@dataclass(frozen=True)
class Pack:
    id: str
    title: str
    path: Path
    source: str | None = None
    card_ids: tuple[str, ...] = ()
    quiz_ids: tuple[str, ...] = ()
    check_ids: tuple[str, ...] = ()


@dataclass
class Library:
    """Everything loaded: ids are unique across packs; cards keep file order."""

    packs: list[Pack] = field(default_factory=list)
    cards: dict[str, Card] = field(default_factory=dict)
    quizzes: list[Quiz] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)

    def quiz(self, quiz_id: str) -> Quiz:
        for quiz in self.quizzes:
            if quiz.id == quiz_id:
                return quiz
        raise KeyError(quiz_id)

    def cards_in_section(self, section: str) -> list[Card]:
        return [card for card in self.cards.values() if card.section == section]
