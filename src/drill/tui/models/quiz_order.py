"""With an interview date set, the quiz asks the questions weakest on the day first (drill.srs.deadline).

A chapter question's weakness is the lowest recall on the interview day among the cards it names; a generated
question's, the lowest among its section's cards. Questions with no card to judge by keep their place after the
judged ones; equals keep their order. No textual here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from drill.store.api import Store


def weakest_first(items: Sequence[Any], recall: dict[str, float], section_of: dict[str, str]) -> list[Any]:
    """``items`` (anything with ``cards`` and ``section``) ordered by their cards' lowest recall on the day."""
    by_section: dict[str, float] = {}
    for card, value in recall.items():
        section = section_of.get(card)
        if section is not None:
            by_section[section] = min(value, by_section.get(section, value))

    def weakness(item: Any) -> float:
        known = [recall[c] for c in getattr(item, "cards", ()) if c in recall]
        if known:
            return min(known)
        return by_section.get(item.section, float("inf"))

    return sorted(items, key=weakness)


def interview_order(items: Sequence[Any], store: Store, now: datetime) -> list[Any]:
    """``items`` weakest on the interview day first, or unchanged when no date is set."""
    plan = store.interview_plan(now)
    if plan is None:
        return list(items)
    from drill.srs.deadline import recall as recall_on
    from drill.store.plans import deadline_of

    deadline = deadline_of(store, plan)
    cards = store.plan_cards()
    recall = {cid: recall_on(state, deadline.at, store.config) for cid, _section, state in cards}
    return weakest_first(items, recall, {cid: section for cid, section, _state in cards})
