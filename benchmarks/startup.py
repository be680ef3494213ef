"""Startup of `drill`, as ratios against baselines measured in the same run (median of interleaved runs).

- `drill --help` vs `python -c pass` (goal <= 5x).
- `drill study` first paint vs a bare Textual app painting one Static (goal <= 1.25x).
- `drill study` first question on screen vs that same bare first paint (goal <= 1.6x).

Each Textual process runs in a pseudo-terminal (120x40) with a real driver. The apps write
`<milestone> <time.monotonic()> <heavy modules loaded>` to $DRILL_BENCH_MARKS once the milestone is painted
(`call_after_refresh`, the same hook in both), so a time is "spawn -> painted", not "spawn -> exit".
The study runs use a fresh data directory whose database is created by one warm-up run first; that run
also leaves the store's next-card plan beside the database, so the measured runs show the first question
from the read-only peek (`drill.store.peek`, no SQLAlchemy) while the store opens, as a learner's second
and later `drill study` do.

    python benchmarks/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

BARE_APP = """
import os, time
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("drill")

    def on_mount(self):
        self.call_after_refresh(self.painted)

    def painted(self):
        with open(os.environ["DRILL_BENCH_MARKS"], "a") as out:
            out.write(f"paint {time.monotonic():.6f} -\\n")
        self.exit()

Bare().run()
"""


def run_plain(argv: list[str], env: dict[str, str]) -> float:
    start = time.monotonic()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.monotonic() - start


def run_in_pty(
    argv: list[str], env: dict[str, str], marks: Path, size=(120, 40)
) -> dict[str, tuple[float, str]]:
    """Run argv on a pseudo-terminal; returns {milestone: (seconds since spawn, heavy modules)}."""
    marks.write_text("")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    env = dict(
        env, DRILL_BENCH_MARKS=str(marks), TERM="xterm-256color", COLUMNS=str(size[0]), LINES=str(size[1])
    )

    def drain() -> None:  # the terminal must be read or the app blocks writing to it
        try:
            while os.read(master, 65536):
                pass
        except OSError:
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    try:
        code = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(timeout=5)
    os.close(master)
    if code != 0:
        raise SystemExit(f"{argv} exited {code}")
    result = {}
    for line in marks.read_text().splitlines():
        name, stamp, heavy = line.split()
        result[name] = (float(stamp) - start, heavy)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each measurement (>= 10)")
    args = parser.parse_args()
    runs = max(10, args.runs)
    python = sys.executable

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        env = dict(
            os.environ, DRILL_DATA_DIR=str(tmp_path / "data"), DRILL_CONFIG_DIR=str(tmp_path / "config")
        )
        env.pop("DRILL_EXIT_AFTER", None)
        bare_script = tmp_path / "bare_app.py"
        bare_script.write_text(BARE_APP)
        marks = tmp_path / "marks.txt"
        study = [python, "-m", "drill", "study"]

        # Warm-up: file caches, and the study database (created and synced on the first run).
        run_plain([python, "-c", "pass"], env)
        run_plain([python, "-m", "drill", "--help"], env)
        run_in_pty([python, str(bare_script)], env, marks)
        first = run_in_pty(study, dict(env, DRILL_EXIT_AFTER="question"), marks)
        if "question" not in first:
            raise SystemExit(f"drill study showed no question (marks: {first}); is there content?")

        times: dict[str, list[float]] = {k: [] for k in ("pass", "help", "bare", "paint", "question")}
        heavy_at_paint: set[str] = set()
        for _ in range(runs):
            times["pass"].append(run_plain([python, "-c", "pass"], env))
            times["help"].append(run_plain([python, "-m", "drill", "--help"], env))
            times["bare"].append(run_in_pty([python, str(bare_script)], env, marks)["paint"][0])
            painted = run_in_pty(study, dict(env, DRILL_EXIT_AFTER="paint"), marks)["paint"]
            times["paint"].append(painted[0])
            heavy_at_paint.update(m for m in painted[1].split(",") if m != "-")
            times["question"].append(
                run_in_pty(study, dict(env, DRILL_EXIT_AFTER="question"), marks)["question"][0]
            )

    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"median of {runs} interleaved runs each (seconds):")
    for key, label in (
        ("pass", "python -c pass"),
        ("help", "drill --help"),
        ("bare", "bare Textual app, first paint"),
        ("paint", "drill study, first paint"),
        ("question", "drill study, first question"),
    ):
        print(f"  {label:34s} {med[key]:.3f}")
    rows = (
        ("drill --help / python -c pass", med["help"] / med["pass"], 5.0),
        ("study first paint / bare paint", med["paint"] / med["bare"], 1.25),
        ("study first question / bare paint", med["question"] / med["bare"], 1.6),
    )
    print("ratios:")
    for label, ratio, goal in rows:
        verdict = "ok" if ratio <= goal else "OVER GOAL"
        print(f"  {label:36s} {ratio:5.2f}x   (goal <= {goal}x: {verdict})")
    print(f"heavy modules loaded at study's first paint: {', '.join(sorted(heavy_at_paint)) or 'none'}")


if __name__ == "__main__":
    main()
