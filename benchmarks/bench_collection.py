"""The store benchmark's synthetic collection (benchmarks/store_bench.py): N cards and M review logs in a SQLite
file made by drill's own schema (Alembic, through the Store), the bulk rows written by raw sqlite3 in one
transaction, the summaries the store keeps at grade time rebuilt by the store's own function, and the generated
study days checked against it.
"""

from __future__ import annotations

import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
SECTIONS = 25
STAMP = "%Y-%m-%d %H:%M:%S"
BENCH_TZ = UTC  # the benchmarks' study days: UTC, drill's default day start (04:00)
DAY_STARTS_AT = 4


def build(path: Path, cards: int, reviews: int) -> float:
    """Schema through the Store (Alembic), bulk rows through raw sqlite3 in one transaction."""
    from drill.store import open_store

    started = time.perf_counter()
    store = open_store(f"sqlite:///{path}", "bench")
    store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    user_id = conn.execute("SELECT id FROM users WHERE name = 'bench'").fetchone()[0]
    ts = lambda moment: moment.strftime(STAMP) + ".000000"  # noqa: E731 (SQLAlchemy's SQLite format)
    created = ts(NOW - timedelta(days=800))
    conn.executemany(
        "INSERT INTO cards (id, pack, content_id, section, position, retired, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)",
        ((i + 1, "bench", f"card{i:06d}", f"7.{i % SECTIONS + 1}", i, created) for i in range(cards)),
    )
    studied = cards * 95 // 100  # the last 5% are new
    span = 365 * 86400
    conn.executemany(
        "INSERT INTO card_states (user_id, card_id, card_pack, card_position, state, step, stability, difficulty, "
        "due, last_review, reps, lapses, suspended, buried_until, leech) "
        "VALUES (?, ?, 'bench', ?, 'review', NULL, ?, ?, ?, ?, ?, ?, ?, NULL, 0)",
        (
            (
                user_id,
                i + 1,
                i,
                1.0 + i % 300,
                1.0 + i % 10,
                ts(
                    NOW + timedelta(seconds=(i * 7919) % span - 30 * 86400)
                ),  # due: 30 days ago .. 11 months ahead
                ts(NOW - timedelta(days=1 + i % 60)),
                20,
                i % 5,
                int(i % 97 == 0),
            )
            for i in range(studied)
        ),
    )
    # Index the 2M rows once at the end rather than row by row.
    indexes = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'review_logs' AND sql IS NOT NULL"
    ).fetchall()
    for name, _sql in indexes:
        conn.execute(f"DROP INDEX {name}")
    # 2M reviews over two years, generated inside SQLite (a recursive CTE) rather than row by row in Python.
    # Each card is reviewed every `studied` rows; a row's previous review is the card's row `studied` earlier.
    start = NOW - timedelta(days=730)
    step = (730 * 86400) / reviews
    # Study days (recorded per row, as Store.grade does): drill's own day bounds in the benchmark's zone, and
    # for each day the first row n on it (numpy, vectorised), as a small lookup table.
    conn.execute("CREATE TEMP TABLE bench_days (lo INTEGER PRIMARY KEY, day INTEGER NOT NULL)")
    conn.executemany("INSERT INTO bench_days VALUES (?, ?)", day_table(start, step, reviews))
    day_of = "(SELECT day FROM bench_days WHERE lo <= {n} ORDER BY lo DESC LIMIT 1)"
    conn.execute(
        f"""
        WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n + 1 < :reviews),
        rows(n, day, previous_day) AS (
            SELECT n, {day_of.format(n="n")},
                   CASE WHEN n >= :studied THEN {day_of.format(n="n - :studied")} END FROM seq)
        INSERT INTO review_logs (user_id, card_id, rating, reviewed_at, duration_ms, state_before, reps_before,
            lapses_before, suspended_before, leech_before, state_after, stability_after, difficulty_after,
            due_after, scheduled_days, elapsed_days, leech_after, last_review_before, study_day, first_of_day)
        SELECT :user, 1 + n % :studied, 1 + (n * 7) % 4 % 3 + (n % 11 = 0),
               strftime('%Y-%m-%d %H:%M:%S', :start, '+' || CAST(n * :step AS INTEGER) || ' seconds') || '.000000',
               1000 + n % 9000, CASE WHEN n < :studied THEN 'new' ELSE 'review' END, n / :studied, 0, 0, 0,
               'review', 10.0, 5.0,
               strftime('%Y-%m-%d %H:%M:%S', :start, '+' || CAST(n * :step + 864000 AS INTEGER) || ' seconds')
                   || '.000000',
               10.0, CASE WHEN n >= :studied THEN :studied * :step / 86400.0 END, 0,
               CASE WHEN n >= :studied THEN strftime('%Y-%m-%d %H:%M:%S', :start,
                   '+' || CAST((n - :studied) * :step AS INTEGER) || ' seconds') || '.000000' END,
               day, previous_day IS NULL OR previous_day < day
        FROM rows
        """,
        {
            "reviews": reviews,
            "user": user_id,
            "studied": studied,
            "start": start.strftime(STAMP),
            "step": step,
        },
    )
    conn.execute("DROP TABLE bench_days")
    for _name, sql in indexes:
        conn.execute(sql)
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    summarise(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("ANALYZE")
    conn.close()
    check_days(path)
    return time.perf_counter() - started


def summarise(path: Path) -> None:
    """The summaries Store.grade keeps as it goes (reviews per study day, retention counters per card),
    computed from the bulk-loaded log by the store's own function."""
    from sqlalchemy import create_engine

    from drill.store.review_days import rebuild_summaries

    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        rebuild_summaries(conn)
    engine.dispose()


def day_table(start: datetime, step: float, reviews: int) -> list[tuple[int, int]]:
    """[(first row n on the study day, day number)] for rows reviewed at start + int(n * step) seconds."""
    import numpy as np

    from drill.srs.days import day_start
    from drill.store.review_days import EPOCH_DAY, day_number

    first_day = day_number(start, DAY_STARTS_AT, BENCH_TZ)
    last_day = day_number(start + timedelta(seconds=reviews * step), DAY_STARTS_AT, BENCH_TZ)
    numbers = np.arange(first_day, last_day + 2)
    bounds = np.array(
        [
            (day_start(EPOCH_DAY + timedelta(days=int(d)), DAY_STARTS_AT, BENCH_TZ) - start).total_seconds()
            for d in numbers
        ]
    )
    offsets = np.floor(np.arange(reviews, dtype=np.float64) * step)  # as SQLite's CAST(n * step AS INTEGER)
    days = numbers[np.searchsorted(bounds, offsets, side="right") - 1]
    firsts = np.flatnonzero(np.r_[True, days[1:] != days[:-1]])
    return list(zip(firsts.tolist(), days[firsts].tolist(), strict=True))


def check_days(path: Path, sample: int = 2000) -> None:
    """The generated study days and first-of-day flags agree with the store's own function on a sample."""
    from sqlalchemy import create_engine, text

    from drill.store.models import UTCDateTime
    from drill.store.review_days import review_day_fields

    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT reviewed_at, last_review_before, study_day, first_of_day FROM review_logs "
                "WHERE id % (SELECT max(1, count(*) / :k) FROM review_logs) = 0"
            ).columns(reviewed_at=UTCDateTime(), last_review_before=UTCDateTime()),
            {"k": sample},
        ).all()
    engine.dispose()
    for at, previous, day, first in rows:
        assert (day, bool(first)) == review_day_fields(at, previous, DAY_STARTS_AT, BENCH_TZ), (
            at,
            previous,
            day,
        )


def truncate_wal(path: Path) -> None:
    conn = sqlite3.connect(path)
    busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    conn.close()
    assert busy == 0, "a reader held the WAL open"


def copy_db(source: Path, dest: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{dest}{suffix}").unlink(missing_ok=True)
    conn, target = sqlite3.connect(source), sqlite3.connect(dest)
    conn.backup(target)
    conn.close(), target.close()
    return dest
