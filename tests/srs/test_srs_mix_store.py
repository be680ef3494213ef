"""The store introduces new cards in drill.srs.mix's order, renumbers them when ``new_order`` changes, and the
read-only first-card peek of a first-ever start agrees with the session."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from drill.srs import DEFAULT_CONFIG
from drill.srs.mix import ranked

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _new_cards_in_order(store, count):
    out = []
    for n in range(count):
        card = store.next_card(NOW + timedelta(seconds=n))
        out.append(card.card_id)
        store.suspend(card.card_id)  # out of the way: the next new card comes next
    return out


def test_new_cards_follow_the_setting_and_a_changed_setting_renumbers(tmp_path):
    from drill.content import load_content
    from drill.store import open_store

    library = load_content()
    items = [(c.id, c.kind, c.section) for c in library.cards.values()]
    store = open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice")
    try:
        store.config = replace(DEFAULT_CONFIG, new_per_day=1000)
        store.sync_content(library)
        assert _new_cards_in_order(store, 25) == ranked(items, store.config)[:25]
        store.config = replace(store.config, new_order="kind")
        store.sync_content(library)
        left = [i for i in items if i[0] not in set(ranked(items, DEFAULT_CONFIG)[:25])]
        assert _new_cards_in_order(store, 10) == [i[0] for i in left[:10]]  # content order now
    finally:
        store.close()


def test_first_start_peek_names_the_sessions_first_card(tmp_path):
    from drill.content import load_content
    from drill.store import open_store
    from drill.store.peek import first_of_new_database

    library = load_content()
    content = [(c.pack, c.id, c.section) for c in library.cards.values()]
    kinds = {c.id: c.kind for c in library.cards.values()}
    for section in (None, "7.12"):
        peeked = first_of_new_database(content, section, DEFAULT_CONFIG, kinds)
        store = open_store(f"sqlite:///{tmp_path / f'{section}.sqlite3'}", "alice")
        try:
            store.config = DEFAULT_CONFIG
            store.sync_content(library)
            assert peeked.card_id == store.next_card(NOW, section).card_id
        finally:
            store.close()
