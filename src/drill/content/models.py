"""The validated content: frozen records whose fields are declared once, with their rules (drill.fields).

Each field's declaration is all there is to it: drill.content.schema reads the YAML by these declarations (with
file, line and field in every message), the cache writes and re-validates them, and the `drill check` summary
and the screens read the attributes. To add a field, add one line here (docs/architecture.md, "Content").
Plain dataclasses (no numpy, no pydantic): the study screen loads these before its first paint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from drill.content.rules import (
    ID,
    ITEM_ID,
    KIND,
    KIND_HINT,
    PACK,
    SECTION_TEXT,
    STEP_HINT,
    STEP_REF,
    VERBATIM,
    FilePath,
    Index,
    Integer,
    Number,
    Options,
    Text,
    TextList,
    WhyWrong,
)
from drill.fields import Invalid, declare

_IDS = TextList(nonempty=False)


@dataclass(frozen=True, kw_only=True)
class Card:
    """One question (questions.yaml, ``cards:``); the other kinds are its subclasses (drill.content.kinds)."""

    KIND: ClassVar[str] = "qa"  # the value of ``kind:`` in questions.yaml that makes this class

    id: str = declare(ID)
    pack: str = declare(PACK, given=True)
    section: str = declare(SECTION_TEXT)  # where the chapter teaches it
    bank: int | None = declare(Integer(1, 999), default=None)  # its number in the 7.24 bank
    asked_in: tuple[str, ...] = declare(TextList(SECTION_TEXT), fill=lambda v: (v["section"],))
    tags: tuple[str, ...] = declare(TextList())
    question: str = declare(VERBATIM)  # the section's wording (the bank's for a bank-only card)
    bank_question: str | None = declare(VERBATIM, default=None)  # the 7.24 wording when it differs
    answer: str = declare(VERBATIM)
    bank_answer: str | None = declare(VERBATIM, default=None)  # the 7.24 wording when it differs
    pitfalls: tuple[str, ...] = declare(TextList(VERBATIM), default=())
    steps: tuple[str, ...] = declare(TextList(Text(STEP_REF, STEP_HINT), nonempty=False), default=())
    # the answer's key points, each a clause of `answer` or `bank_answer` word for word (an interview's rubric)
    points: tuple[str, ...] = declare(TextList(), default=())
    # the notes of the errata (errata.yaml) whose claim the card shows: set by the loader
    errata: tuple[str, ...] = declare(_IDS, given=True, default=())

    def shown_text(self) -> tuple[str, ...]:
        """Every chapter text the card shows (where an erratum's claim is looked for)."""
        texts = (self.question, self.bank_question, self.answer, self.bank_answer, *self.pitfalls)
        return tuple(t for t in texts if t)

    @staticmethod
    def check_record(values: dict[str, Any]) -> None:
        if values.get("bank_question") is not None and values.get("bank") is None:
            raise Invalid("bank_question needs bank (the card's number in the 7.24 bank)", ("bank_question",))
        answers = (values.get("answer") or "", values.get("bank_answer") or "")
        for i, point in enumerate(values.get("points") or ()):
            if not any(point in text for text in answers):
                raise Invalid(
                    f"point {point!r} is not in the card's answer or bank_answer (a point is a clause of the "
                    "answer, copied word for word)",
                    ("points", i),
                )

    @property
    def front(self) -> str:
        """The question as an interviewer asks it: the bank's wording when the card has one."""
        return self.bank_question or self.question

    def front_text(self) -> str:
        """The front as plain text, for a view that does not render Markdown (the study screen's question)."""
        return self.front

    @property
    def kind(self) -> str:
        """``qa``, ``cloze``, ``formula``, ``calc`` or ``code`` (drill.content.kinds.KINDS)."""
        return self.KIND


@dataclass(frozen=True, kw_only=True)
class Quiz:
    """One multiple-choice question (quizzes.yaml, ``quizzes:``)."""

    id: str = declare(ID)
    pack: str = declare(PACK, given=True)
    section: str = declare(SECTION_TEXT)
    stem: str = declare(VERBATIM)
    options: dict[str, str] = declare(Options(verbatim=True))
    answer: str = declare(Text())
    explanation: str = declare(VERBATIM)
    cards: tuple[str, ...] = declare(TextList(ID))
    # drill's own words on why each wrong option is wrong (zh, en; a quote of the explanation where it says so)
    why_wrong: dict[str, dict[str, str]] | None = declare(WhyWrong(), default=None)

    @staticmethod
    def check_record(values: dict[str, Any]) -> None:
        options = values["options"]
        if values["answer"] not in options:
            raise Invalid(
                f"answer {values['answer']!r} is not one of the options ({', '.join(options)})", ("answer",)
            )
        why = values.get("why_wrong")
        if why is None:
            return
        wrong = [key for key in options if key != values["answer"]]
        for key in why:
            if key not in wrong:
                raise Invalid(
                    f"{key!r} is not a wrong option (wrong: {', '.join(wrong)})", ("why_wrong", key)
                )
        for key in wrong:
            if key not in why:
                raise Invalid(f"wrong option {key!r} has no note", ("why_wrong",))
        for key, entry in why.items():
            quote = entry.get("quote")
            if quote is not None and quote.strip() not in values["explanation"]:
                raise Invalid(
                    "the quote is not in the quiz's explanation (it quotes the chapter's words)",
                    ("why_wrong", key, "quote"),
                )


@dataclass(frozen=True, kw_only=True)
class Check:
    """A number the chapter prints that the engine can compute (checks.yaml, ``checks:``)."""

    id: str = declare(ID)
    pack: str = declare(PACK, given=True)
    section: str = declare(SECTION_TEXT)
    example: str = declare(Text(ITEM_ID, "an engine example name"))
    step: str = declare(Text(ITEM_ID, "a step name"))
    index: tuple[int, ...] = declare(Index(), default=())
    claimed: float = declare(Number())
    decimals: int = declare(Integer(0, 12))
    card: str | None = declare(ID, default=None)
    erratum: str | None = declare(Text(), default=None)  # drill's note in Chinese when the chapter is off
    erratum_en: str | None = declare(Text(), default=None)  # the same in English
    # "wrong" (the chapter's figure is wrong) or "note" (right in magnitude; the exact figure): as Erratum.kind
    kind: str = declare(Text(KIND, KIND_HINT), default="wrong")


@dataclass(frozen=True, kw_only=True)
class Erratum:
    """A claim of the chapter that drill re-derived and found wrong (errata.yaml, ``errata:``).

    Every card showing one of ``claims`` shows ``note`` (the loader sets the card's ``errata``).
    """

    id: str = declare(ID)
    pack: str = declare(PACK, given=True)
    section: str = declare(SECTION_TEXT)
    claims: tuple[str, ...] = declare(
        TextList(VERBATIM)
    )  # the spans: the chapter's words, each found in the source
    note: str = declare(Text())  # drill's words in Chinese: what is true, with the numbers
    note_en: str = declare(Text())  # the same in English (drill.content.errata shows the UI language's)
    # "wrong": the chapter is wrong; "note": right in substance or magnitude, drill gives the exact figure
    kind: str = declare(Text(KIND, KIND_HINT), default="wrong")
    source: str | None = declare(Text(), default=None)  # the paper (and section) the note rests on, if any
    check: str | None = declare(ID, default=None)  # the numeric check that computes it, if any
    cards: tuple[str, ...] = declare(_IDS, given=True, default=())  # the cards that show a claim


@dataclass(frozen=True, kw_only=True)
class Pack:
    """A content pack: questions.yaml's top level, plus what the loader found in the pack."""

    id: str = declare(PACK, key="pack")
    title: str = declare(Text())
    source: str | None = declare(Text(), default=None)
    path: Path = declare(FilePath(), given=True)
    card_ids: tuple[str, ...] = declare(_IDS, given=True, default=())
    quiz_ids: tuple[str, ...] = declare(_IDS, given=True, default=())
    check_ids: tuple[str, ...] = declare(_IDS, given=True, default=())
    erratum_ids: tuple[str, ...] = declare(_IDS, given=True, default=())


@dataclass
class Library:
    """Everything loaded: ids are unique across packs; cards keep file order."""

    packs: list[Pack] = field(default_factory=list)
    cards: dict[str, Card] = field(default_factory=dict)
    quizzes: list[Quiz] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    errata: list[Erratum] = field(default_factory=list)

    def quiz(self, quiz_id: str) -> Quiz:
        for quiz in self.quizzes:
            if quiz.id == quiz_id:
                return quiz
        raise KeyError(quiz_id)

    def section_of(self, card_id: str) -> str | None:
        """The section of the card ``card_id``; None when there is no such card."""
        card = self.cards.get(card_id)
        return None if card is None else card.section

    def cards_in_section(self, section: str) -> list[Card]:
        return [card for card in self.cards.values() if card.section == section]
