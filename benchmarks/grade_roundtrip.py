"""Grade -> next card on the screen of the installed `drill study`, from the first grade of a session, against a
bare Textual app's key -> label round trip in the same run; and the study process's peak memory over the session.

Goals (issue 10): grade -> next card <= 1.5x the bare round trip (median); study peak memory <= 120 MB over a
50-card session with the shipped content.

Both programs run as new processes on a pseudo-terminal (benchmarks/ptyrun.py) and record when a change has
been painted (``call_after_refresh``); a round trip is "key written to the terminal -> painted". drill's is the
real one: the grade is committed to the SQLite file (WAL, synchronous=FULL) before the next card is chosen and
painted. Each session starts in a fresh data directory, as a learner's day does: the first question comes from
the content; space reveals the answer and 3 (Good) grades it as soon as the app takes grades (the store is
open: the "ready" mark), nothing waits for the rest of the background work (the side pane's traces, ...).
The config lets one session hold 50 grades of the 41 shipped cards: new_per_day = 100, learning steps of 1 s.
Sessions and bare batches alternate; the medians are compared. For scale, the disk's floor is printed too: one
commit of a row with raw sqlite3 in WAL mode with synchronous=FULL (as drill commits a grade) in the session's
data directory, timed between the sessions — every grade pays it before its next card may be shown, and on a
busy disk it is most of the round trip.

    python benchmarks/grade_roundtrip.py [--sessions 3] [--grades 50]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ptyrun import PtySession, drill_command, study_env

BARE_APP = """
import os, time
from textual.app import App
from textual.widgets import Label

class Bare(App):
    count = 0

    def compose(self):
        yield Label("0")

    def on_mount(self):
        self.call_after_refresh(self.mark, "paint")

    def on_key(self, event):
        if event.key == "x":
            self.count += 1
            self.query_one(Label).update(str(self.count))
            self.call_after_refresh(self.mark, "label")
        elif event.key == "q":
            self.exit()

    def mark(self, name):
        with open(os.environ["DRILL_BENCH_MARKS"], "a") as out:
            out.write(f"{name} {time.monotonic():.6f} -\\n")

Bare().run()
"""


def bare_batch(script: Path, env: dict[str, str], marks: Path, presses: int) -> list[float]:
    samples = []
    with PtySession([sys.executable, str(script)], env, marks) as session:
        session.wait_for("paint")
        for n in range(1, presses + 1):
            sent = session.press("x")
            samples.append(session.wait_for("label", n).at - sent)
        session.press("q")
    return samples


def commit_floor(folder: Path, commits: int) -> list[float]:
    """Seconds per commit of one small row, raw sqlite3, WAL and synchronous=FULL (drill's grade commit)."""
    folder.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(folder / "floor.sqlite3", isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, at REAL, note TEXT)")
        samples = []
        for i in range(commits):
            started = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t (at, note) VALUES (?, ?)", (started, f"grade {i}"))
            conn.execute("COMMIT")
            samples.append(time.perf_counter() - started)
        return samples
    finally:
        conn.close()


def drill_session(drill: str, env: dict[str, str], marks: Path, grades: int) -> tuple[list[float], float]:
    """One study session of ``grades`` grades; (round trips, peak memory in MB)."""
    samples = []
    with PtySession([drill, "study"], env, marks) as session:
        session.wait_for("question")
        for n in range(1, grades + 1):
            session.wait_for("card", n)
            session.press(" ")
            session.wait_for("answer", n)
            session.wait_for("ready")  # before it, a grade is refused ("still opening"): the earliest moment
            sent = session.press("3")
            samples.append(session.wait_for("card", n + 1).at - sent)
        session.press("q")
    run = session.finish()
    if run.code != 0:
        raise SystemExit(f"drill study exited {run.code}")
    return samples, run.maxrss_mb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sessions", type=int, default=3, help="study sessions (each in a fresh data directory)"
    )
    parser.add_argument(
        "--grades", type=int, default=50, help="grades per session (<= 80 with the shipped cards)"
    )
    args = parser.parse_args()
    drill = drill_command()
    base = {k: v for k, v in os.environ.items() if not k.startswith("DRILL_")}
    bare: list[float] = []
    grade: list[float] = []
    peaks: list[float] = []
    floor: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        script = tmp_path / "bare_app.py"
        script.write_text(BARE_APP)
        marks = tmp_path / "marks.txt"
        bare_batch(script, base, marks, 5)  # warm-up: file caches
        for i in range(args.sessions):
            root = tmp_path / f"session-{i}"
            env = study_env(drill, base, root)
            bare += bare_batch(script, base, marks, args.grades)
            floor += commit_floor(root / "floor", args.grades)
            samples, peak = drill_session(drill, env, marks, args.grades)
            grade += samples
            peaks.append(peak)
    bare_ms, drill_ms = statistics.median(bare) * 1000, statistics.median(grade) * 1000
    print(
        f"load average {os.getloadavg()[0]:.1f}; {args.sessions} sessions of {args.grades} grades, interleaved:"
    )
    print(f"  bare Textual key -> label painted      median {bare_ms:7.2f} ms  (n={len(bare)})")
    print(
        f"  drill grade -> next card painted       median {drill_ms:7.2f} ms  (n={len(grade)}; "
        f"first grades {', '.join(f'{s * 1000:.0f}' for s in grade[: args.grades][:3])} ms; "
        f"p90 {statistics.quantiles(grade, n=10)[-1] * 1000:.1f} ms)"
    )
    floor_ms = statistics.median(floor) * 1000
    print(
        f"  disk floor: one WAL commit with synchronous=FULL (raw sqlite3, same disk) median {floor_ms:7.2f} ms"
        f"  (n={len(floor)}; p90 {statistics.quantiles(floor, n=10)[-1] * 1000:.1f} ms)"
    )
    ratio = drill_ms / bare_ms
    print(
        f"ratio grade -> next card / bare key round trip: {ratio:.2f}x   (goal <= 1.5x: {'ok' if ratio <= 1.5 else 'OVER GOAL'})"
    )
    peak = max(peaks)
    print(
        f"study process peak memory (ru_maxrss) over a {args.grades}-card session: "
        f"{', '.join(f'{p:.0f}' for p in peaks)} MB; max {peak:.0f} MB   "
        f"(goal <= 120 MB: {'ok' if peak <= 120 else 'OVER GOAL'})"
    )


if __name__ == "__main__":
    main()
