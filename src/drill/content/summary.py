"""What a loaded Library holds, per pack: the figures `drill check` prints (pure data, no rendering)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from drill.content.models import Library, Pack
from drill.content.sections import section_key
from drill.i18n import _


@dataclass(frozen=True)
class SectionRow:
    section: str
    cards: int
    bank: tuple[int, ...]  # bank numbers of the cards taught in this section
    section_only: tuple[str, ...]  # ids of its question/answer cards that are not in the bank
    kinds: tuple[tuple[str, int], ...] = ()  # (card kind, how many), kinds in drill.content.kinds order
    asked_here: int = 0  # cards taught elsewhere and asked here too (the 7.24 bank asks every bank card)

    @property
    def covered(self) -> bool:
        return bool(self.cards or self.asked_here)


@dataclass(frozen=True)
class PackSummary:
    pack: Pack
    cards: int
    sections: tuple[SectionRow, ...]
    bank_numbers: tuple[int, ...]
    bank_gaps: tuple[int, ...]  # numbers missing between 1 and the highest one present
    section_only: tuple[tuple[str, str], ...]  # (card id, section) of the question/answer cards
    quizzes: int
    checks: int
    errata: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (erratum id, the cards that show it)
    kinds: tuple[tuple[str, int], ...] = ()  # (card kind, how many) in the pack


def kinds_of(cards: list) -> tuple[tuple[str, int], ...]:
    from drill.content.kinds import KINDS

    counts = Counter(card.kind for card in cards)
    return tuple((kind, counts[kind]) for kind in KINDS if counts[kind])


def kinds_label(kinds: tuple[tuple[str, int], ...], asked_here: int = 0) -> str:
    """``qa 2 · cloze 5`` (card kinds are ids, the same in every language), and the cards asked here."""
    from drill.i18n import _

    label = " · ".join(f"{kind} {n}" for kind, n in kinds)
    if asked_here:
        label = (label + " · " if label else "") + _("+{count} asked here").format(count=asked_here)
    return label


def summarize(library: Library) -> list[PackSummary]:
    out = []
    for pack in library.packs:
        cards = [library.cards[card_id] for card_id in pack.card_ids]
        per_section = Counter(card.section for card in cards)
        asked = Counter(s for card in cards for s in set(card.asked_in) if s != card.section)
        rows = tuple(
            SectionRow(
                section,
                per_section[section],
                tuple(sorted(c.bank for c in cards if c.section == section and c.bank is not None)),
                tuple(c.id for c in cards if c.section == section and c.bank is None and c.kind == "qa"),
                kinds_of([c for c in cards if c.section == section]),
                asked[section],
            )
            for section in sorted(set(per_section) | set(asked), key=section_key)
        )
        bank = tuple(sorted(card.bank for card in cards if card.bank is not None))
        gaps = tuple(n for n in range(1, (bank[-1] if bank else 0) + 1) if n not in set(bank))
        out.append(
            PackSummary(
                pack=pack,
                cards=len(cards),
                sections=rows,
                bank_numbers=bank,
                bank_gaps=gaps,
                section_only=tuple((c.id, c.section) for c in cards if c.bank is None and c.kind == "qa"),
                kinds=kinds_of(cards),
                quizzes=len(pack.quiz_ids),
                checks=len(pack.check_ids),
                # a note (the chapter right in magnitude, drill's exact figure) is marked apart from an erratum
                errata=tuple(
                    (e.id if e.kind == "wrong" else _("{id} (exact figure)").format(id=e.id), e.cards)
                    for e in library.errata
                    if e.pack == pack.id
                ),
            )
        )
    return out


def bank_label(numbers: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"Q{n}" for n in numbers)


def errata_label(errata: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    return "; ".join(f"{eid} → {', '.join(cards) or '-'}" for eid, cards in errata)
