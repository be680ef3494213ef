"""With an interview date set, the quiz asks the weakest-on-the-day questions first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from drill.srs.deadline import recall
from drill.store.plans import deadline_of
from drill.tui.models.quiz_order import interview_order, weakest_first
from tests.tui.conftest import NOW


@dataclass
class Item:
    id: str
    section: str
    cards: tuple[str, ...] = ()


def test_weakest_first_orders_by_the_lowest_recall_of_the_items_cards():
    recall_of = {"a": 0.9, "b": 0.3, "c": 0.6, "d": 0.95}
    section_of = {"a": "7.9", "b": "7.9", "c": "7.10", "d": "7.12"}
    items = [
        Item("q-a", "7.25", ("a",)),  # 0.9
        Item("gen-7.10", "7.10"),  # section 7.10: 0.6
        Item("q-ab", "7.25", ("a", "b")),  # 0.3
        Item("gen-7.3", "7.3"),  # nothing known: last
        Item("q-d", "7.25", ("d",)),  # 0.95
    ]
    assert [i.id for i in weakest_first(items, recall_of, section_of)] == [
        "q-ab",
        "gen-7.10",
        "q-a",
        "q-d",
        "gen-7.3",
    ]


def test_interview_order_uses_the_stores_plan(store, library):
    store.sync_content(library)
    items = [Item(cid, card.section, (cid,)) for cid, card in list(library.cards.items())[:6]]
    assert interview_order(items, store, NOW) == items  # no date: unchanged
    for cid in ("q01", "q02", "q03"):
        store.grade(cid, 4, NOW)
    store.set_interview_plan(date(2026, 3, 30), 0.9, NOW)
    ordered = interview_order(items, store, NOW)
    deadline = deadline_of(store, store.interview_plan(NOW))
    states = {cid: state for cid, _s, state in store.plan_cards()}
    values = [recall(states[i.id], deadline.at, store.config) for i in ordered]
    assert values == sorted(values) and sorted(i.id for i in ordered) == sorted(i.id for i in items)
