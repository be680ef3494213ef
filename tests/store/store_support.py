"""Helpers shared by the store tests (``from tests.store.store_support import ...``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC

CARDS = [("pack-a", f"c{i:02d}", f"7.{i % 5 + 1}") for i in range(30)]


def open_test_store(url, user="alice", **config):
    """A store with the synthetic pack synced, days in UTC, and the given SrsConfig overrides."""
    from drill.srs import DEFAULT_CONFIG
    from drill.store import open_store

    store = open_store(url, user)
    store.tz = UTC
    store.config = replace(DEFAULT_CONFIG, **config)
    store.sync_content(CARDS)
    return store
