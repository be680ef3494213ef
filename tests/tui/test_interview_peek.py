"""The interview's peek (drill.tui.models.interview_peek) against its oracle, the store's own `store_order` on the
same database: the same questions in the same order, also after other sessions wrote to it, and "don't know"
(None) when the saved key does not match."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from drill.store import open_store
from drill.tui.models.interview import bank_cards, store_order
from drill.tui.models.interview_peek import order_file, peek_order, save_order_key

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
USER = "tester"


def packs_of(library) -> list[str]:
    return sorted({p.id for p in library.packs} | {c.pack for c in library.cards.values()})


def close_and_save(store, db_url, now) -> None:
    """What an interview does with its store: the key saved while it is open, then closed."""
    assert save_order_key(store, db_url) is not None
    store.close()


def peeked(library, db_url, now, seed, section=None):
    cards = bank_cards(list(library.cards.values()), section)
    return peek_order(cards, now, packs=packs_of(library), seed=seed, user=USER, db_url=db_url)


def stores_order(library, db_url, now, seed, section=None):
    cards = bank_cards(list(library.cards.values()), section)
    store = open_store(db_url, USER)
    try:
        store.sync_content(library)
        return store_order(cards, store, now, seed=seed)
    finally:
        store.close()


def graded_store(library, db_url):
    """A learner with a history: some bank cards graded Again, Hard, Good and Easy a day apart."""
    store = open_store(db_url, USER)
    store.sync_content(library)
    for n, card in enumerate(bank_cards(list(library.cards.values()))[:12]):
        store.grade(card.id, 1 + n % 4, T0 + timedelta(hours=n))
    return store


@pytest.mark.parametrize("seed", [0, 1, 7])
@pytest.mark.parametrize("days", [0, 2, 30])
def test_the_saved_order_is_the_stores_order(library, db_url, seed, days):
    store = graded_store(library, db_url)
    now = T0 + timedelta(days=days)
    close_and_save(store, db_url, now)
    ahead = peeked(library, db_url, now, seed)  # before the store opens again
    assert ahead is not None
    assert [c.id for c in ahead] == [c.id for c in stores_order(library, db_url, now, seed)]


def test_a_section_is_ordered_from_the_same_file(library, db_url):
    store = graded_store(library, db_url)
    section = bank_cards(list(library.cards.values()))[0].section
    close_and_save(store, db_url, T0 + timedelta(days=1))
    ahead = peeked(library, db_url, T0 + timedelta(days=1), 3, section)
    assert ahead is not None and {c.section for c in ahead} == {section}
    assert [c.id for c in ahead] == [
        c.id for c in stores_order(library, db_url, T0 + timedelta(days=1), 3, section)
    ]


def test_grades_given_since_the_save_are_read(library, db_url):
    """Another session (study, say) grades after the interview closed: the peek reads the states as they are."""
    close_and_save(graded_store(library, db_url), db_url, T0)
    other = open_store(db_url, USER)
    for n, card in enumerate(bank_cards(list(library.cards.values()))[12:20]):
        other.grade(card.id, 1 + n % 4, T0 + timedelta(days=1, hours=n))
    other.close()
    now = T0 + timedelta(days=4)
    ahead = peeked(library, db_url, now, 2)
    assert ahead is not None
    assert [c.id for c in ahead] == [c.id for c in stores_order(library, db_url, now, 2)]


def test_a_suspended_card_is_ordered_as_the_store_orders_it(library, db_url):
    store = graded_store(library, db_url)
    store.suspend(bank_cards(list(library.cards.values()))[0].id)
    close_and_save(store, db_url, T0)
    now = T0 + timedelta(days=2)
    assert [c.id for c in peeked(library, db_url, now, 4)] == [
        c.id for c in stores_order(library, db_url, now, 4)
    ]


def test_another_learner_other_packs_or_no_file_mean_dont_know(library, db_url):
    cards = bank_cards(list(library.cards.values()))
    assert peeked(library, db_url, T0, 1) is None  # nothing saved yet
    close_and_save(graded_store(library, db_url), db_url, T0)
    packs = packs_of(library)
    assert peek_order(cards, T0, packs=packs, seed=1, user="someone-else", db_url=db_url) is None
    assert peek_order(cards, T0, packs=[*packs, "another-pack"], seed=1, user=USER, db_url=db_url) is None
    path, _db = order_file(db_url)
    saved = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(dict(saved, revision="0001")), encoding="utf-8")  # another schema
    assert peeked(library, db_url, T0, 1) is None
    path.write_text("{not json", encoding="utf-8")
    assert peeked(library, db_url, T0, 1) is None


def test_an_interview_day_leaves_the_order_to_the_store(library, db_url):
    store = graded_store(library, db_url)
    store.set_interview_plan((T0 + timedelta(days=10)).date(), 0.9, T0)
    close_and_save(store, db_url, T0)
    assert peeked(library, db_url, T0, 1) is None


def test_the_peeks_states_statement_is_the_stores(tmp_path):
    """For several learners and pack lists, the card-states statement the peek runs is exactly (text and
    parameters) what drill.store.plans.card_states_query compiles to for SQLite."""
    from drill.store.peek_sql import compile_statement
    from drill.store.plans import card_states_query
    from drill.tui.models.interview_peek import states_statement

    store = open_store(f"sqlite:///{tmp_path / 's.sqlite3'}", USER)
    try:
        for user_id in (1, 42):
            for packs in (["a"], ["a", "b-c", 'it\'s; -- "x"']):
                sql, params = states_statement(user_id, packs)
                compiled = compile_statement(card_states_query(user_id, packs), store.engine.dialect)
                assert " ".join(sql.split()) == " ".join(compiled[0].split())
                assert params == compiled[1]
    finally:
        store.close()


def test_a_states_digest_that_is_not_the_stores_means_dont_know(library, db_url):
    """The saved key holds the digest of the store's compiled card-states statement: one changed (the store's
    query moved on, or the file was edited) and the peek runs nothing."""
    close_and_save(graded_store(library, db_url), db_url, T0)
    assert peeked(library, db_url, T0, 1) is not None
    path, _db = order_file(db_url)
    saved = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(dict(saved, states="0" * 64)), encoding="utf-8")
    assert peeked(library, db_url, T0, 1) is None
    path.write_text(json.dumps({k: v for k, v in saved.items() if k != "states"}), encoding="utf-8")
    assert peeked(library, db_url, T0, 1) is None
