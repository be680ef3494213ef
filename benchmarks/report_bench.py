"""Report benchmark: `drill report`'s figures on 2M review logs (SQLite), against the raw SQL aggregates.

Builds the store benchmark's synthetic collection (benchmarks/store_bench.py: cards over 25 sections, 2M review
logs over two years, each with its previous review, study day and first-of-day flag as Store.grade records them),
then times in one process:
  - baseline: every SQL statement the report runs (recorded from a run by sqlite3's trace callback), replayed
    through raw sqlite3 and fetched as tuples — the aggregates' own cost, without SQLAlchemy or any Python figure work;
  - the report, ``drill.report.figures.compute(..., cards=False)``: every figure `drill report` shows in the
    terminal, Markdown or HTML (SQLAlchemy, cohort off) -- the goal's measure;
  - the same with the per-card list the CSV and JSON exports add (``cards=True``: a figure object per card);
  - rendering the result as JSON, HTML, Markdown and CSV; and, for scale, the whole `drill report` command;
and prints the ratio full / raw and the peak memory (ru_maxrss). Goals (issue 6): median <= 1.5 s, <= 300 MB.

    python benchmarks/report_bench.py [--cards 100000] [--reviews 2000000] [--repeat 3] [--dir DIR]
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import store_bench  # noqa: E402 (the store's generator, reused)

GOAL_SECONDS = 1.5
GOAL_MB = 300


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def best(times: list[float]) -> float:
    return min(times)


def timed_both(fn, repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each run (CPU time is what a busy shared machine distorts least)."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def raw_statements(engine, user: str) -> list[tuple[str, tuple]]:
    """Every SQL statement one report runs, as sqlite3 ran it (recorded from a real run with sqlite3's trace
    callback on every connection the report uses, so statements the report sends to the driver directly
    are included; parameters come inlined)."""
    from sqlalchemy import event

    from drill.report.figures import compute

    recorded: list[tuple[str, tuple]] = []

    def record(statement: str) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            recorded.append((statement, ()))

    def checkout(dbapi_connection, connection_record, connection_proxy):
        dbapi_connection.set_trace_callback(record)

    def checkin(dbapi_connection, connection_record):
        dbapi_connection.set_trace_callback(None)

    event.listen(engine, "checkout", checkout)
    event.listen(engine, "checkin", checkin)
    try:
        compute(engine, user=user, now=store_bench.NOW, tz=store_bench.BENCH_TZ, tz_name="UTC",
                day_start_hour=store_bench.DAY_STARTS_AT, cards=False)
    finally:
        event.remove(engine, "checkout", checkout)
        event.remove(engine, "checkin", checkin)
    return recorded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--reviews", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None, help="where to build (default: a temp dir)")
    parser.add_argument("--db", type=Path, default=None, help="reuse a database built by an earlier run (--keep)")
    parser.add_argument("--keep", type=Path, default=None, help="copy the built database here for --db")
    args = parser.parse_args()

    if args.db is not None:
        os.environ.setdefault("DRILL_CONFIG_DIR", str(args.db.parent))
        run(args.db, args.repeat)
        return
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        os.environ.setdefault("DRILL_CONFIG_DIR", tmp)
        os.environ.setdefault("DRILL_DATA_DIR", tmp)
        path = Path(tmp) / "bench.sqlite3"
        print(f"building {args.cards:,} cards and {args.reviews:,} review logs ...", flush=True)
        print(f"  built in {store_bench.build(path, args.cards, args.reviews):.1f} s "
              f"({path.stat().st_size / 1e6:.0f} MB)")
        if args.keep is not None:
            import shutil

            shutil.copyfile(path, args.keep)
        run(path, args.repeat)


def whole_command(path: Path, repeat: int) -> list[float]:
    """Wall-clock seconds of `drill report` (terminal format, output discarded) run as a user would."""
    import subprocess

    command = [sys.executable, "-m", "drill", "report", "--db", f"sqlite:///{path}", "--user", "bench"]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def run(path: Path, repeat: int) -> None:
    from sqlalchemy import create_engine

    from drill.report.csvout import to_csv
    from drill.report.figures import compute
    from drill.report.html import to_html
    from drill.report.jsonout import to_json
    from drill.report.markdown import to_markdown

    engine = create_engine(f"sqlite:///{path}")
    rss_start = peak_mb()
    result = {}

    def report(cards: bool):
        result["data"] = compute(engine, user="bench", now=store_bench.NOW, tz=store_bench.BENCH_TZ,
                                 tz_name="UTC", day_start_hour=store_bench.DAY_STARTS_AT, cards=cards)

    def full():
        report(cards=False)

    def with_cards():
        report(cards=True)

    full()  # warm the page cache (and SQLAlchemy's statement cache, as any long-lived process has)
    full_times, full_cpu = timed_both(full, repeat)
    rss_report = peak_mb()  # the process's peak so far: imports + the report's figures, nothing else yet
    with_cards()
    cards_times, cards_cpu = timed_both(with_cards, repeat)
    data = result["data"]

    statements = raw_statements(engine, "bench")  # the report's own statements (cards=False)
    raw = sqlite3.connect(path)

    def raw_run():
        for sql, params in statements:
            raw.execute(sql, params).fetchall()

    raw_times, raw_cpu = timed_both(raw_run, repeat)
    raw.close()
    command_times = whole_command(path, repeat)
    render_times = {}
    for name, fn in (("json", to_json), ("html", to_html), ("md", to_markdown), ("csv", to_csv)):
        render_times[name] = best(store_bench.timed(lambda fn=fn: fn(data), 1))
    engine.dispose()

    raw_best, full_best = best(raw_times), best(full_times)
    print(f"review logs: {data.totals.reviews:,}  cards: {data.totals.cards:,}  "
          f"days studied: {data.totals.days_studied}  retention: {data.retention.overall.rate:.3f}")
    print(f"raw SQL aggregates (sqlite3): best {raw_best:.3f} s wall, {best(raw_cpu):.3f} s CPU")
    print(f"full report figures         : best {full_best:.3f} s wall, {best(full_cpu):.3f} s CPU  "
          f"(median {statistics.median(full_times):.3f} s; goal <= {GOAL_SECONDS} s)")
    print(f"ratio full / raw            : {full_best / raw_best:.2f}x wall, {best(full_cpu) / best(raw_cpu):.2f}x CPU")
    print(f"with the per-card list      : best {best(cards_times):.3f} s wall, {best(cards_cpu):.3f} s CPU  "
          f"(median {statistics.median(cards_times):.3f} s; what the CSV and JSON exports compute)")
    print(f"whole `drill report` command: median {statistics.median(command_times):.3f} s  (a new process: imports, "
          f"store open, figures, terminal rendering; not a goal, for scale)")
    print(f"machine load (1-min average): {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print("rendering                   : " + "  ".join(f"{k} {v:.3f} s" for k, v in render_times.items()))
    print(f"peak memory (ru_maxrss)     : {rss_report:.0f} MB computing the report (imports alone: {rss_start:.0f} MB; "
          f"goal <= {GOAL_MB} MB); {peak_mb():.0f} MB after rendering every format")
    ok = statistics.median(full_times) <= GOAL_SECONDS and rss_report <= GOAL_MB
    print("goals met" if ok else "GOALS MISSED (see the CPU time and the machine load above)")


if __name__ == "__main__":
    main()
