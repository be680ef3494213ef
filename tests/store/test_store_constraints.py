"""Issue 28, "Standard tools": the database refuses what drill never writes (migration 0012).

CHECK constraints (drill.store.checks), ``interview_answers.review_log_id`` referencing ``review_logs``,
``jsonb`` on PostgreSQL, and the flag/mark columns: up and down on SQLite and PostgreSQL with data kept; a
database holding a row that breaks a constraint is refused in one line naming the row, and left unchanged.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from drill.errors import StoreError
from drill.store import migrate, open_store
from drill.store.checks import CHECKS, checks_of
from drill.store.engine import make_engine
from tests.store.test_store_migrations import REVIEWS, T0, _fill_revision_1, _reviews

CHECKED = sorted({c.table for c in CHECKS})
JSON_COLUMNS = {
    ("users", "fsrs_parameters"),
    ("quiz_attempts", "settings"),
    ("code_attempts", "mistakes"),
    ("code_attempts", "results"),
    ("interview_sessions", "settings"),
    ("interview_answers", "points_covered"),
    ("interview_answers", "points_missed"),
    ("interview_answers", "traps_hit"),
}


def _database_at_0011(url: str) -> list[tuple]:
    """Revision 1's data upgraded to 0011, plus an interview whose first answer's grade exists and whose second
    names a log row an undo deleted. Returns the reviews."""
    migrate.upgrade(url, "0001")
    reviews = _fill_revision_1(url)
    migrate.upgrade(url, "0011")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO interview_sessions (id, user_id, started_at, settings) VALUES (1, 1, :t, '{}')"
                ),
                {"t": T0.replace(tzinfo=None)},
            )
            for answer_id, log_id in ((1, 5), (2, 9999)):
                conn.execute(
                    text(
                        "INSERT INTO interview_answers (id, session_id, position, card_id, section, follow_up, "
                        "mode, answer, duration_ms, budget_ms, timed_out, points_total, points_covered, "
                        "points_missed, traps_hit, coverage, proposed, rating, review_log_id, answered_at) "
                        "VALUES (:id, 1, :id, 'c00', '7.1', :f, 'typed', 'x', 1000, 60000, :f, 2, '[0]', "
                        "'[\"p\"]', '[]', 0.5, 3, 3, :log, :t)"
                    ),
                    {"id": answer_id, "log": log_id, "f": False, "t": T0.replace(tzinfo=None)},
                )
    finally:
        engine.dispose()
    return reviews


def _check_names(url: str) -> dict[str, set[str]]:
    engine = create_engine(url)
    try:
        found = inspect(engine)
        return {t: {c["name"] for c in found.get_check_constraints(t)} for t in CHECKED}
    finally:
        engine.dispose()


def _log_fks(url: str) -> list[dict]:
    engine = create_engine(url)
    try:
        fks = inspect(engine).get_foreign_keys("interview_answers")
    finally:
        engine.dispose()
    return [fk for fk in fks if fk["referred_table"] == "review_logs"]


def _json_types(conn) -> set[str]:
    return {
        row[0]
        for table, column in JSON_COLUMNS
        for row in conn.execute(
            text(
                "SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = :t AND column_name = :c"
            ),
            {"t": table, "c": column},
        )
    }


BAD_WRITES = [
    ("UPDATE review_logs SET rating = 9 WHERE id = 3", "ck_review_logs_rating"),
    ("UPDATE review_logs SET state_after = 'bogus' WHERE id = 3", "ck_review_logs_state_after"),
    ("UPDATE card_states SET state = 'bogus' WHERE user_id = 1 AND card_id = 2", "ck_card_states_state"),
    ("UPDATE card_states SET reps = -5 WHERE user_id = 1 AND card_id = 2", "ck_card_states_reps"),
    ("UPDATE card_states SET flag = 8 WHERE user_id = 1 AND card_id = 2", "ck_card_states_flag"),
    ("UPDATE interview_answers SET rating = 0 WHERE id = 1", "ck_interview_answers_rating"),
    ("UPDATE interview_answers SET review_log_id = 9999 WHERE id = 1", "FOREIGN KEY"),
]


def test_the_constraint_migration_up_and_down(db_url, db_backend):
    before = _database_at_0011(db_url)
    assert _check_names(db_url) == {t: set() for t in CHECKED} and _log_fks(db_url) == []

    migrate.upgrade(db_url)
    engine = make_engine(db_url)  # drill's engine: foreign keys on, as every drill connection has them
    try:
        assert _reviews(engine) == before and len(before) == REVIEWS
        with engine.connect() as conn:
            answers = conn.execute(text("SELECT id, review_log_id FROM interview_answers ORDER BY id")).all()
            assert [tuple(a) for a in answers] == [(1, 5), (2, None)]  # the undone grade's id is cleared
            assert (
                conn.execute(text("SELECT count(*) FROM card_states WHERE flag = 0 AND NOT marked")).scalar()
                == 10
            )
            if db_backend == "postgresql":
                assert _json_types(conn) == {"jsonb"}
        assert _check_names(db_url) == {t: {c.constraint_name for c in checks_of(t)} for t in CHECKED}
        [fk] = _log_fks(db_url)
        assert fk["constrained_columns"] == ["review_log_id"] and fk["options"].get("ondelete") == "SET NULL"
        for statement, named in BAD_WRITES:
            with pytest.raises(IntegrityError) as refused, engine.begin() as conn:
                conn.execute(text(statement))
            assert named.lower() in str(refused.value).lower(), (statement, refused.value)
        with engine.begin() as conn:  # undoing an interview grade deletes its log row: the answer keeps NULL
            conn.execute(text("DELETE FROM review_logs WHERE id = 5"))
            assert (
                conn.execute(text("SELECT review_log_id FROM interview_answers WHERE id = 1")).scalar()
                is None
            )
    finally:
        engine.dispose()

    migrate.downgrade(db_url, "0011")
    assert _check_names(db_url) == {t: set() for t in CHECKED} and _log_fks(db_url) == []
    engine = create_engine(db_url)
    try:
        assert len(_reviews(engine)) == REVIEWS - 1
        with engine.begin() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("card_states")}
            assert not {"flag", "marked"} & columns
            if db_backend == "postgresql":
                assert _json_types(conn) == {"json"}
            conn.execute(text("UPDATE review_logs SET rating = 9 WHERE id = 17"))  # the old schema takes it
    finally:
        engine.dispose()

    with pytest.raises(StoreError) as refused:  # and the upgrade refuses it, naming the row
        open_store(db_url, "alice").close()
    message = str(refused.value)
    assert "\n" not in message
    assert "review_logs row id 17: rating is 9" in message and "nothing was changed" in message
    assert (migrate.HEAD_REVISION != "0011") and _check_names(db_url) == {t: set() for t in CHECKED}
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0011"
            assert conn.execute(text("SELECT rating FROM review_logs WHERE id = 17")).scalar() == 9
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def template_0011(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("constraints") / "template.sqlite3"
    _database_at_0011(f"sqlite:///{path}")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    return path


def _dump(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("command", "statement", "named"),
    [
        ("report", "UPDATE review_logs SET rating = 9 WHERE id = 17", "review_logs row id 17: rating is 9"),
        (
            "study",
            "UPDATE card_states SET state = 'bo' || char(27) || '[31mgus' WHERE user_id = 2 AND card_id = 3",
            "card_states row user_id 2, card_id 3: state is 'bo\\x1b[31mgus'",
        ),
        (
            "report",
            "UPDATE card_states SET reps = -5 WHERE user_id = 1 AND card_id = 4",
            "card_states row user_id 1, card_id 4: reps is -5",
        ),
    ],
)
def test_a_database_with_a_row_the_constraints_refuse_is_refused_in_one_line(
    tmp_path, template_0011, command, statement, named
):
    path = tmp_path / "drill.sqlite3"
    path.write_bytes(template_0011.read_bytes())
    conn = sqlite3.connect(path)
    conn.execute(statement)
    conn.commit()
    conn.close()
    before = _dump(path)
    out = subprocess.run(
        [sys.executable, "-m", "drill", "--lang", "en", command, "--user", "alice"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DRILL_DB_URL": f"sqlite:///{path}", "COLUMNS": "100"},
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr and "\x1b[31mgus" not in out.stderr + out.stdout
    # `drill study` drew its loading screen first: the message is what follows the screen's last sequence
    after_screen = re.split(r"\x1b\[[0-9;?<>=$]*[A-Za-z~]", out.stderr)[-1]
    assert "\x1b" not in after_screen
    lines = after_screen.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[
        0
    ].startswith(
        f"drill: error: {path}: the schema upgrade to {CHECKS[0].since} was refused"  # the revision adding them
    )
    assert named in lines[0], lines[0]
    assert _dump(path) == before  # nothing was changed (the revision too: it is in the dump)


def test_every_check_names_its_own_column_once():
    names = [c.constraint_name for c in CHECKS]
    assert len(names) == len(set(names))
    for check in CHECKS:
        assert check.column in check.condition and check.table in {
            "card_states",
            "review_logs",
            "interview_answers",
        }


def test_flag_and_mark_are_kept_shown_filtered_and_undone(db_url):
    """Anki's flag (0-7) and mark on a card: set, kept through a grade and a reset, listed by the browser's
    filters, each undone by undo (newest first), and a flag out of range refused."""
    store = open_store(db_url, "alice")
    try:
        store.sync_content([("pack-a", f"c{i}", "7.1") for i in range(4)])
        now = datetime(2026, 3, 1, 9, tzinfo=UTC)
        store.set_flag("c1", 7)  # a new card without a state row
        assert store.toggle_mark("c1") is True
        store.grade("c1", 3, now)
        store.reset("c1")
        info = store.card_info("c1", now)
        assert (info.flag, info.marked, info.reps) == (7, True, 0)
        store.set_flag("c2", 2)
        assert [r.card_id for r in store.browse(flag=7, now=now)] == ["c1"]
        assert [r.card_id for r in store.browse(flag=0, now=now)] == ["c0", "c3"]
        assert [r.card_id for r in store.browse(state="marked", now=now)] == ["c1"]
        assert {r.card_id: (r.flag, r.marked) for r in store.browse(now=now)}["c2"] == (2, False)
        with pytest.raises(StoreError, match="flag 8"):
            store.set_flag("c0", 8)
        assert store.undo_last().action == "flag" and store.card_info("c2", now).flag == 0
        assert store.undo_last().action == "reset"
        assert store.undo_last().action == "grade"
        assert store.undo_last().action == "mark" and store.card_info("c1", now).marked is False
        assert store.toggle_mark("c1") is True and store.toggle_mark("c1") is False
    finally:
        store.close()
