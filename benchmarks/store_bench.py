"""Store benchmark: a synthetic collection of 100k cards and 2M review logs in SQLite.

Times, in one process:
  - the next-due query through the Store (SQLAlchemy) and the same SQL through raw sqlite3 (the baseline);
  - Store.next_card() as the study screen calls it (limits included);
  - one grade (its own BEGIN IMMEDIATE transaction, commit with synchronous=FULL), median of 200;
  - report-style aggregates over all reviews (reviews per day, retention per section) from the summaries the
    store keeps at grade time, and the same figures from the review log's indexes;
and prints peak memory (ru_maxrss). Goals (issue 4): next due <= 10 ms and <= 2x raw sqlite3; one grade
<= 5 ms median; aggregates <= 1.5 s; peak <= 300 MB.

    python benchmarks/store_bench.py [--cards 100000] [--reviews 2000000] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import replace
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
        "INSERT INTO card_states (user_id, card_id, state, step, stability, difficulty, due, last_review, "
        "reps, lapses, suspended, buried_until, leech) VALUES (?, ?, 'review', NULL, ?, ?, ?, ?, ?, ?, ?, NULL, 0)",
        (
            (
                user_id, i + 1, 1.0 + i % 300, 1.0 + i % 10,
                ts(NOW + timedelta(seconds=(i * 7919) % span - 30 * 86400)),  # due: 30 days ago .. 11 months ahead
                ts(NOW - timedelta(days=1 + i % 60)), 20, i % 5, int(i % 97 == 0),
            )
            for i in range(studied)
        ),
    )  # fmt: skip
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
        {"reviews": reviews, "user": user_id, "studied": studied, "start": start.strftime(STAMP), "step": step},
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
    bounds = np.array([(day_start(EPOCH_DAY + timedelta(days=int(d)), DAY_STARTS_AT, BENCH_TZ) - start)
                       .total_seconds() for d in numbers])
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
            text("SELECT reviewed_at, last_review_before, study_day, first_of_day FROM review_logs "
                 "WHERE id % (SELECT max(1, count(*) / :k) FROM review_logs) = 0").columns(
                reviewed_at=UTCDateTime(), last_review_before=UTCDateTime()), {"k": sample}
        ).all()
    engine.dispose()
    for at, previous, day, first in rows:
        assert (day, bool(first)) == review_day_fields(at, previous, DAY_STARTS_AT, BENCH_TZ), (at, previous, day)


def conn_count(store) -> int:
    from sqlalchemy import text

    with store.engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM review_logs WHERE user_id = :u"), {"u": store.user_id}).scalar()


def truncate_wal(path: Path) -> None:
    conn = sqlite3.connect(path)
    busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    conn.close()
    assert busy == 0, "a reader held the WAL open"


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return times


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--reviews", type=int, default=2_000_000)
    parser.add_argument("--dir", type=Path, default=None, help="where to build (default: a temp dir)")
    parser.add_argument("--db", type=Path, default=None, help="build here once and reuse it on later runs")
    args = parser.parse_args()
    if args.db is not None:
        os.environ.setdefault("DRILL_CONFIG_DIR", str(args.db.parent))
        if not args.db.exists():
            print(f"building {args.cards:,} cards and {args.reviews:,} review logs ...", flush=True)
            print(f"  built in {build(args.db, args.cards, args.reviews):.1f} s")
        copy = args.db.with_name(args.db.stem + "-run.sqlite3")  # the run writes grades: work on a copy
        for suffix in ("", "-wal", "-shm"):
            Path(f"{copy}{suffix}").unlink(missing_ok=True)
        conn, dest = sqlite3.connect(args.db), sqlite3.connect(copy)
        conn.backup(dest)
        conn.close(), dest.close()
        run(copy, args.cards)
        return

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        os.environ.setdefault("DRILL_CONFIG_DIR", tmp)
        os.environ.setdefault("DRILL_DATA_DIR", tmp)
        path = Path(tmp) / "bench.sqlite3"
        print(f"building {args.cards:,} cards and {args.reviews:,} review logs ...", flush=True)
        print(f"  built in {build(path, args.cards, args.reviews):.1f} s ({path.stat().st_size / 1e6:.0f} MB)")
        run(path, args.cards)


def run(path: Path, cards: int) -> None:
    from sqlalchemy import case, func, select, true

    from drill.srs import DEFAULT_CONFIG
    from drill.store import open_store
    from drill.store.api import cards_t, logs_t, states_t
    from drill.store.models import StudyDayTotal

    days_t = StudyDayTotal.__table__

    store = open_store(f"sqlite:///{path}", "bench")
    store.config = replace(DEFAULT_CONFIG, reviews_per_day=100_000, new_per_day=20, day_starts_at=DAY_STARTS_AT)
    store.tz = BENCH_TZ
    store.sync_content(("bench", f"card{i:06d}", f"7.{i % SECTIONS + 1}") for i in range(cards))

    # -- the next-due query: SQLAlchemy vs raw sqlite3, same SQL, same parameters ---------------------
    query = store._due_query(None, True).limit(1)  # the statement Store.next_card runs
    params = {"now": NOW}
    compiled = query.compile(store.engine)
    expanded = compiled.construct_expanded_state(params)
    raw_sql = expanded.statement
    processors = compiled._bind_processors  # the same conversions SQLAlchemy applies (datetime -> text)
    positional = [
        processors[name](expanded.parameters[name]) if name in processors else expanded.parameters[name]
        for name in expanded.positiontup
    ]
    raw = sqlite3.connect(path)
    raw_row = raw.execute(raw_sql, positional).fetchone()
    with store.engine.connect() as conn:
        # What Store.next_card runs (the statement compiled once, executed on the pooled DBAPI connection)
        # and the raw sqlite3 baseline, interleaved so that both see the same machine load.
        sa_times, raw_times = [], []
        for _ in range(500):
            sa_times += timed(lambda: store._first_due(conn, NOW, None, True), 1)
            raw_times += timed(lambda: raw.execute(raw_sql, positional).fetchone(), 1)
        # The same statement through Connection.execute, for comparison.
        core_times = timed(lambda: conn.execute(query, params).first(), 300)
        conn.rollback()
    plan = " | ".join(r[-1] for r in raw.execute("EXPLAIN QUERY PLAN " + raw_sql, positional))
    raw.close()
    with store.engine.connect() as conn:
        assert tuple(conn.execute(query, params).first())[0] == raw_row[0] == store._first_due(conn, NOW, None, True)[0]
    sa_med, raw_med = statistics.median(sa_times), statistics.median(raw_times)
    print(f"next-due query, Store           {ms(sa_med)}  (median of 500)")
    print(f"  same via Connection.execute   {ms(statistics.median(core_times))}  (SQLAlchemy's per-call cost)")
    print(f"next-due query, raw sqlite3     {ms(raw_med)}  (median of 500)   ratio {sa_med / raw_med:.2f}x")
    print(f"  plan: {plan}")
    next_times = timed(lambda: store.next_card(NOW), 200)
    print(f"Store.next_card() (limits incl) {ms(statistics.median(next_times))}  (median of 200)")
    new_store_query = store._new_query(None).limit(1)
    with store.engine.connect() as conn:
        new_times = timed(lambda: conn.execute(new_store_query, params).first(), 50)
        conn.rollback()
    print(f"next-new query                  {ms(statistics.median(new_times))}  (median of 50)")
    count_times = timed(lambda: store.counts(NOW), 20)
    print(f"Store.counts()                  {ms(statistics.median(count_times))}  (median of 20)")

    # -- one grade per transaction, synchronous=FULL ------------------------------------------------
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        conn.rollback()
    with store.engine.connect() as conn:
        due_ids = [row.content_id for row in conn.execute(store._due_query(None, True).limit(200), params)]
        conn.rollback()
    truncate_wal(path)  # both grade loops start from an empty -wal file (as a fresh drill session does)
    grade_times = []
    for i, card_id in enumerate(due_ids):
        t = time.perf_counter()
        store.grade(card_id, 3 if i % 5 else 1, NOW)
        grade_times.append(time.perf_counter() - t)
    grade_times.sort()
    print(
        f"one grade (commit, FULL)        {ms(statistics.median(grade_times))}  (median of {len(grade_times)}; "
        f"p90 {ms(grade_times[int(len(grade_times) * 0.9)]).strip()})"
    )

    # The same write in raw sqlite3 (same DB, same pragmas, BEGIN IMMEDIATE, one UPDATE + one INSERT): the
    # disk's fsync floor for a grade, measured in this run.
    truncate_wal(path)
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("PRAGMA synchronous = FULL")
    log_cols = [c.name for c in logs_t.columns if c.name != "id"]
    template = raw.execute(f"SELECT {', '.join(log_cols)} FROM review_logs ORDER BY id DESC LIMIT 1").fetchone()
    first, passed = template[log_cols.index("first_of_day")], int(template[log_cols.index("rating")] != 1)
    insert_sql = f"INSERT INTO review_logs ({', '.join(log_cols)}) VALUES ({', '.join('?' * len(log_cols))})"
    raw_grade_times = []
    for i in range(200):
        card = 1 + (i * 37) % (cards // 2)
        t = time.perf_counter()
        raw.execute("BEGIN IMMEDIATE")
        raw.execute("SELECT * FROM card_states WHERE user_id = ? AND card_id = ?", (store.user_id, card)).fetchone()
        raw.execute(
            "UPDATE card_states SET due = ?, stability = stability + 1, reps = reps + 1 WHERE user_id = ? AND card_id = ?",
            ((NOW + timedelta(days=3 + i)).strftime(STAMP) + ".000000", store.user_id, card),
        )
        raw.execute(insert_sql, template)
        # ... and the summaries Store.grade keeps (reviews per study day; the card's retention counters).
        raw.execute(
            "UPDATE study_day_totals SET reviews = reviews + 1, duration_ms = duration_ms + ? "
            "WHERE user_id = ? AND study_day = ?",
            (template[log_cols.index("duration_ms")] or 0, store.user_id, template[log_cols.index("study_day")]),
        )
        if first:
            raw.execute(
                "UPDATE card_states SET first_reviews = first_reviews + 1, first_passes = first_passes + ? "
                "WHERE user_id = ? AND card_id = ?", (passed, store.user_id, template[log_cols.index("card_id")]),
            )
        raw.execute("COMMIT")
        raw_grade_times.append(time.perf_counter() - t)
    raw.close()
    raw_grade = statistics.median(raw_grade_times)
    print(
        f"one grade, raw sqlite3 same rows {ms(raw_grade)}  (median of 200)   ratio "
        f"{statistics.median(grade_times) / raw_grade:.2f}x"
    )

    # -- report-style aggregates over every review --------------------------------------------------
    # Store.grade keeps two summaries of the log: reviews per study day (study_day_totals, a row per day) and
    # each card's first-of-day grades and passes (card_states), so the report's whole-log figures read
    # hundreds of rows, not 2M. The same figures straight from the review log's indexes (each row records
    # its study day and first-of-day flag) are what a section or --since filter costs: a GROUP BY over the
    # covering (user, study_day) index, and one over the first-of-day rows per card joined to sections.
    mine = logs_t.c.user_id == store.user_id
    summary_days = (
        select(days_t.c.study_day, days_t.c.reviews)
        .where(days_t.c.user_id == store.user_id, days_t.c.reviews > 0)
        .order_by(days_t.c.study_day)
    )
    summary_sections = (
        select(cards_t.c.section, func.sum(states_t.c.first_reviews), func.sum(states_t.c.first_passes))
        .select_from(states_t.join(cards_t, cards_t.c.id == states_t.c.card_id))
        .where(states_t.c.user_id == store.user_id, states_t.c.first_reviews > 0)
        .group_by(cards_t.c.section)
        .order_by(cards_t.c.section)
    )
    log_days = select(logs_t.c.study_day, func.count()).where(mine).group_by(logs_t.c.study_day)
    per_card = (
        select(
            logs_t.c.card_id,
            func.count().label("reviews"),
            func.sum(case((logs_t.c.rating != 1, 1), else_=0)).label("passed"),
        )
        .where(mine, logs_t.c.first_of_day == true())
        .group_by(logs_t.c.card_id)
        .subquery()
    )
    log_sections = (
        select(cards_t.c.section, func.sum(per_card.c.reviews), func.sum(per_card.c.passed))
        .select_from(per_card.join(cards_t, cards_t.c.id == per_card.c.card_id))
        .group_by(cards_t.c.section)
        .order_by(cards_t.c.section)
    )

    def aggregate(per_day, retention) -> tuple[float, float, list, list, float]:
        t, cpu = time.perf_counter(), time.process_time()
        with store.engine.connect() as conn:
            days = conn.execute(per_day).all()
            per_day_s = time.perf_counter() - t
            sections = conn.execute(retention).all()
            conn.rollback()
        return time.perf_counter() - t, per_day_s, days, sections, time.process_time() - cpu

    results = {}
    for label, per_day, retention in (("summaries", summary_days, summary_sections),
                                      ("review log", log_days, log_sections)):
        runs = sorted((aggregate(per_day, retention) for _ in range(3)), key=lambda run: run[0])
        results[label] = runs[1]  # the median of 3 runs
        took, per_day_s, days, sections, cpu = runs[1]
        print(
            f"aggregates from the {label:10s} {took * 1000:6.0f} ms  (median of 3, CPU {cpu * 1000:.0f} ms; "
            f"{len(days)} days: {per_day_s * 1000:.0f} ms, {len(sections)} sections: {(took - per_day_s) * 1000:.0f} ms)"
        )
    summary, from_log = results["summaries"], results["review log"]
    assert sum(n for _, n in summary[2]) == conn_count(store)
    assert sorted(map(tuple, summary[2])) == sorted(map(tuple, from_log[2])), "day totals differ from the log"
    assert [tuple(r) for r in summary[3]] == [tuple(r) for r in from_log[3]], "retention differs from the log"
    aggregates = summary[0]
    try:
        from drill.report.figures import compute
    except ImportError:
        compute = None
    if compute is not None:
        t = time.perf_counter()
        try:
            compute(store, now=NOW, tz=BENCH_TZ)
            print(f"drill.report.figures.compute    {(time.perf_counter() - t) * 1000:6.0f} ms  (the report layer's full figure set)")
        except Exception as err:  # the report layer is another helper's; its failure is not this benchmark's
            print(f"drill.report.figures.compute failed: {err!r}")
    store.close()

    load = os.getloadavg()[0]
    print(f"load average (1 min)            {load:8.2f}     (on {os.cpu_count()} CPUs: above that, timings include waiting)")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (maxrss)            {peak_mb:8.0f} MB")
    print()
    goals = [
        ("next due <= 10 ms", sa_med <= 0.010),
        ("next due <= 2x raw sqlite3", sa_med <= 2 * raw_med),
        ("one grade <= 5 ms median", statistics.median(grade_times) <= 0.005),
        ("aggregates <= 1.5 s", aggregates <= 1.5),
        ("peak <= 300 MB", peak_mb <= 300),
    ]
    for goal, ok in goals:
        print(f"  {'met ' if ok else 'MISSED'}  {goal}")


if __name__ == "__main__":
    sys.exit(main())
