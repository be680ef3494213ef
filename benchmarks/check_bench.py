"""Benchmark: the installed `drill check` as a new process against `python -c "import yaml, numpy"`.

`drill check` loads and validates the shipped content (YAML), then recomputes every number the chapter prints
through the engine (numpy), so a bare interpreter importing those two libraries is its floor. Each round runs
the baseline and `drill check` one after the other (interleaved, so load from other processes hits both alike);
the first round is reported as "cold" (first start of each in this run) and is not judged; the median of the
others is. Peak memory is each child's own ru_maxrss (os.wait4), not the process tree's. Never asserts a time.
Goals (issue 10): median ratio <= 4x, peak <= 80 MB.

    python benchmarks/check_bench.py [--runs 15] [--drill PATH]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

GOAL_RATIO = 4.0
GOAL_MB = 80.0
BASELINE = [sys.executable, "-c", "import yaml, numpy"]


def run(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one new process; raises if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}: {err.strip()}")
    return wall, usage.ru_maxrss / 1024  # Linux reports KB


def find_drill(given: str | None) -> str:
    if given:
        return given
    beside = Path(sys.executable).with_name("drill")  # the venv this script runs in
    found = str(beside) if beside.exists() else shutil.which("drill")
    if not found:
        raise SystemExit("no installed `drill` found (pip install -e . in this venv, or pass --drill)")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="interleaved rounds after the cold one")
    parser.add_argument("--drill", default=None, help="the drill executable (default: this venv's)")
    args = parser.parse_args()
    drill = [find_drill(args.drill), "check", "--plain"]

    cold_base, _ = run(BASELINE)
    cold_drill, _ = run(drill)
    base_t, drill_t, base_mb, drill_mb = [], [], [], []
    for _ in range(args.runs):
        t, mb = run(BASELINE)
        base_t.append(t)
        base_mb.append(mb)
        t, mb = run(drill)
        drill_t.append(t)
        drill_mb.append(mb)

    ratio = statistics.median(drill_t) / statistics.median(base_t)
    peak = max(drill_mb)
    print(f"{' '.join(drill)}  vs  {' '.join(BASELINE)}")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (other processes add noise)")
    print(f"cold (first start)   baseline {cold_base * 1e3:7.1f} ms   drill check {cold_drill * 1e3:7.1f} ms")
    print(
        f"warm median of {args.runs}   baseline {statistics.median(base_t) * 1e3:7.1f} ms   "
        f"drill check {statistics.median(drill_t) * 1e3:7.1f} ms   (min {min(drill_t) * 1e3:.1f}, "
        f"max {max(drill_t) * 1e3:.1f})"
    )
    print(f"peak RSS             baseline {max(base_mb):7.1f} MB   drill check {peak:7.1f} MB")
    print(f"RATIO drill check / import yaml, numpy = {ratio:.2f}x (goal <= {GOAL_RATIO:g}x)")
    print(f"PEAK drill check = {peak:.1f} MB (goal <= {GOAL_MB:g} MB)")


if __name__ == "__main__":
    main()
