"""Report benchmark: the installed `drill report` command, every format, on 100k cards and 2M review logs.

Builds the store benchmark's synthetic collection (benchmarks/store_bench.py: cards over 25 sections, 2M review
logs over two years, with the study days and summaries Store.grade records), then runs, as a user would, each
as a new process with its output discarded:

  terminal    drill report
  --since     drill report --since <a month before the last review>
  --section   drill report --section 7.1            (4% of the cards; the log is read for them)
  json, csv, html, md    drill report --format F   (json and csv list every card)

interleaved, round after round, with the baseline `python -c "import sqlalchemy, numpy"` (the libraries
any drill command that opens the store imports). For each it prints the first (cold: content cache and
store opened for the first time in this data directory) and the median of the later runs, the median's
ratio to the baseline's median, the median CPU time (user + system: what a loaded machine distorts least)
and the process's peak memory (ru_maxrss of that child, from wait4).
Goal (issue 10): every format's median <= 1.5 s and peak <= 300 MB; issue 27: the same on a database that holds
the shipped cards too (``--shipped``: the content drill ships is synced in for the benchmark's user first, as
`drill study` would; its Chinese questions make every string of the exports wider), and with ``--large-db FILE``
(built with ``--large-cards`` / ``--large-reviews``, default 1M / 20M, once, then reused) every format run on it
too, in the same rounds: its median within 10x the same format's on the first database, its peak <= 1 GB.

    python benchmarks/report_bench.py [--cards 100000] [--reviews 2000000] [--repeat 7] [--db FILE] [--shipped]
        [--large-db FILE [--large-cards 1000000] [--large-reviews 20000000]]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import store_bench  # (the store benchmark's generator, reused)

GOAL_SECONDS = 1.5
GOAL_MB = 300
LARGE_RATIO = 10.0  # issue 27: at 1M cards / 20M reviews, within 10x the 100k figure ...
LARGE_MB = 1000  # ... and <= 1 GB
BASELINE = "baseline"
LARGE = " (large)"  # the suffix of a case run on --large-db


def drill_command() -> str:
    """The `drill` console script installed beside this Python (the project's virtual environment)."""
    beside = Path(sys.executable).parent / "drill"
    found = str(beside) if beside.exists() else shutil.which("drill")
    if not found:
        raise SystemExit("no installed `drill` command: pip install -e . in this environment first")
    return found


def cases(path: Path) -> dict[str, list[str]]:
    drill = [drill_command(), "report", "--db", f"sqlite:///{path}", "--user", "bench"]
    since = (store_bench.NOW - timedelta(days=31)).date().isoformat()
    return {
        BASELINE: [sys.executable, "-c", "import sqlalchemy, numpy"],
        "terminal": drill,
        "--since": [*drill, "--since", since],
        "--section": [*drill, "--section", "7.1"],
        **{fmt: [*drill, "--format", fmt] for fmt in ("json", "csv", "html", "md")},
    }


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak MB) of one run of ``command`` as a new process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{error}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # (KB on Linux)


