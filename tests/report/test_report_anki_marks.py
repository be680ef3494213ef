"""A learner's flags and marks in `drill export --anki`, read back by Anki itself (the `anki` package): after
import, Anki's own searches `flag:N` and `tag:marked` find exactly the cards that learner flagged and marked in
drill (per --user), and an export with no progress database carries none.

Anki treats flags and the ``marked`` tag as learning progress: it keeps them only when the import's "Import any
learning progress" box (``with_scheduling``) is ticked, and strips both otherwise (checked below too). The cards
still arrive new either way: drill's schedule is not exported."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.store import open_store

pytestmark = pytest.mark.anki
pytest.importorskip("anki.collection", reason="the test extra installs anki")


@pytest.fixture(scope="module")
def shipped():
    from drill.content import load_content

    return load_content(cache=False)


@pytest.fixture(scope="module")
def marked_db(shipped, tmp_path_factory):
    """Two learners who flagged and marked different cards (a marked card may be flagged too)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('marks') / 'drill.sqlite3'}"
    ids = sorted(shipped.cards)
    plans = {
        "alice": ({ids[0]: 1, ids[1]: 1, ids[5]: 3, ids[9]: 7}, {ids[1], ids[20]}),
        "bob": ({ids[2]: 1, ids[30]: 2}, {ids[0], ids[40], ids[41]}),
    }
    for user, (flags, marks) in plans.items():
        with open_store(url, user) as store:
            store.sync_content(shipped)
            for card_id, flag in flags.items():
                store.set_flag(card_id, flag)
            for card_id in marks:
                assert store.toggle_mark(card_id)
    return url, plans


def _import(package, collection_path, with_scheduling=True):
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

    col = Collection(str(collection_path))
    try:
        col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=str(package),
                options=ImportAnkiPackageOptions(with_scheduling=with_scheduling, with_deck_configs=False),
            )
        )

        def found(query: str) -> set[str]:
            return {col.get_card(cid).note()["CardId"] for cid in col.find_cards(query)}

        assert len(col.find_cards("is:new")) == col.card_count()  # no schedule came along
        return {f: found(f"flag:{f}") for f in range(8)}, found("tag:marked"), col.card_count()
    finally:
        col.close()


def _export(tmp_path, *args: str):
    package = tmp_path / "drill.apkg"
    result = CliRunner().invoke(cli, ["export", "--anki", str(package), "--no-quizzes", *args])
    assert result.exit_code == 0, result.output
    _export.output = result.output
    return package


@pytest.mark.parametrize("user", ["alice", "bob"])
def test_anki_finds_exactly_the_learners_flags_and_marks(tmp_path, marked_db, shipped, user):
    url, plans = marked_db
    flags, marks = plans[user]
    flagged, marked, count = _import(_export(tmp_path, "--db", url, "--user", user), tmp_path / "c.anki2")
    assert count == len(shipped.cards)
    for colour in range(1, 8):
        assert flagged[colour] == {c for c, f in flags.items() if f == colour}, (user, colour)
    assert flagged[0] == set(shipped.cards) - set(flags)
    assert marked == marks
    assert f"{len(set(flags) | marks)} cards flagged or marked" in _export.output  # and how to keep them
    assert "Import any learning progress" in _export.output


def test_anki_drops_them_when_progress_is_not_imported(tmp_path, marked_db, shipped):
    url, _ = marked_db
    flagged, marked, count = _import(
        _export(tmp_path, "--db", url, "--user", "alice"), tmp_path / "c.anki2", with_scheduling=False
    )
    assert count == len(shipped.cards) and flagged[0] == set(shipped.cards) and not marked


def test_without_a_database_nothing_is_flagged_or_marked(tmp_path, monkeypatch, shipped):
    monkeypatch.delenv("DRILL_DB_URL", raising=False)
    monkeypatch.setenv("DRILL_DATA_DIR", str(tmp_path / "no-data-yet"))
    flagged, marked, count = _import(_export(tmp_path), tmp_path / "c.anki2")
    assert count == len(shipped.cards)
    assert flagged[0] == set(shipped.cards) and not marked
    assert not (tmp_path / "no-data-yet").exists()  # exporting created no database


def test_a_missing_explicit_database_is_a_one_line_error(tmp_path):
    missing = tmp_path / "nope.sqlite3"
    result = CliRunner().invoke(
        cli, ["export", "--anki", str(tmp_path / "x.apkg"), "--db", f"sqlite:///{missing}"]
    )
    assert result.exit_code != 0
    assert "no progress database" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x.apkg").exists()
