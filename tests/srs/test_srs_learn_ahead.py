"""Learn-ahead: when nothing else is left today, a learning card due within ``learn_ahead_minutes`` is shown
now (Anki's learn-ahead limit); beyond it, or with the setting 0, the session has nothing left."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from drill.srs import DEFAULT_CONFIG
from drill.srs.config import ConfigError, config_from_mapping

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path):
    from drill.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice")
    store.tz = UTC
    store.config = replace(DEFAULT_CONFIG, new_per_day=1, enable_fuzzing=False)
    store.sync_content([("p", "a", "7.1"), ("p", "b", "7.1")])
    yield store
    store.close()


def test_a_learning_card_due_in_5_minutes_is_shown_now(store):
    card = store.next_card(T0)
    store.grade(card.card_id, 3, T0)  # Good on a new card: its 10-minute step, due T0 + 10 min
    due = store.card_info(card.card_id).due
    assert due == T0 + timedelta(minutes=10)
    five_before = due - timedelta(minutes=5)
    shown = store.next_card(five_before)  # the day's one new card is used up: nothing else left
    assert shown is not None and shown.card_id == card.card_id and shown.due == due
    store.config = replace(store.config, learn_ahead_minutes=0)
    assert store.next_card(five_before) is None
    store.config = replace(store.config, learn_ahead_minutes=4)
    assert store.next_card(five_before) is None  # due in 5 > 4 minutes
    assert store.next_card(due - timedelta(minutes=3)).card_id == card.card_id


def test_learn_ahead_waits_behind_a_new_card(store):
    store.config = replace(store.config, new_per_day=2)
    first = store.next_card(T0)
    store.grade(first.card_id, 3, T0)
    shown = store.next_card(T0 + timedelta(minutes=5))
    assert shown.card_id != first.card_id and shown.due is None  # the other new card comes first


def test_the_setting_and_its_error():
    assert DEFAULT_CONFIG.learn_ahead_minutes == 20
    with pytest.raises(ConfigError, match=r"^drill.toml: learn_ahead_minutes: .*out of range"):
        config_from_mapping({"learn_ahead_minutes": -1}, "drill.toml")
