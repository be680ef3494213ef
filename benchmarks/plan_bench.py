"""Plan benchmark: the installed `drill plan` as a new process on the store benchmark's 100k-card / 2M-review
collection beside its 1k-card one (benchmarks/bench_collection.py: the same reviews per card), interleaved.

The benchmark's cards are pack "bench"; the plan is for the content drill ships (its own pack, synced in by
the first `drill plan --interview`), so what the plan should read is the shipped pack's cards and their
history, whatever else the table holds. Each round runs, on each size:

  dry-run    drill plan --interview <30 days ahead> --dry-run    (read-only store: forecasts, writes nothing)
  alone      drill plan                                          (read-only: the date set before the rounds)
  set        drill plan --interview <30 days ahead> --yes        (writing open: its integrity check, the sync,
                                                                  the date set again)

and prints per case the median wall and CPU time (user + system: what the shared machine distorts least),
the peak memory (ru_maxrss of that child, from wait4), the 100k / 1k ratios and the load average.
Goal (issue 27): `drill plan` at 100k <= 2x its 1k figure.

    python benchmarks/plan_bench.py [--cards 100000] [--reviews 2000000] [--small 1000] [--repeat 5] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from report_bench import drill_command


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MB) of ``command`` as a new process, measured by GNU time (a child forked from
    this process would count this process's pages in its peak: exec keeps the high-water mark)."""
    start = time.perf_counter()
    process = subprocess.run(
        ["/usr/bin/time", "-f", "TIME %U %S %M", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    wall = time.perf_counter() - start
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{process.stderr}")
    user, system, peak_kb = process.stderr.strip().splitlines()[-1].split()[1:]
    return wall, float(user) + float(system), int(peak_kb) / 1024


def build_in_child(path: Path, cards: int, reviews: int, env: dict[str, str]) -> None:
    """The collection built by bench_collection in a child process (this one stays small)."""
    here = str(Path(__file__).resolve().parent)
    code = (
        f"import sys; sys.path.insert(0, {here!r}); from pathlib import Path; from bench_collection import build; "
        f"took = build(Path({str(path)!r}), {cards}, {reviews}); print('  built in %.1f s' % took, flush=True)"
    )
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--reviews", type=int, default=2_000_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="build the collections here once, reuse them")
    args = parser.parse_args()
    small_reviews = max(1, args.reviews * args.small // args.cards)
    day = (date.today() + timedelta(days=30)).isoformat()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        env = {**os.environ, "DRILL_CONFIG_DIR": tmp, "DRILL_DATA_DIR": tmp}
        built = args.keep or Path(tmp)
        built.mkdir(parents=True, exist_ok=True)
        sizes = {
            args.small: (built / f"plan-{args.small}.sqlite3", small_reviews),
            args.cards: (built / f"plan-{args.cards}.sqlite3", args.reviews),
        }
        for cards, (path, reviews) in sizes.items():
            if not path.exists():
                print(f"building {cards:,} cards and {reviews:,} review logs ...", flush=True)
                build_in_child(path, cards, reviews, env)
        drill = drill_command()
        cases = {}
        for cards, (path, _reviews) in sizes.items():
            base = [drill, "plan", "--db", f"sqlite:///{path}", "--user", "bench"]
            run_once([*base, "--interview", day, "--yes"], env)  # the shipped cards synced, a date set
            cases[("dry-run", cards)] = [*base, "--interview", day, "--dry-run"]
            cases[("alone", cards)] = base
            cases[("set", cards)] = [*base, "--interview", day, "--yes"]
        figures: dict[tuple[str, int], list[tuple[float, float, float]]] = {key: [] for key in cases}
        for _ in range(args.repeat):
            for key, command in cases.items():
                figures[key].append(run_once(command, env))
        print(f"\n{'':8s} {'cards':>8s} {'wall':>8s} {'CPU':>8s} {'peak':>8s}   (medians of {args.repeat})")
        for name in ("dry-run", "alone", "set"):
            med = {}
            for cards in sizes:
                runs = figures[(name, cards)]
                med[cards] = tuple(statistics.median(r[i] for r in runs) for i in range(2)) + (
                    max(r[2] for r in runs),
                )
                wall, cpu, peak = med[cards]
                print(f"{name:8s} {cards:>8,} {wall:7.2f}s {cpu:7.2f}s {peak:6.0f}MB")
            (w1, c1, p1), (w2, c2, p2) = med[args.small], med[args.cards]
            print(
                f"{name:8s} ratio {args.cards // 1000}k / {args.small // 1000}k: wall {w2 / w1:.2f}x, CPU "
                f"{c2 / c1:.2f}x, peak {p2 / p1:.2f}x   (goal <= 2x)"
            )
        one, five, fifteen = os.getloadavg()
        print(f"load average {one:.1f} / {five:.1f} / {fifteen:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
