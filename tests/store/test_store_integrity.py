"""A damaged, read-only or missing database gives a clear message; backups restore it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.errors import StoreError
from drill.store import open_store
from drill.store.backup import list_backups, make_backup
from tests.store.store_support import CARDS

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _make_db(path: Path, grades: int = 5) -> None:
    store = open_store(f"sqlite:///{path}", "alice")
    store.sync_content(CARDS)
    for i in range(grades):
        store.grade(CARDS[i][1], 3, NOW)
    store.close()


def _review_count(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM review_logs").fetchone()[0]
    finally:
        conn.close()


def test_default_database_is_created_in_the_data_dir_for_the_login_user(monkeypatch, tmp_path):
    monkeypatch.setenv("DRILL_DATA_DIR", str(tmp_path / "fresh" / "data"))
    store = open_store()
    try:
        assert Path(store.where) == tmp_path / "fresh" / "data" / "drill.sqlite3"
        assert store.user and not store.readonly
    finally:
        store.close()
    conn = sqlite3.connect(tmp_path / "fresh" / "data" / "drill.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()


def test_db_url_environment_variable_is_used(monkeypatch, tmp_path):
    monkeypatch.setenv("DRILL_DB_URL", f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}")
    open_store(user="bob").close()
    assert (tmp_path / "elsewhere.sqlite3").exists()


def test_corrupt_header_is_detected_with_a_clear_message(tmp_path):
    path = tmp_path / "drill.sqlite3"
    _make_db(path)
    with open(path, "r+b") as handle:
        handle.write(b"this is not sqlite at all")
    with pytest.raises(StoreError) as caught:
        open_store(f"sqlite:///{path}", "alice")
    message = str(caught.value)
    assert "corrupt" in message and "drill restore" in message and str(path) in message


def test_corrupt_pages_fail_the_quick_check(tmp_path):
    path = tmp_path / "drill.sqlite3"
    _make_db(path, grades=20)
    page_size = 4096
    pages = path.stat().st_size // page_size
    assert pages > 3
    with open(path, "r+b") as handle:  # scribble over every page after the schema page
        for page in range(2, pages):
            handle.seek(page * page_size + 8)
            handle.write(b"\xff" * 200)
    with pytest.raises(StoreError, match="corrupt.*drill restore"):
        open_store(f"sqlite:///{path}", "alice")


def _scribble(path: Path) -> None:
    """Damage every page after the schema page, as test_corrupt_pages_fail_the_quick_check does."""
    page_size = 4096
    with open(path, "r+b") as handle:
        for page in range(2, path.stat().st_size // page_size):
            handle.seek(page * page_size + 8)
            handle.write(b"\xff" * 200)


def test_a_report_on_damaged_pages_is_one_clear_line(tmp_path):
    # A read-only open (a report) skips the whole-file check; the damage its queries meet is still named.
    path = tmp_path / "drill.sqlite3"
    _make_db(path, grades=20)
    _scribble(path)
    out = subprocess.run(
        [sys.executable, "-m", "drill", "report", "--user", "alice"],
        capture_output=True,
        text=True,
        env=_env(path),
    )
    assert out.returncode == 2, out.stderr
    assert (
        out.stderr.startswith("drill: error: ") and "corrupt" in out.stderr and "drill restore" in out.stderr
    )
    assert "Traceback" not in out.stderr and str(path) in out.stderr


def test_a_read_only_open_of_a_file_that_is_no_database_is_named(tmp_path):
    path = tmp_path / "drill.sqlite3"
    _make_db(path)
    with open(path, "r+b") as handle:
        handle.write(b"this is not sqlite at all")
    with pytest.raises(StoreError, match="corrupt.*drill restore"):
        open_store(f"sqlite:///{path}", "alice", readonly=True)


def test_read_only_database_reads_but_refuses_grades_clearly(tmp_path):
    path = tmp_path / "drill.sqlite3"
    _make_db(path)
    store = open_store(f"sqlite:///file:{path}?mode=ro&uri=true", "alice")
    try:
        assert store.readonly
        store.sync_content(CARDS)  # nothing written, still studies the known cards
        assert store.next_card(NOW) is not None
        assert store.counts(NOW).done_today == 5
        with pytest.raises(StoreError, match="read-only"):
            store.grade("c10", 3, NOW)
        with pytest.raises(StoreError, match="read-only"):
            store.undo_last()
    finally:
        store.close()
    assert _review_count(path) == 5


def test_readonly_flag_on_a_writable_database(tmp_path):
    path = tmp_path / "drill.sqlite3"
    _make_db(path)
    store = open_store(f"sqlite:///{path}", "alice", readonly=True)
    try:
        assert store.readonly
        with pytest.raises(StoreError, match="read-only"):
            store.suspend("c00")
    finally:
        store.close()


def test_unknown_user_on_a_read_only_database_sees_nothing(tmp_path):
    path = tmp_path / "drill.sqlite3"
    _make_db(path)
    store = open_store(f"sqlite:///{path}", "nobody", readonly=True)
    try:
        store.sync_content(CARDS)
        assert store.review_logs() == [] and store.counts(NOW).done_today == 0
    finally:
        store.close()


def test_backups_keep_the_last_n(tmp_path):
    path = tmp_path / "drill.sqlite3"
    _make_db(path)
    made = [make_backup(path, keep=3, folder=tmp_path / "b") for _ in range(5)]
    assert list_backups(path, tmp_path / "b") == made[-3:]
    assert _review_count(made[-1]) == 5


def test_backup_of_a_live_database_includes_commits_still_in_the_wal(tmp_path):
    path = tmp_path / "drill.sqlite3"
    store = open_store(f"sqlite:///{path}", "alice")
    try:
        store.sync_content(CARDS)
        store.grade("c00", 3, NOW)  # committed to the -wal file, store still open
        assert Path(f"{path}-wal").stat().st_size > 0
        copy = make_backup(path, folder=tmp_path / "b")
    finally:
        store.close()
    assert _review_count(copy) == 1


def test_backup_and_restore_commands_bring_a_corrupt_database_back(tmp_path, monkeypatch):
    path = tmp_path / "drill.sqlite3"
    monkeypatch.setenv("DRILL_DB_URL", f"sqlite:///{path}")
    _make_db(path)
    runner = CliRunner()
    result = runner.invoke(cli, ["backup"])
    assert result.exit_code == 0, result.output
    with open(path, "r+b") as handle:
        handle.write(b"garbage garbage garbage!")
    # The user meets the corruption through a subprocess like any drill command: one line, exit 2.
    out = subprocess.run(
        [sys.executable, "-m", "drill", "backup"], capture_output=True, text=True, env=_env(path)
    )
    assert out.returncode == 2
    assert (
        out.stderr.startswith("drill: error: ") and "corrupt" in out.stderr and "Traceback" not in out.stderr
    )

    result = runner.invoke(cli, ["restore"])
    assert result.exit_code == 0, result.output
    assert "restored" in result.output and "kept as" in result.output
    store = open_store(f"sqlite:///{path}", "alice")
    try:
        assert len(store.review_logs()) == 5
    finally:
        store.close()
    assert any(p.name.startswith("drill.sqlite3.replaced-") for p in tmp_path.iterdir())


def test_restore_without_backups_and_on_a_server_database_say_so(tmp_path, monkeypatch):
    monkeypatch.setenv("DRILL_DB_URL", f"sqlite:///{tmp_path / 'none.sqlite3'}")
    result = CliRunner().invoke(cli, ["restore"])
    assert result.exit_code == 2 and "no backup" in result.output
    result = CliRunner().invoke(cli, ["backup", "--db", "postgresql+psycopg://u@localhost/db"])
    assert result.exit_code == 2 and "pg_dump" in result.output


def test_restore_refuses_a_file_that_is_not_a_drill_database(tmp_path, monkeypatch):
    monkeypatch.setenv("DRILL_DB_URL", f"sqlite:///{tmp_path / 'drill.sqlite3'}")
    bogus = tmp_path / "bogus.sqlite3"
    sqlite3.connect(bogus).execute("CREATE TABLE t (x)").connection.close()
    result = CliRunner().invoke(cli, ["restore", str(bogus)])
    assert result.exit_code == 2 and "not a drill progress database" in result.output


def _env(path: Path) -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["DRILL_DB_URL"] = f"sqlite:///{path}"
    return env


def test_sync_with_the_shipped_library(tmp_path):
    from drill.content import load_content

    library = load_content()
    store = open_store(f"sqlite:///{tmp_path / 'drill.sqlite3'}", "alice")
    try:
        added = store.sync_content(library)["added"]
        assert added == len(library.cards)
        from drill.srs.mix import new_card_places

        places = new_card_places(
            [(c.pack, c.id, c.section) for c in library.cards.values()],
            {c.id: c.kind for c in library.cards.values()},
            store.config,
        )
        first = library.cards[
            min(places, key=lambda key: (key[0], places[key]))[1]
        ]  # the new-card order's first
        card = store.next_card(NOW)
        assert (card.card_id, card.pack, card.section) == (first.id, first.pack, first.section)
        assert store.sync_content(library) == {"added": 0, "retired": 0, "restored": 0, "updated": 0}
        assert {row.card_id for row in store.browse()} == set(library.cards)
    finally:
        store.close()


@pytest.mark.parametrize("url", ["notaurl", "sqlite//missing-colon", "://"])
@pytest.mark.parametrize("command", [["backup"], ["restore"], ["restore", "--list"]])
def test_a_db_value_that_is_no_url_is_one_clear_line(url, command):
    result = CliRunner().invoke(cli, [*command, "--db", url])
    assert result.exit_code == 2, result.output
    assert "is not a database URL" in result.output and repr(url) in result.output
    with pytest.raises(StoreError, match="is not a database URL"):
        open_store(url, "alice")


def test_an_unknown_kind_of_database_is_named():
    with pytest.raises(StoreError, match=r"unknown kind of database 'foo'"):
        open_store("foo://bar/baz", "alice")


@pytest.mark.parametrize("folder", ["we#ird", "a?b", "pct%20x", "sp ace"])
def test_backup_and_restore_in_a_folder_with_url_characters(tmp_path, monkeypatch, folder):
    """'#', '?', '%' in the data folder: the default URL and the backup's read-only URI must quote them
    (unquoted, '?' moved the database and '#' made the backup copy an empty database)."""
    data = tmp_path / folder
    monkeypatch.setenv("DRILL_DATA_DIR", str(data))
    monkeypatch.delenv("DRILL_DB_URL", raising=False)
    store = open_store(None, "alice")
    store.sync_content(CARDS)
    store.grade(CARDS[0][1], 3, NOW)
    store.close()
    assert (data / "drill.sqlite3").is_file()
    result = CliRunner().invoke(cli, ["backup"])
    assert result.exit_code == 0, result.output
    backups = list_backups(data / "drill.sqlite3")
    assert len(backups) == 1 and _review_count(backups[0]) == 1
    result = CliRunner().invoke(cli, ["restore"])
    assert result.exit_code == 0, result.output
    assert _review_count(data / "drill.sqlite3") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder]  # nothing created beside the folder


def test_a_failed_restore_puts_the_current_database_back(tmp_path):
    from drill.store.backup import restore

    path = tmp_path / "drill.sqlite3"
    _make_db(path, grades=3)
    backup = make_backup(path, folder=tmp_path / "backups")
    _make_db(path, grades=2)  # two more grades after the backup (5 in all)
    (tmp_path / "drill.sqlite3.restoring").mkdir()  # the copy's target cannot be created
    with pytest.raises(StoreError, match="the current database is unchanged"):
        restore(path, backup)
    assert _review_count(path) == 5
    assert not any(".replaced-" in p.name for p in tmp_path.iterdir())


def test_a_data_folder_that_is_a_file_is_one_clear_line(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("DRILL_DATA_DIR", str(blocker))
    monkeypatch.delenv("DRILL_DB_URL", raising=False)
    with pytest.raises(StoreError, match="cannot create the data folder"):
        open_store(None, "alice")
    for command in (["backup"], ["restore", "--list"]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 2 and "cannot create the data folder" in result.output, result.output


def test_a_backup_folder_that_cannot_be_made_is_one_clear_line(tmp_path):
    path = tmp_path / "drill.sqlite3"
    _make_db(path, grades=1)
    blocker = tmp_path / "blocked"
    blocker.write_text("")
    with pytest.raises(StoreError, match="cannot create the backup folder"):
        make_backup(path, folder=blocker / "backups")


def test_another_programs_sqlite_database_is_left_alone(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    with pytest.raises(
        StoreError, match=r"is not a drill progress database \(it holds other tables: invoices\)"
    ):
        open_store(f"sqlite:///{path}", "alice")
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    finally:
        conn.close()
    assert tables == ["invoices"]  # no drill table was added


def test_restoring_the_database_onto_itself_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "drill.sqlite3"
    monkeypatch.setenv("DRILL_DB_URL", f"sqlite:///{path}")
    _make_db(path, grades=2)
    result = CliRunner().invoke(cli, ["restore", str(path)])
    assert result.exit_code == 2 and "is the progress database itself" in result.output, result.output
    assert _review_count(path) == 2 and not any(".replaced-" in p.name for p in tmp_path.iterdir())
