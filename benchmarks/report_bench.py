"""Report benchmark: `drill report`'s figures on 2M review logs (SQLite), against the raw SQL aggregates.

Builds the store benchmark's synthetic collection (benchmarks/store_bench.py: cards over 25 sections, 2M review
logs over two years), then times in one process:
  - baseline: every SQL statement the report issues (recorded from a run), replayed through raw sqlite3 and
    fetched as tuples — the aggregates' own cost, without SQLAlchemy or any Python figure work;
  - the full computation, ``drill.report.figures.compute`` (SQLAlchemy, every figure, cohort off);
  - rendering the result as JSON, HTML, Markdown and CSV;
and prints the ratio full / raw and the peak memory (ru_maxrss). Goals (issue 6): <= 1.5 s, <= 300 MB.

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
from datetime import UTC
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import store_bench  # noqa: E402 (the store's generator, reused)

GOAL_SECONDS = 1.5
GOAL_MB = 300


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def best(times: list[float]) -> float:
    return min(times)


def raw_statements(engine, user: str) -> list[tuple[str, tuple]]:
    """Every SQL statement one report issues, exactly as sent to sqlite3 (recorded from a real run)."""
    from sqlalchemy import event

    from drill.report.figures import compute

    recorded: list[tuple[str, tuple]] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        recorded.append((statement, tuple(parameters)))

    event.listen(engine, "before_cursor_execute", record)
    try:
        compute(engine, user=user, now=store_bench.NOW, tz=UTC, tz_name="UTC")
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return recorded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--reviews", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None, help="where to build (default: a temp dir)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        os.environ.setdefault("DRILL_CONFIG_DIR", tmp)
        os.environ.setdefault("DRILL_DATA_DIR", tmp)
        path = Path(tmp) / "bench.sqlite3"
        print(f"building {args.cards:,} cards and {args.reviews:,} review logs ...", flush=True)
        print(f"  built in {store_bench.build(path, args.cards, args.reviews):.1f} s "
              f"({path.stat().st_size / 1e6:.0f} MB)")
        run(path, args.repeat)


def run(path: Path, repeat: int) -> None:
    from sqlalchemy import create_engine

    from drill.report.csvout import to_csv
    from drill.report.figures import compute
    from drill.report.html import to_html
    from drill.report.jsonout import to_json
    from drill.report.markdown import to_markdown

    engine = create_engine(f"sqlite:///{path}")
    statements = raw_statements(engine, "bench")
    raw = sqlite3.connect(path)

    def raw_run():
        for sql, params in statements:
            raw.execute(sql, params).fetchall()

    raw_run()  # warm the page cache for both contestants
    raw_times = store_bench.timed(raw_run, repeat)
    raw.close()
    rss_before = peak_mb()

    result = {}

    def full():
        result["data"] = compute(engine, user="bench", now=store_bench.NOW, tz=UTC, tz_name="UTC")

    full_times = store_bench.timed(full, repeat)
    data = result["data"]
    render_times = {}
    for name, fn in (("json", to_json), ("html", to_html), ("md", to_markdown), ("csv", to_csv)):
        render_times[name] = best(store_bench.timed(lambda fn=fn: fn(data), 1))
    engine.dispose()

    raw_best, full_best = best(raw_times), best(full_times)
    print(f"review logs: {data.totals.reviews:,}  cards: {data.totals.cards:,}  "
          f"days studied: {data.totals.days_studied}  retention: {data.retention.overall.rate:.3f}")
    print(f"raw SQL aggregates (sqlite3): best {raw_best:.3f} s  median {statistics.median(raw_times):.3f} s")
    print(f"full report figures         : best {full_best:.3f} s  median {statistics.median(full_times):.3f} s  "
          f"(goal <= {GOAL_SECONDS} s)")
    print(f"ratio full / raw            : {full_best / raw_best:.2f}x")
    print("rendering                   : " + "  ".join(f"{k} {v:.3f} s" for k, v in render_times.items()))
    peak = peak_mb()
    print(f"peak memory (ru_maxrss)     : {peak:.0f} MB (before the report: {rss_before:.0f} MB; goal <= {GOAL_MB} MB)")
    ok = full_best <= GOAL_SECONDS and peak <= GOAL_MB
    print("goals met" if ok else "GOALS MISSED")


if __name__ == "__main__":
    main()
