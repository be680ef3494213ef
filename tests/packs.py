"""A learner with a second pack beside the library's, shared by the tests that check a command reads only the
packs the content loads (tests/srs/test_srs_plan_pack_bounds.py, tests/report/test_report_readiness_packs.py):
the learner's first grades, the other pack (as many cards again, sharing the library's content ids, every one a
review card with a long, slow review log), and every SELECT a command sends, recorded."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner, Result
from sqlalchemy import event
from sqlalchemy.engine import Engine

from drill.cli import cli
from drill.content import Library
from drill.store import open_store

STAMP = "%Y-%m-%d %H:%M:%S.%f"
OTHER_LOGS_PER_CARD = 3


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="drill")


def in_days(n: int) -> str:
    return (date.today() + timedelta(days=n)).isoformat()


def db_file() -> Path:
    return Path(os.environ["DRILL_DATA_DIR"]) / "drill.sqlite3"


def grade_first_cards(library: Library, durations_ms: Sequence[int]) -> int:
    """In the default store, the library synced in and its first ``len(durations_ms)`` cards graded Good three
    days ago, one a duration; returns the learner's user id."""
    store = open_store(None, None)
    store.sync_content(library)
    start = datetime.now(UTC) - timedelta(days=3)
    for duration_ms in durations_ms:
        card = store.next_card(start)
        store.grade(card.card_id, 3, start, duration_ms=duration_ms)
    user_id = store.user_id
    store.close()
    return user_id


def add_other_pack(path: Path, user_id: int, content_ids: list[str]) -> int:
    """Pack "old": the library's content ids and as many more, each studied and graded a few times (10 min
    a grade). Returns how many review-log rows it added."""
    ids = content_ids + [f"old{i}" for i in range(len(content_ids))]
    now = datetime.now(UTC)
    conn = sqlite3.connect(path)
    first = conn.execute("SELECT coalesce(max(id), 0) FROM cards").fetchone()[0] + 1
    conn.executemany(
        "INSERT INTO cards (id, pack, content_id, section, position, retired, created_at) "
        "VALUES (?, 'old', ?, '7.1', ?, 0, ?)",
        ((first + i, cid, i, now.strftime(STAMP)) for i, cid in enumerate(ids)),
    )
    conn.executemany(
        "INSERT INTO card_states (user_id, card_id, card_pack, card_position, state, stability, difficulty, "
        "due, last_review, reps, lapses, suspended, leech) VALUES (?, ?, 'old', ?, 'review', 5.0, 5.0, ?, ?, "
        "3, 0, 0, 0)",
        (
            (user_id, first + i, i, (now + timedelta(days=i % 40)).strftime(STAMP), now.strftime(STAMP))
            for i in range(len(ids))
        ),
    )
    logs = [
        (user_id, first + i, 3, (now - timedelta(days=10 - k)).strftime(STAMP), 600_000, "review", k)
        for i in range(len(ids))
        for k in range(OTHER_LOGS_PER_CARD)
    ]
    conn.executemany(
        "INSERT INTO review_logs (user_id, card_id, rating, reviewed_at, duration_ms, state_before, reps_before, "
        "lapses_before, suspended_before, leech_before, state_after, due_after, scheduled_days, leech_after, "
        "study_day, first_of_day) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 'review', ?, 5.0, 0, 20000, 1)",
        [(*log, log[3]) for log in logs],
    )
    conn.commit()
    conn.execute("ANALYZE")
    # as after a migration that rebuilt the log: its statistics gone (the planner then guesses)
    conn.execute("DELETE FROM sqlite_stat1 WHERE tbl = 'review_logs'")
    conn.commit()
    conn.close()
    return len(logs)


def run_recording_selects(
    args: Sequence[str], keep: Callable[[str], bool] = lambda _text: True
) -> tuple[Result, list[tuple[str, object]]]:
    """`drill ARGS` run (it must exit 0) with every SELECT it sends whose text (whitespace collapsed) ``keep``
    accepts recorded: (the result, [(statement, parameters)])."""
    seen: list[tuple[str, object]] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        text = " ".join(statement.split())
        if text.upper().startswith("SELECT") and keep(text):
            seen.append((statement, parameters))

    event.listen(Engine, "before_cursor_execute", record)
    try:
        result = run(*args)
    finally:
        event.remove(Engine, "before_cursor_execute", record)
    assert result.exit_code == 0, result.output
    return result, seen
