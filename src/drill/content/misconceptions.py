"""Misconceptions (a pack's ``misconceptions.yaml``): the wrong beliefs an interview answer can state, in drill's
own words (zh and en), each with its correction — a 常见误区 bullet or key point of a card (the chapter's words,
verbatim) or an erratum's note (drill's). Read with drill.content.yamlio: every error names file, line and field.

The rubric lists these as traps, never a true statement. A pack without the file has none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from drill.content.models import Library
from drill.errors import ContentError

FILE = "misconceptions.yaml"
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{1,60}$")
_REF = re.compile(
    r"^(?:(?P<card>[A-Za-z0-9._-]+)/(?P<kind>pitfall|point)/(?P<n>[1-9][0-9]*)|erratum/(?P<erratum>\S+))$"
)


@dataclass(frozen=True)
class Correction:
    ref: str  # as written: q17/pitfall/1, q16/point/2, erratum/e7.15-kv-cache
    text: str  # the chapter's words (pitfall, point) or drill's (an erratum's note)
    drills: bool  # True: drill's own words (an erratum's note)


@dataclass(frozen=True)
class Misconception:
    id: str
    cards: tuple[str, ...]
    wrong_zh: str
    wrong_en: str
    corrections: tuple[Correction, ...]

    def wrong(self, language: str) -> str:
        """The wrong belief in ``language`` ('zh...' -> Chinese, else English)."""
        return self.wrong_zh if language.startswith("zh") else self.wrong_en


@dataclass(frozen=True)
class Book:
    items: tuple[Misconception, ...] = ()
    _by_card: dict[str, tuple[Misconception, ...]] = field(default_factory=dict, compare=False)

    def for_card(self, card_id: str) -> tuple[Misconception, ...]:
        return self._by_card.get(card_id, ())

    def get(self, mid: str) -> Misconception | None:
        return next((m for m in self.items if m.id == mid), None)


def load_misconceptions(library: Library) -> Book:
    """Every pack's misconceptions, validated against ``library`` (cards, their pitfalls and points, errata)."""
    items: list[Misconception] = []
    for pack in library.packs:
        file = Path(pack.path) / FILE
        if file.is_file():
            items += _read(file, library)
    seen: set[str] = set()
    by_card: dict[str, list[Misconception]] = {}
    for m in items:
        if m.id in seen:
            raise ContentError(f"{FILE}: misconception {m.id!r} is declared twice")
        seen.add(m.id)
        for cid in m.cards:
            by_card.setdefault(cid, []).append(m)
    return Book(tuple(items), {k: tuple(v) for k, v in by_card.items()})


def _read(file: Path, library: Library) -> list[Misconception]:
    from drill.content.yamlio import read_yaml

    doc = read_yaml(file)
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("misconceptions"), list):
        raise doc.error((), "expected a mapping with a 'misconceptions:' list")
    errata = {e.id: e for e in library.errata}
    out = []
    ids: set[str] = set()
    for i, item in enumerate(data["misconceptions"]):
        at = ("misconceptions", i)
        if not isinstance(item, dict):
            raise doc.error(at, "expected a mapping (id, cards, wrong, corrects)")
        unknown = set(item) - {"id", "cards", "wrong", "corrects"}
        if unknown:
            raise doc.error((*at, sorted(unknown)[0]), "unknown field (expected id, cards, wrong, corrects)")
        mid = item.get("id")
        if not isinstance(mid, str) or not _ID.match(mid):
            raise doc.error((*at, "id"), "expected a slug of lower-case letters, digits and '-'")
        if mid in ids:
            raise doc.error((*at, "id"), f"misconception {mid!r} is declared twice")
        ids.add(mid)
        cards = item.get("cards")
        if not isinstance(cards, list) or not cards:
            raise doc.error((*at, "cards"), "expected a non-empty list of card ids")
        for j, cid in enumerate(cards):
            card = library.cards.get(cid) if isinstance(cid, str) else None
            if card is None or not card.points:
                raise doc.error((*at, "cards", j), f"{cid!r} is not a card with key points")
        wrong = item.get("wrong")
        if not isinstance(wrong, dict) or set(wrong) != {"zh", "en"}:
            raise doc.error((*at, "wrong"), "expected {zh: ..., en: ...}: the wrong belief in both languages")
        for lang in ("zh", "en"):
            if not isinstance(wrong[lang], str) or not wrong[lang].strip():
                raise doc.error((*at, "wrong", lang), "expected a non-empty text")
        refs = item.get("corrects")
        if not isinstance(refs, list) or not refs:
            raise doc.error(
                (*at, "corrects"), "expected a non-empty list (CARD/pitfall/N, CARD/point/N, erratum/ID)"
            )
        corrections = []
        for j, ref in enumerate(refs):
            m = _REF.match(ref) if isinstance(ref, str) else None
            if m is None:
                raise doc.error((*at, "corrects", j), "expected CARD/pitfall/N, CARD/point/N or erratum/ID")
            if m["erratum"]:
                erratum = errata.get(m["erratum"])
                if erratum is None:
                    raise doc.error((*at, "corrects", j), f"no erratum {m['erratum']!r} in errata.yaml")
                corrections.append(Correction(ref, erratum.note, True))
                continue
            card = library.cards.get(m["card"])
            if card is None:
                raise doc.error((*at, "corrects", j), f"no card {m['card']!r}")
            texts = card.pitfalls if m["kind"] == "pitfall" else card.points
            n = int(m["n"])
            if n > len(texts):
                raise doc.error(
                    (*at, "corrects", j), f"card {card.id} has {len(texts)} {m['kind']}s, not {n}"
                )
            corrections.append(Correction(ref, texts[n - 1], False))
        out.append(Misconception(mid, tuple(cards), wrong["zh"], wrong["en"], tuple(corrections)))
    return out
