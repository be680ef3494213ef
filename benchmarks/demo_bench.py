"""A control of `drill demo` moved 20 times quickly, against a bare Textual label updated 20 times quickly, in
the same run: does the screen keep up?

Goal (issue 16): each update <= 1.5x a bare Textual label update (median per-update time over the batches).

Both programs run as new processes on a pseudo-terminal (benchmarks/ptyrun.py) and record when each change has
been painted (``call_after_refresh``). A batch writes 20 key presses at once (→ on the focused control of
`drill demo DEMO`, "x" in the bare app) and waits for the 20th painted mark; the per-update time is the batch's
time / 20. drill's update is the real one: the engine recomputes the demo's numbers, the controls and the view
(heatmaps, tables) are rebuilt, and the plot is redrawn when the demo has one. Batches alternate.

Wall-clock times on a shared, loaded machine swing with the scheduler, so each process's CPU time over its
batches (user + system, from /proc) is printed as well: CPU per press, drill against bare, is the steadier
figure of the work an update costs. Both ratios are printed; the goal is judged on the wall-clock median.

    python benchmarks/demo_bench.py [--demo softmax] [--control 0] [--batches 10] [--presses 20]
    python benchmarks/demo_bench.py --start [--runs 11]

``--start`` times start-up instead, each a new process interleaved with a bare Textual app's first paint:
`drill demo` (the list painted), `drill demo mha` (a demo without a plot shown) and `drill demo softmax` (a
plot demo shown), with the heavy modules each had loaded by then (the plotting library is imported only when
a plot demo opens).

``--control N`` moves the demo's N-th control (0-based; tab is pressed N times first), e.g. ``--demo
transformer-block --control 3`` moves X[1,1], one input of the block, instead of the module shown.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grade_roundtrip import BARE_APP, drill_command
from ptyrun import PtySession, run_in_pty
from startup import BARE_APP as BARE_PAINT_APP

RIGHT = "\x1b[C"


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bare_batches(script: Path, env, marks: Path, presses: int, batches: int, cpu: list[float]) -> list[float]:
    out = []
    with PtySession([sys.executable, str(script)], env, marks) as session:
        session.wait_for("paint")
        start = cpu_seconds(session.proc.pid)
        for b in range(1, batches + 1):
            sent = session.press("x" * presses)
            out.append((session.wait_for("label", b * presses).at - sent) / presses)
        cpu.append((cpu_seconds(session.proc.pid) - start) / (presses * batches))
        session.press("q")
    return out


def demo_batches(
    drill: str, demo: str, env, marks: Path, presses: int, batches: int, cpu: list[float], control=0
):
    out = []
    with PtySession([drill, "demo", demo], env, marks) as session:
        session.wait_for("question")
        if control:
            session.press("\t" * control)
        start = cpu_seconds(session.proc.pid)
        for b in range(1, batches + 1):
            # → then ← alternately, so the control stays inside its range and every press changes it
            key = RIGHT if b % 2 else "\x1b[D"
            sent = session.press(key * presses)
            out.append((session.wait_for("update", b * presses).at - sent) / presses)
        cpu.append((cpu_seconds(session.proc.pid) - start) / (presses * batches))
        session.press("q")
    run = session.finish()
    if run.code != 0:
        raise SystemExit(f"drill demo exited {run.code}")
    return out


def start_times(runs: int) -> None:
    """Medians of interleaved start-ups: the bare app's first paint, the demo list, a demo, a plot demo."""
    drill = drill_command()
    base = {k: v for k, v in os.environ.items() if not k.startswith("DRILL_")}
    cases = {
        "drill demo (list painted)": (["demo"], "paint"),
        "drill demo mha (shown)": (["demo", "mha"], "question"),
        "drill demo softmax (plot demo shown)": (["demo", "softmax"], "question"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        env = dict(
            base,
            DRILL_DATA_DIR=str(tmp_path / "data"),
            DRILL_CONFIG_DIR=str(tmp_path / "config"),
            DRILL_CACHE_DIR=str(tmp_path / "cache"),
        )
        script = tmp_path / "bare_paint.py"
        script.write_text(BARE_PAINT_APP)
        marks = tmp_path / "marks.txt"
        times: dict[str, list[float]] = {"bare": [], **{name: [] for name in cases}}
        heavy: dict[str, set[str]] = {name: set() for name in cases}
        for run in range(runs + 1):  # the first round warms the file caches and is not counted
            bare = run_in_pty([sys.executable, str(script)], base, marks).marks["paint"][0]
            shown = {}
            for name, (args, milestone) in cases.items():
                at, loaded = run_in_pty([drill, *args], dict(env, DRILL_EXIT_AFTER=milestone), marks).marks[
                    milestone
                ]
                shown[name] = at
                heavy[name].update(m for m in loaded.split(",") if m != "-")
            if run:
                times["bare"].append(bare)
                for name, at in shown.items():
                    times[name].append(at)
    med = {name: statistics.median(values) for name, values in times.items()}
    print(f"median of {runs} interleaved runs each (seconds; load average {os.getloadavg()[0]:.1f}):")
    print(f"  {'bare Textual app, first paint':40s} {med['bare']:.3f}")
    for name in cases:
        loaded = ",".join(sorted(heavy[name])) or "-"
        print(f"  {name:40s} {med[name]:.3f}   {med[name] / med['bare']:.2f}x bare   (loaded: {loaded})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo", default="softmax", help="the demo whose first control is moved")
    parser.add_argument("--control", type=int, default=0, help="which control to move (0-based)")
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="alternations of bare and drill processes")
    parser.add_argument("--start", action="store_true", help="time start-up instead (see above)")
    parser.add_argument("--runs", type=int, default=11, help="start-up runs of each (with --start)")
    args = parser.parse_args()
    if args.start:
        start_times(max(3, args.runs))
        return
    drill = drill_command()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DRILL_")}
    bare: list[float] = []
    demo: list[float] = []
    bare_cpu: list[float] = []
    demo_cpu: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        script = tmp_path / "bare_app.py"
        script.write_text(BARE_APP)
        marks = tmp_path / "marks.txt"
        bare_batches(script, env, marks, args.presses, 2, [])  # warm-up: file caches
        for _round in range(args.rounds):
            bare += bare_batches(script, env, marks, args.presses, args.batches, bare_cpu)
            demo += demo_batches(
                drill, args.demo, env, marks, args.presses, args.batches, demo_cpu, args.control
            )
    bare_ms, demo_ms = statistics.median(bare) * 1000, statistics.median(demo) * 1000
    print(
        f"load average {os.getloadavg()[0]:.1f}; {args.rounds} rounds of {args.batches} batches of "
        f"{args.presses} presses, interleaved:"
    )
    print(f"  bare Textual label update (per press)           median {bare_ms:7.2f} ms  (n={len(bare)})")
    print(f"  drill demo {args.demo} control move (per press)  median {demo_ms:7.2f} ms  (n={len(demo)})")
    bare_cpu_ms, demo_cpu_ms = statistics.median(bare_cpu) * 1000, statistics.median(demo_cpu) * 1000
    print(
        f"  CPU per press: bare {bare_cpu_ms:.2f} ms, drill demo {args.demo} {demo_cpu_ms:.2f} ms  (median of processes)"
    )
    print(f"ratio CPU per press demo / bare: {demo_cpu_ms / bare_cpu_ms:.2f}x")
    ratio = demo_ms / bare_ms
    print(
        f"ratio demo update / bare label update: {ratio:.2f}x   "
        f"(goal <= 1.5x: {'ok' if ratio <= 1.5 else 'OVER GOAL'})"
    )


if __name__ == "__main__":
    main()
