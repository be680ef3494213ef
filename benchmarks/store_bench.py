"""Store benchmark: a synthetic collection of 100k cards and 2M review logs in SQLite, beside one of 1k cards.

Times, in one process, every figure interleaved with the baseline it is compared to (one call of each in turn,
so both see the same machine load):
  - the per-grade store work, Store.counts() (after every grade) and the next-new query, on the big
    collection and on the 1k-card one, with the daily limits drill ships (20 new, 200 reviews): the ratio
    big / small says whether the work is bounded by the day's limits or grows with the collection;
  - Store.next_card() on both (for scale);
  - one grade (its own BEGIN IMMEDIATE transaction, commit with synchronous=FULL) and the same rows written
    with raw sqlite3 (the disk's fsync floor);
  - report-style aggregates over all reviews from the summaries the store keeps at grade time, and the same
    figures from the review log's indexes;
and prints peak memory (ru_maxrss). Goals (issue 10): counts and next-new at 100k cards <= 2x their 1k-card
time; one grade <= 5 ms median; aggregates <= 1.5 s; peak <= 300 MB.

    python benchmarks/store_bench.py [--cards 100000] [--reviews 2000000] [--small 1000] [--dir DIR]
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
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_collection import (
    BENCH_TZ,
    DAY_STARTS_AT,
    NOW,
    SECTIONS,
    STAMP,
    build,
    copy_db,
    truncate_wal,
)


def conn_count(store) -> int:
    from sqlalchemy import text

    with store.engine.connect() as conn:
        return conn.execute(
            text("SELECT count(*) FROM review_logs WHERE user_id = :u"), {"u": store.user_id}
        ).scalar()


def conn_due(store) -> int:
    """Due review cards, counted in plain SQL (all benchmark cards that were studied are review cards)."""
    from sqlalchemy import text

    with store.engine.connect() as conn:
        return conn.execute(
            text(
                "SELECT count(*) FROM card_states WHERE user_id = :u AND state = 'review' AND suspended = 0 AND due <= :now"
            ),
            {"u": store.user_id, "now": NOW.strftime(STAMP) + ".000000"},
        ).scalar()


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return times


def interleaved(fns: dict, rounds: int) -> dict[str, list[float]]:
    """Each function's times over ``rounds`` rounds, one call of each function per round, in turn."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return times


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--reviews", type=int, default=2_000_000)
    parser.add_argument("--small", type=int, default=1_000, help="cards in the baseline collection")
    parser.add_argument("--rounds", type=int, default=200, help="interleaved rounds per timed figure")
    parser.add_argument("--dir", type=Path, default=None, help="where to build (default: a temp dir)")
    parser.add_argument("--db", type=Path, default=None, help="build here once and reuse it on later runs")
    args = parser.parse_args()
    small_reviews = max(1, args.reviews * args.small // args.cards)  # the same reviews per card
    if args.db is not None:
        os.environ.setdefault("DRILL_CONFIG_DIR", str(args.db.parent))
        small_db = args.db.with_name(args.db.stem + f"-{args.small}.sqlite3")
        for path, cards, reviews in (
            (args.db, args.cards, args.reviews),
            (small_db, args.small, small_reviews),
        ):
            if not path.exists():
                print(f"building {cards:,} cards and {reviews:,} review logs ...", flush=True)
                print(f"  built in {build(path, cards, reviews):.1f} s")
        # the run writes grades: work on copies
        run(
            copy_db(args.db, args.db.with_name(args.db.stem + "-run.sqlite3")),
            args.cards,
            copy_db(small_db, small_db.with_name(small_db.stem + "-run.sqlite3")),
            args.small,
            args.rounds,
        )
        return

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        os.environ.setdefault("DRILL_CONFIG_DIR", tmp)
        os.environ.setdefault("DRILL_DATA_DIR", tmp)
        path, small_path = Path(tmp) / "bench.sqlite3", Path(tmp) / "small.sqlite3"
        for where, cards, reviews in (
            (path, args.cards, args.reviews),
            (small_path, args.small, small_reviews),
        ):
            print(f"building {cards:,} cards and {reviews:,} review logs ...", flush=True)
            print(f"  built in {build(where, cards, reviews):.1f} s ({where.stat().st_size / 1e6:.0f} MB)")
        run(path, args.cards, small_path, args.small, args.rounds)


def open_bench(path: Path, cards: int):
    """The benchmark's store: study days in UTC, every card synced, and the daily limits drill ships (20 new,
    200 reviews) left for today: the synthetic log's reviews per day grow with the collection, so the review
    limit is set to what the log already holds for today plus 200."""
    from drill.srs import DEFAULT_CONFIG
    from drill.store import open_store

    store = open_store(f"sqlite:///{path}", "bench")
    store.config = replace(DEFAULT_CONFIG, day_starts_at=DAY_STARTS_AT)
    store.tz = BENCH_TZ
    store.sync_content(("bench", f"card{i:06d}", f"7.{i % SECTIONS + 1}") for i in range(cards))
    counts = store.counts(NOW)
    store.config = replace(
        store.config,
        new_per_day=counts.new_today + DEFAULT_CONFIG.new_per_day,
        reviews_per_day=counts.reviews_today + DEFAULT_CONFIG.reviews_per_day,
    )
    return store


def next_new(store):
    """The next-new query as Store.next_card runs it when nothing is due."""
    from drill.store.queue import new_query

    with store.transaction() as conn:
        return conn.execute(new_query(store, None).limit(1), {"now": NOW}).first()


def compare(label: str, big: list[float], small: list[float], cards: int, small_cards: int) -> float:
    """Print the medians of two interleaved series and their ratio; returns the ratio as printed."""
    big_med, small_med = statistics.median(big), statistics.median(small)
    ratio = round(big_med / small_med, 2)
    print(
        f"{label:26s} {small_cards:>7,} cards {ms(small_med)}   {cards:>7,} cards {ms(big_med)}   "
        f"ratio {ratio:.2f}x  (medians of {len(big)}, interleaved)"
    )
    return ratio


def run(path: Path, cards: int, small_path: Path, small_cards: int, rounds: int) -> None:
    from sqlalchemy import case, func, select, true

    from drill.store.tables import cards_t, days_t, logs_t, states_t

    store, small = open_bench(path, cards), open_bench(small_path, small_cards)

    # -- per-grade store work: the big collection against the small one, interleaved --------------------
    for one, n in ((store, cards), (small, small_cards)):  # both have new cards and reviews left today
        counts = one.counts(NOW)
        assert next_new(one) is not None and counts.new == min(20, n - n * 95 // 100), counts
        assert counts.due == min(200, conn_due(one)), counts
    times = interleaved(
        {
            "counts": lambda: store.counts(NOW),
            "counts_small": lambda: small.counts(NOW),
            "new": lambda: next_new(store),
            "new_small": lambda: next_new(small),
            "next": lambda: store.next_card(NOW),
            "next_small": lambda: small.next_card(NOW),
        },
        rounds,
    )
    counts_ratio = compare("Store.counts()", times["counts"], times["counts_small"], cards, small_cards)
    new_ratio = compare("next-new query", times["new"], times["new_small"], cards, small_cards)
    compare("Store.next_card()", times["next"], times["next_small"], cards, small_cards)
    small.close()

    # -- one grade per transaction, synchronous=FULL, against the same rows in raw sqlite3 ------------
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        conn.rollback()
    from drill.store.queue import due_query

    with store.transaction() as conn:
        due_ids = [
            row.content_id for row in conn.execute(due_query(store, None, True).limit(rounds), {"now": NOW})
        ]
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("PRAGMA synchronous = FULL")
    log_cols = [c.name for c in logs_t.columns if c.name != "id"]
    template = raw.execute(
        f"SELECT {', '.join(log_cols)} FROM review_logs ORDER BY id DESC LIMIT 1"
    ).fetchone()
    first, passed = template[log_cols.index("first_of_day")], int(template[log_cols.index("rating")] != 1)
    insert_sql = f"INSERT INTO review_logs ({', '.join(log_cols)}) VALUES ({', '.join('?' * len(log_cols))})"

    def raw_grade(i: int) -> None:
        """The rows a grade writes (state, log, the day's totals, the card's counters) in raw sqlite3."""
        card = 1 + (i * 37) % (cards // 2)
        raw.execute("BEGIN IMMEDIATE")
        raw.execute(
            "SELECT * FROM card_states WHERE user_id = ? AND card_id = ?", (store.user_id, card)
        ).fetchone()
        raw.execute(
            "UPDATE card_states SET due = ?, stability = stability + 1, reps = reps + 1 WHERE user_id = ? AND card_id = ?",
            ((NOW + timedelta(days=3 + i)).strftime(STAMP) + ".000000", store.user_id, card),
        )
        raw.execute(insert_sql, template)
        raw.execute(
            "UPDATE study_day_totals SET reviews = reviews + 1, duration_ms = duration_ms + ? "
            "WHERE user_id = ? AND study_day = ?",
            (
                template[log_cols.index("duration_ms")] or 0,
                store.user_id,
                template[log_cols.index("study_day")],
            ),
        )
        if first:
            raw.execute(
                "UPDATE card_states SET first_reviews = first_reviews + 1, first_passes = first_passes + ? "
                "WHERE user_id = ? AND card_id = ?",
                (passed, store.user_id, template[log_cols.index("card_id")]),
            )
        raw.execute("COMMIT")

    truncate_wal(path)  # both start from an empty -wal file (as a fresh drill session does)
    grades = iter(enumerate(due_ids))
    raw_rounds = iter(range(len(due_ids)))

    def store_grade() -> None:
        i, card_id = next(grades)
        store.grade(card_id, 3 if i % 5 else 1, NOW)

    grade_times = interleaved(
        {"store": store_grade, "raw": lambda: raw_grade(next(raw_rounds))}, len(due_ids)
    )
    raw.close()
    grade_med, raw_med = statistics.median(grade_times["store"]), statistics.median(grade_times["raw"])
    p90 = sorted(grade_times["store"])[int(len(due_ids) * 0.9)]
    print(f"one grade (commit, FULL)   {ms(grade_med)}  (median of {len(due_ids)}; p90 {ms(p90).strip()})")
    print(f"  same rows in raw sqlite3 {ms(raw_med)}  (interleaved)   ratio {grade_med / raw_med:.2f}x")

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
    for label, per_day, retention in (
        ("summaries", summary_days, summary_sections),
        ("review log", log_days, log_sections),
    ):
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
    store.close()

    load = os.getloadavg()[0]
    print(
        f"load average (1 min)       {load:8.2f}     (on {os.cpu_count()} CPUs: above that, timings include waiting)"
    )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (maxrss)       {peak_mb:8.0f} MB")
    print()
    goals = [
        ("counts at the big collection <= 2x the small", counts_ratio <= 2),
        ("next-new at the big collection <= 2x the small", new_ratio <= 2),
        ("one grade <= 5 ms median", round(grade_med * 1000, 3) <= 5),
        ("aggregates <= 1.5 s", aggregates <= 1.5),
        ("peak <= 300 MB", peak_mb <= 300),
    ]
    for goal, ok in goals:
        print(f"  {'met ' if ok else 'MISSED'}  {goal}")


if __name__ == "__main__":
    sys.exit(main())
