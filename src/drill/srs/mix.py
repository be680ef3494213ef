"""The order new cards come in: a rank per card from its skill, its section and the settings.

``new_order`` (drill.srs.config) picks the rule:

- ``mixed`` (the default): the skills interleaved by their shares (``new_mix``), a smooth weighted round robin,
  so any run of new cards holds each skill in proportion to its share while it has cards left (with the default
  shares every ten new cards hold one code task, one hand calculation and two questions to explain); within a
  skill, the sections take turns in chapter order, each section's cards in content order. A skill whose share
  is 0 comes after the others are used up. Table rows (recall) never crowd out the rest.
- ``section``: chapter order, every kind of a section together (content order inside a section).
- ``kind``: content order, as drill did before (questions.yaml lists the cards kind by kind).

`ranked` is the one rule: the store numbers each user's new cards by it (drill.store.sync), the read-only peek
and the plan (drill.srs.skillplan) order by it too. Pure; standard library only.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from drill.content.sections import section_key
from drill.content.skills import SKILLS, skill_of

if TYPE_CHECKING:  # pragma: no cover
    from drill.srs.config import SrsConfig

K = TypeVar("K", bound=Hashable)


def _sections_taking_turns(items: Sequence[tuple[K, str]]) -> list[K]:
    """``items`` — (key, section) in content order — with the sections taking turns in chapter order."""
    by_section: dict[str, list[K]] = {}
    for key, section in items:
        by_section.setdefault(section, []).append(key)
    queues = [by_section[s] for s in sorted(by_section, key=section_key)]
    out: list[K] = []
    depth = 0
    while len(out) < len(items):
        out.extend(queue[depth] for queue in queues if depth < len(queue))
        depth += 1
    return out


def interleave(by_skill: Mapping[str, Sequence[K]], shares: Sequence[float]) -> list[K]:
    """Every skill's items (each list in its own order) merged by a smooth weighted round robin over ``shares``
    (SKILLS order): each step credits every skill with cards left its share and takes from the most credited
    (ties: SKILLS order), which then pays the total. Zero-share skills come last, in SKILLS order."""
    weights = dict(zip(SKILLS, shares, strict=True))
    queues = {s: list(by_skill.get(s, ())) for s in SKILLS}
    out: list[K] = []
    credit = dict.fromkeys(SKILLS, 0.0)
    while True:
        live = [s for s in SKILLS if queues[s] and weights[s] > 0]
        if not live:
            break
        total = sum(weights[s] for s in live)
        for s in live:
            credit[s] += weights[s]
        pick = max(live, key=lambda s: (credit[s], -SKILLS.index(s)))
        credit[pick] -= total
        out.append(queues[pick].pop(0))
    for s in SKILLS:  # zero shares
        out.extend(queues[s])
    return out


def ranked(items: Sequence[tuple[K, str, str]], config: SrsConfig) -> list[K]:
    """``items`` — (key, card kind, section) in content order — in the order new cards are introduced under
    ``config.new_order`` and ``config.new_mix``."""
    order = config.new_order
    if order == "kind":
        return [key for key, _kind, _section in items]
    if order == "section":
        indexed = sorted(enumerate(items), key=lambda pair: (section_key(pair[1][2]), pair[0]))
        return [item[0] for _index, item in indexed]
    by_skill: dict[str, list[tuple[K, str]]] = {}
    for key, kind, section in items:
        by_skill.setdefault(skill_of(kind), []).append((key, section))
    turns = {skill: _sections_taking_turns(pairs) for skill, pairs in by_skill.items()}
    return interleave(turns, config.new_mix)


def ranks(items: Sequence[tuple[K, str, str]], config: SrsConfig) -> dict[K, int]:
    """Each key's place (0, 1, ...) in `ranked`."""
    return {key: index for index, key in enumerate(ranked(items, config))}


def new_card_places(
    items: Sequence[tuple[str, str, str]], kinds: Mapping[str, str] | None, config: SrsConfig
) -> dict[tuple[str, str], int]:
    """(pack, content id) -> its place among its pack's new cards, from ``items`` — (pack, content id, section)
    in content order — and each card's kind: `ranked` when every kind is known, else content order. The store
    numbers a user's new cards by it (drill.store.sync); the read-only first-card peek reads the same."""
    by_pack: dict[str, list[tuple[str, str, str]]] = {}
    for pack, content_id, section in items:
        by_pack.setdefault(pack, []).append((content_id, (kinds or {}).get(content_id, ""), section))
    places: dict[tuple[str, str], int] = {}
    for pack, rows in by_pack.items():
        known = kinds is not None and all(kind for _cid, kind, _section in rows)
        order = ranked(rows, config) if known else [cid for cid, _kind, _section in rows]
        places.update({(pack, cid): n for n, cid in enumerate(order)})
    return places


__all__ = ["interleave", "new_card_places", "ranked", "ranks"]
