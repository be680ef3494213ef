"""The queue reads the studied pack, not the user's whole card table: every statement ``next_card``, ``counts``
and ``end_session`` run is planned (SQLite's EXPLAIN QUERY PLAN, on the statements as the driver got them) as
a search of an index by user and pack (or by user and time; today's grades: the day's summary row by
its key, never the review log), never a scan, with a large other pack in the
table and the planner's statistics gathered (ANALYZE); and the other pack changes nothing they return."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from sqlalchemy import event

from drill.store import open_store

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
STAMP = "%Y-%m-%d %H:%M:%S.%f"


def fill_other_pack(path, user_id: int, cards: int = 3000) -> None:
    """``cards`` cards of pack "big", studied: due from 30 days ago to a year ahead, a few learning."""
    conn = sqlite3.connect(path)
    first = conn.execute("SELECT coalesce(max(id), 0) FROM cards").fetchone()[0] + 1
    conn.executemany(
        "INSERT INTO cards (id, pack, content_id, section, position, retired, created_at) "
        "VALUES (?, 'big', ?, '7.1', ?, 0, ?)",
        ((first + i, f"b{i}", i, NOW.strftime(STAMP)) for i in range(cards)),
    )
    conn.executemany(
        "INSERT INTO card_states (user_id, card_id, card_pack, card_position, state, stability, difficulty, "
        "due, last_review, reps, lapses, suspended, leech) VALUES (?, ?, 'big', ?, ?, 5.0, 5.0, ?, ?, 3, 0, 0, 0)",
        (
            (
                user_id,
                first + i,
                i,
                "learning" if i % 50 == 0 else "review",
                (NOW + timedelta(hours=(i * 37) % (395 * 24) - 30 * 24)).strftime(STAMP),
                (NOW - timedelta(days=3)).strftime(STAMP),
            )
            for i in range(cards)
        ),
    )
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()


def captured(store):
    """The (SQL, parameters) every statement of ``store`` sends to sqlite3 while the list is open."""
    seen: list[tuple[str, object]] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        seen.append((statement, parameters))

    event.listen(store.engine, "before_cursor_execute", record)
    return seen


def plans(path, statements) -> list[str]:
    """SQLite's plan of each SELECT and UPDATE, its steps joined by " | "; a statement whose row is several
    scalar subqueries (Store.counts) gives one plan per subquery, each read on its own."""
    conn = sqlite3.connect(path)
    out = []
    for sql, parameters in statements:
        if not sql.lstrip().upper().startswith(("SELECT", "UPDATE")):
            continue
        parts: list[list[str]] = [[]]
        for _id, parent, _unused, detail in conn.execute("EXPLAIN QUERY PLAN " + sql, parameters):
            if parent == 0 and detail.startswith("SCALAR SUBQUERY"):
                parts.append([])
            elif not (parent == 0 and detail == "SCAN CONSTANT ROW"):
                parts[-1].append(detail)
        out.extend(" | ".join(part) for part in parts if part)
    conn.close()
    return out


def test_the_queue_reads_the_studied_pack_only(tmp_path):
    path = tmp_path / "p.sqlite3"
    url = f"sqlite:///{path}"
    small = [("small", f"s{i}", "7.1") for i in range(30)]
    with open_store(url, "ana") as store:
        store.sync_content(small)
        for i in range(8):
            store.grade(f"s{i}", 3, NOW - timedelta(days=2))
        before_next = store.next_card(NOW)
        before_counts = store.counts(NOW)
        user_id = store.user_id
    fill_other_pack(path, user_id)

    with open_store(url, "ana") as store:
        store.sync_content(small)
        seen = captured(store)
        assert store.next_card(NOW) == before_next
        assert store.counts(NOW) == before_counts
        queue_only = list(seen)
        session = store.start_session(NOW)
        store.grade(before_next.card_id, 3, NOW, session_id=session)
        store.next_card(NOW)
        store.counts(NOW)
        store.end_session(session, NOW + timedelta(minutes=1))
    queue_plans = plans(path, seen)
    assert not [sql for sql, _ in queue_only if "review_logs" in sql], (
        "next card / counts read the review log"
    )
    card_state_reads = [plan for plan in queue_plans if "card_states" in plan]
    assert card_state_reads, queue_plans
    for plan in queue_plans:
        assert "SCAN card_states" not in plan and "SCAN review_logs" not in plan, plan
    for plan in card_state_reads:
        if "USING INDEX ix_card_states_pack" in plan or "COVERING INDEX ix_card_states_pack" in plan:
            assert "card_pack=?" in plan, plan
    assert any("ix_card_states_pack_due (user_id=? AND card_pack=?" in plan for plan in card_state_reads)
    # Today's grades (the daily limits' counts) are the day's one summary row, found by its key, not a range
    # of today's review-log rows: next card and counts cost the same whatever the day held.
    day_reads = [plan for plan in queue_plans if "study_day_totals" in plan]
    assert day_reads and all("(user_id=? AND study_day=?)" in plan for plan in day_reads), day_reads
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT reviewed FROM study_sessions WHERE id = ?", (session,)).fetchone() == (1,)
