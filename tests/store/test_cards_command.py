"""`drill cards`: hidden cards can be listed and brought back from the command line (issue 11 item 7)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from tests.store.store_support import open_test_store

T0 = datetime.now(UTC) - timedelta(days=30)


def drill(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "drill", *args], capture_output=True, text=True, timeout=120)


def _leech(store, card_id: str) -> None:
    store.config = replace(store.config, leech_threshold=2, leech_action="suspend")
    now = T0
    store.grade(card_id, 3, now)
    for _ in range(60):
        info = store.card_info(card_id, now)
        if info.suspended:
            return
        now = max(now, info.due or now) + timedelta(minutes=1)
        store.grade(card_id, 1 if info.kind.value == "review" else 3, now)
    raise AssertionError("never became a leech")


def test_list_and_unsuspend_a_leech_and_unbury(tmp_path):
    url = f"sqlite:///{tmp_path / 'drill.sqlite3'}"
    store = open_test_store(url)
    try:
        _leech(store, "c03")
        store.suspend("c04")
        store.bury("c05", datetime.now(UTC))
    finally:
        store.close()
    listed = drill("cards", "suspended", "--db", url, "--user", "alice", "--json")
    assert listed.returncode == 0, listed.stderr
    assert sorted(r["id"] for r in json.loads(listed.stdout)) == ["c03", "c04"]
    leeches = drill("cards", "leeches", "--db", url, "--user", "alice")
    assert leeches.stdout.split()[0] == "c03" and len(leeches.stdout.splitlines()) == 1
    buried = drill("cards", "buried", "--db", url, "--user", "alice")
    assert buried.stdout.split()[0] == "c05"

    back = drill("cards", "unsuspend", "c03", "c04", "--db", url, "--user", "alice")
    assert back.returncode == 0, back.stderr
    assert drill("cards", "suspended", "--db", url, "--user", "alice").stdout.strip() == "no suspended cards"
    assert drill("cards", "unbury", "c05", "--db", url, "--user", "alice").returncode == 0
    assert drill("cards", "buried", "--db", url, "--user", "alice").stdout.strip() == "no buried cards"
    # A leech that comes back keeps its tag (and is still listed as one), but studies again.
    assert drill("cards", "leeches", "--db", url, "--user", "alice").stdout.split()[0] == "c03"


def test_an_unknown_card_id_is_one_line_and_exit_2(tmp_path):
    url = f"sqlite:///{tmp_path / 'drill.sqlite3'}"
    open_test_store(url).close()
    out = drill("cards", "unsuspend", "no-such-card", "--db", url, "--user", "alice")
    assert out.returncode == 2
    assert out.stderr.startswith("drill: error: ") and "no-such-card" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
