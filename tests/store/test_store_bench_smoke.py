"""benchmarks/store_bench.py runs on a tiny collection, and the ratios and goals it prints are computed from
the figures it printed (the figures themselves are timings: not tested)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "store_bench.py"
COMPARED = re.compile(
    r"^(?P<label>.+?)\s+(?P<small_n>[\d,]+) cards\s+(?P<small>[\d.]+) ms\s+(?P<big_n>[\d,]+) cards\s+"
    r"(?P<big>[\d.]+) ms\s+ratio (?P<ratio>[\d.]+)x\s+\(medians of (?P<rounds>\d+), interleaved\)$"
)
GOAL = re.compile(r"^\s+(met|MISSED)\s+(.+)$")


def close_to(printed: float, big: float, small: float) -> bool:
    """The printed ratio (2 decimals) agrees with big / small as recomputed from the printed milliseconds
    (3 decimals each, so the recomputed ratio is itself uncertain by their rounding)."""
    low = max(big - 0.0005, 0) / (small + 0.0005)
    high = (big + 0.0005) / max(small - 0.0005, 1e-9)
    return low - 0.005 <= printed <= high + 0.005


def test_store_benchmark_ratios_come_from_its_figures(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            "--cards",
            "2000",
            "--reviews",
            "10000",
            "--small",
            "400",
            "--rounds",
            "7",
            "--dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    compared = {m["label"]: m for m in map(COMPARED.match, lines) if m}
    assert set(compared) == {"Store.counts()", "next-new query", "Store.next_card()"}, out.stdout
    for label, m in compared.items():
        assert (m["small_n"], m["big_n"], m["rounds"]) == ("400", "2,000", "7"), label
        small, big, ratio = float(m["small"]), float(m["big"]), float(m["ratio"])
        assert small > 0 and big > 0, label
        assert close_to(ratio, big, small), (label, ratio, big, small)
    grade = next(line for line in lines if line.startswith("one grade (commit, FULL)"))
    raw = next(line for line in lines if line.strip().startswith("same rows in raw sqlite3"))
    grade_ms = float(re.search(r"([\d.]+) ms", grade)[1])
    raw_ms, raw_ratio = (float(x) for x in re.search(r"([\d.]+) ms .*ratio ([\d.]+)x", raw).groups())
    assert close_to(raw_ratio, grade_ms, raw_ms), raw
    goals = {m[2]: m[1] == "met" for m in map(GOAL.match, lines) if m}
    ratios = {label: float(m["ratio"]) for label, m in compared.items()}
    assert goals["counts at the big collection <= 2x the small"] == (ratios["Store.counts()"] <= 2)
    assert goals["next-new at the big collection <= 2x the small"] == (ratios["next-new query"] <= 2)
    assert goals["one grade <= 5 ms median"] == (grade_ms <= 5)
    assert "aggregates <= 1.5 s" in goals and "peak <= 300 MB" in goals
