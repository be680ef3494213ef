"""No command that only reads writes (issue 27 §2): every read-only command run on a learner's database leaves
the file's bytes and mtime as they were, commits nothing (``PRAGMA data_version`` of a connection held open
meanwhile), and adds nothing to the -wal — also for a learner the database does not know yet and for content
with cards the database does not hold yet, where a writing open would add a user row or sync cards in.

`drill plan --interview D --dry-run` used to open for writing (sync, user row, whole-file check); its forecast
from the read-only store is the one a writing open gives (the unsynced cards count as new).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.content import load_content
from drill.store import open_store


def run(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="drill")


def db_file() -> Path:
    return Path(os.environ["DRILL_DATA_DIR"]) / "drill.sqlite3"


DAY = (date.today() + timedelta(days=20)).isoformat()


def make_learner(skip: int = 0) -> None:
    """alice: the shipped content synced (all but its last ``skip`` cards), a few grades, a bury, a plan."""
    library = load_content()
    if skip:  # the library as it was before its last cards were added
        kept = list(library.cards.items())[:-skip]
        library = SimpleNamespace(cards=dict(kept), packs=library.packs)
    store = open_store(None, "alice")
    store.sync_content(library)
    start = datetime.now(UTC) - timedelta(days=3)
    for n in range(6):
        card = store.next_card(start)
        store.grade(card.card_id, 3 if n % 3 else 1, start, duration_ms=9000 + 700 * n)
    store.bury(store.next_card(datetime.now(UTC)).card_id, datetime.now(UTC))
    store.close()
    if not skip:
        result = run("plan", "--interview", DAY, "--yes", "--user", "alice")
        assert result.exit_code == 0, result.output


def fingerprint(path: Path) -> tuple:
    wal = path.with_name(path.name + "-wal")
    stat = path.stat()
    return (
        hashlib.sha256(path.read_bytes()).hexdigest(),
        stat.st_mtime_ns,
        stat.st_size,
        wal.stat().st_size if wal.exists() else 0,
    )


def assert_reads_only(args: tuple[str, ...], codes=(0,)) -> str:
    path = db_file()
    watcher = sqlite3.connect(path)
    try:
        watcher.execute("SELECT count(*) FROM cards").fetchone()
        version = watcher.execute("PRAGMA data_version").fetchone()[0]
        before = fingerprint(path)
        result = run(*args)
        assert result.exit_code in codes, (args, result.output)
        assert "Traceback" not in result.output, args
        assert watcher.execute("PRAGMA data_version").fetchone()[0] == version, f"{args} committed"
        assert fingerprint(path) == before, f"{args} changed the file or its -wal"
    finally:
        watcher.close()
    return result.stdout


def read_only_commands(tmp: Path) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    plain = [
        ("plan",),
        ("plan", "--json"),
        ("plan", "--interview", DAY, "--dry-run"),
        ("plan", "--interview", DAY, "--dry-run", "--json", "--minutes", "20"),
        ("report",),
        ("report", "-f", "json", "-o", "-"),
        ("report", "-f", "csv", "-o", "-"),
        ("report", "-f", "md", "-o", "-"),
        ("report", "-f", "html", "-o", str(tmp / "report.html")),
        ("cards", "buried"),
        ("cards", "suspended"),
        ("cards", "leeches", "--json"),
        ("code", "--list"),
        ("export", "-o", str(tmp / "deck.apkg")),
        ("config",),
    ]
    # a report for a learner the database does not know is refused in one line (exit 2)
    out = [(args, (0, 2) if args[0] == "report" else (0,)) for args in plain]
    out.append((("optimize", "--dry-run"), (0, 2)))  # too little history: refused in one line, no write
    return out


@pytest.mark.parametrize("user", ["alice", "bob"])  # bob: no row yet (a writing open would add one)
def test_read_only_commands_write_nothing(tmp_path, user):
    make_learner()
    for args, codes in read_only_commands(tmp_path):
        assert_reads_only((*args, "--user", user) if args[0] not in ("export", "config") else args, codes)


def test_a_dry_run_forecasts_unsynced_cards_as_new_and_writes_nothing(tmp_path):
    make_learner(skip=7)  # the database lacks 7 of the shipped cards: a writing open would sync them in
    dry = ("plan", "--interview", DAY, "--dry-run", "--json", "--user", "alice")
    read_only = json.loads(assert_reads_only(dry))
    synced = run("plan", "--interview", DAY, "--yes", "--json", "--user", "alice")  # syncs and sets the date
    assert synced.exit_code == 0, synced.output
    written = json.loads(synced.stdout)
    # (recall "if followed" moves with the clock between two runs, even of the same command: not compared)
    assert read_only["new_cards"] == written["new_cards"]
    assert read_only["new_cards"]["remaining"] == len(load_content().cards) - 6  # 7 unsynced among them
    for key in ("section", "cards", "if_no_reviews"):
        assert [s[key] for s in read_only["sections"]] == [s[key] for s in written["sections"]], key
    assert [(d["day"], d["new"]) for d in read_only["days"]] == [
        (d["day"], d["new"]) for d in written["days"]
    ]
    assert read_only["skills"]["never_tried"] == written["skills"]["never_tried"]
    assert [d["new"] for d in read_only["skills"]["days"]] == [d["new"] for d in written["skills"]["days"]]


def test_a_dry_run_without_a_database_creates_none(tmp_path):
    assert not db_file().exists()
    result = run("plan", "--interview", DAY, "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    forecast = json.loads(result.stdout)
    assert forecast["new_cards"]["remaining"] == len(load_content().cards)  # a new learner: every card new
    assert not db_file().exists()
    assert not list(db_file().parent.glob("*")) if db_file().parent.exists() else True
