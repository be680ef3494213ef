"""`drill cards`: unsuspend/unbury say so when nothing changes, long ids stay aligned, flags are translated."""

from __future__ import annotations

from datetime import UTC, datetime

from click.testing import CliRunner

from drill.cli import cli


def _store(tmp_path, ids):
    from drill.store import open_store

    url = f"sqlite:///{tmp_path / 'cards.sqlite3'}"
    cards = [("p", i, "7.1") for i in ids]
    with open_store(url, "alice") as store:
        store.sync_content(cards)
    return url


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_unsuspend_on_a_card_not_suspended_says_nothing_changed(tmp_path):
    from drill.store import open_store

    url = _store(tmp_path, ["q01", "q02"])
    with open_store(url, "alice") as store:
        store.suspend("q02")
    done = run("cards", "unsuspend", "q01", "q02", "--db", url, "--user", "alice")
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines() == ["q01: not suspended (nothing changed)", "q02: unsuspended"]
    unknown = run("cards", "unsuspend", "nope", "--db", url, "--user", "alice")
    assert unknown.exit_code != 0 and "Traceback" not in unknown.output


def test_buried_lists_long_ids_aligned_and_zh_flags(tmp_path):
    from drill.store import open_store

    long_id = "s7.20-ln-position-and-a-very-long-tail"
    url = _store(tmp_path, ["q01", long_id])
    with open_store(url, "alice") as store:
        now = datetime.now(UTC)
        store.bury("q01", now)
        store.bury(long_id, now)
    listed = run("cards", "buried", "--db", url, "--user", "alice")
    assert listed.exit_code == 0, listed.output
    lines = listed.stdout.splitlines()
    assert len(lines) == 2 and len({line.index(" p ") for line in lines}) == 1, lines
    zh = run("--lang", "zh", "cards", "buried", "--db", url, "--user", "alice")
    assert zh.exit_code == 0 and "buried" not in zh.stdout, zh.stdout