def measure(path: Path, repeat: int, env: dict[str, str], large: Path | None = None) -> None:
    commands = cases(path)
    if large is not None:
        commands |= {name + LARGE: command for name, command in cases(large).items() if name != BASELINE}
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    peaks: dict[str, float] = dict.fromkeys(commands, 0.0)
    first: dict[str, float] = {}
    for round_number in range(repeat + 1):  # round 0 is the cold one
        for name, command in commands.items():
            wall, cpu, peak = run_once(command, env)
            peaks[name] = max(peaks[name], peak)
            if round_number == 0:
                first[name] = wall
            else:
                walls[name].append(wall)
                cpus[name].append(cpu)

    base = statistics.median(walls[BASELINE])
    print(
        f"{'':18s} {'first':>8s} {'median':>8s} {'ratio':>7s} {'CPU':>8s} {'peak':>8s}"
        f"   (median of {repeat} interleaved runs; CPU = user + system, what load distorts least)"
    )
    ok = True
    for name in commands:
        median = statistics.median(walls[name])
        if name == BASELINE:
            met = True
        elif name.endswith(LARGE):
            small = name.removesuffix(LARGE)
            scale = median / statistics.median(walls[small])
            cpu_scale = statistics.median(cpus[name]) / statistics.median(cpus[small])
            met = scale <= LARGE_RATIO and peaks[name] <= LARGE_MB
        else:
            met = median <= GOAL_SECONDS and peaks[name] <= GOAL_MB
        ok &= met
        print(
            f"{name:18s} {first[name]:7.3f}s {median:7.3f}s {median / base:6.2f}x "
            f"{statistics.median(cpus[name]):7.3f}s {peaks[name]:6.0f}MB"
            + (
                f"   {scale:5.2f}x the first database's median ({cpu_scale:5.2f}x its CPU)"
                if name.endswith(LARGE)
                else ""
            )
            + ("" if met else "   MISSED")
        )
    print(f"machine load (1-min average): {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    goal = f"every format's median <= {GOAL_SECONDS} s and peak <= {GOAL_MB} MB"
    if large is not None:
        goal += f"; on the large database within {LARGE_RATIO:.0f}x and <= {LARGE_MB} MB"
    print(f"goal: {goal}: " + ("met" if ok else "MISSED (compare the ratio and the load above)"))


def prepare(db: Path, cards: int, reviews: int, shipped: bool) -> None:
    """Build ``db`` unless it exists; sync the shipped cards in when ``shipped``."""
    if not db.exists():
        print(f"building {cards:,} cards and {reviews:,} review logs in {db} ...", flush=True)
        seconds = store_bench.build(db, cards, reviews)
        print(f"  built in {seconds:.1f} s ({db.stat().st_size / 1e6:.0f} MB)")
    if shipped:
        print(f"with the shipped cards: {sync_shipped(db)} synced into {db.name}")


def main() -> None:
    if sys.argv[1:2] == ["--prepare"]:  # (the child process ``main`` starts for each database)
        db, cards, reviews, shipped = sys.argv[2:]
        return prepare(Path(db), int(cards), int(reviews), shipped == "1")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--reviews", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--dir", type=Path, default=None, help="where to build (default: a temp dir)")
    parser.add_argument("--db", type=Path, default=None, help="build here once and reuse it on later runs")
    parser.add_argument(
        "--shipped",
        action="store_true",
        help="sync the shipped cards into the database first (as drill study)",
    )
    parser.add_argument("--large-db", type=Path, default=None, help="also run every format on this database")
    parser.add_argument("--large-cards", type=int, default=1_000_000)
    parser.add_argument("--large-reviews", type=int, default=20_000_000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        # A data and config directory of its own: the first run builds the content cache, as a first start does.
        env = {**os.environ, "DRILL_CONFIG_DIR": tmp, "DRILL_DATA_DIR": tmp}
        os.environ.update(DRILL_CONFIG_DIR=tmp, DRILL_DATA_DIR=tmp)
        path = args.db or Path(tmp) / "bench.sqlite3"
        databases = [(path, args.cards, args.reviews)]
        if args.large_db is not None:
            databases.append((args.large_db, args.large_cards, args.large_reviews))
        for db, cards, reviews in databases:
            # In a process of its own: a child's peak (ru_maxrss) starts at this process's size when it forks
            # (Linux keeps the high-water mark across exec), so this one stays small -- no drill, no content.
            subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--prepare",
                    str(db),
                    str(cards),
                    str(reviews),
                    str(int(args.shipped)),
                ],
                check=True,
                env=env,
            )
        measure(path, args.repeat, env, args.large_db)


def sync_shipped(path: Path) -> int:
    """Sync the content drill ships into ``path`` for the benchmark's user, as `drill study` does."""
    from drill.content import load_content
    from drill.store import open_store

    library = load_content(None)
    with open_store(f"sqlite:///{path}", "bench") as store:
        store.sync_content(library)
    return len(library.cards)


if __name__ == "__main__":
    main()
