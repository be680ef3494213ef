"""benchmarks/store_bench.py still runs (on a tiny collection; the figures themselves are not tested)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "store_bench.py"


def test_store_benchmark_runs_on_a_tiny_collection(tmp_path):
    out = subprocess.run(
        [sys.executable, str(BENCH), "--cards", "300", "--reviews", "3000", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    for figure in ("next-due query, Store", "raw sqlite3", "one grade (commit, FULL)", "aggregates", "peak memory"):
        assert figure in out.stdout
