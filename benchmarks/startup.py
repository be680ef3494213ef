"""Start-up of the installed `drill study`, every way a learner starts it, against a bare Textual app's first
paint measured in the same run (median of interleaved runs; goals from issue 10).

- first-ever start: empty data and cache directories (no content cache, no database)      goal <= 1.6x
- returning start: the default database, content cache and next-card plan from earlier runs goal <= 1.6x
- DRILL_DB_URL naming a SQLite file (a returning start on that file)                       goal <= 1.6x
- PostgreSQL (DRILL_DB_URL = $DRILL_TEST_PG_URL, when set; a returning start)              goal <= 2.5x
- and the study shell's first paint on a returning start                                    goal <= 1.25x

Each program runs as a new process on a pseudo-terminal (120x40, benchmarks/ptyrun.py) and records when a
milestone has been painted; a time is "spawn -> on the screen". The bare app paints one Static.

drill's modules are byte-compiled first, as pip does when it installs a wheel (and as textual's are): an
editable install under PYTHONDONTWRITEBYTECODE would otherwise compile drill from source at every start,
which no installed drill does.

    python benchmarks/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ptyrun import drill_command, run_in_pty

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

GOALS = {"first-ever": 1.6, "returning": 1.6, "DRILL_DB_URL": 1.6, "PostgreSQL": 2.5}


WHERE = """
from drill.content.cache import entry_for
from drill.content.loader import engine_catalog, find_packs, resolve_content_path
from drill.store.locate import database_file, plan_target
db = database_file()
for path in [plan_target(None)[0], *([db] if db else [])]:
    if not path.is_file():
        print(path)
if entry_for(find_packs(resolve_content_path(None)), engine_catalog()) is None:
    print("a content cache entry (or the shipped one)")
"""


def byte_compile_drill() -> Path:
    """Byte-compile the drill package the installed command imports (what pip does for a wheel)."""
    out = subprocess.run(
        [sys.executable, "-c", "import drill, pathlib; print(pathlib.Path(drill.__file__).parent)"],
        capture_output=True,
        text=True,
        check=True,
    )
    package = Path(out.stdout.strip())
    compileall.compile_dir(package, quiet=1)
    return package


def missing_for_returning(env: dict[str, str]) -> list[str]:
    """What a returning start would not find on disk, as drill itself locates it: the next-card plan (beside a
    SQLite database, or in the cache directory for a server), a SQLite database file, a content entry."""
    out = subprocess.run([sys.executable, "-c", WHERE], env=env, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each measurement (>= 5)")
    args = parser.parse_args()
    runs = max(5, args.runs)
    drill = drill_command()
    package = byte_compile_drill()
    pg_url = os.environ.get("DRILL_TEST_PG_URL")

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        base = {k: v for k, v in os.environ.items() if not k.startswith("DRILL_")}

        def home(name: str) -> dict[str, str]:
            root = tmp_path / name
            return dict(
                base,
                DRILL_DATA_DIR=str(root / "data"),
                DRILL_CONFIG_DIR=str(root / "config"),
                DRILL_CACHE_DIR=str(root / "cache"),
                DRILL_EXIT_AFTER="question",
            )

        bare_script = tmp_path / "bare_app.py"
        bare_script.write_text(BARE_APP)
        marks = tmp_path / "marks.txt"
        returning = home("returning")
        scenarios: dict[str, dict[str, str]] = {
            "returning": returning,
            "DRILL_DB_URL": dict(
                returning, DRILL_DB_URL=f"sqlite:///{tmp_path / 'elsewhere' / 'progress.db'}"
            ),
        }
        (tmp_path / "elsewhere").mkdir()
        if pg_url:
            scenarios["PostgreSQL"] = dict(returning, DRILL_DB_URL=pg_url, DRILL_USER="startup-bench")

        # Warm-up: file caches; each returning scenario's database, plan and content cache. These runs wait
        # for "ready" (the store open, its next-card plan saved): a run that ends at the first question may
        # end before the store has created anything, and the "returning" starts would measure a first one.
        run_in_pty([sys.executable, str(bare_script)], base, marks)
        for name, env in scenarios.items():
            for _ in range(2):
                run = run_in_pty([drill, "study"], dict(env, DRILL_EXIT_AFTER="ready"), marks)
                if "question" not in run.marks or "ready" not in run.marks:
                    raise SystemExit(
                        f"drill study showed no question (marks: {run.marks}); is there content?"
                    )
            missing = missing_for_returning(env)
            if missing:
                raise SystemExit(f"{name}: the warm-up left no {', '.join(missing)}: not a returning start")

        times: dict[str, list[float]] = {name: [] for name in ("bare", "paint", "first-ever", *scenarios)}
        heavy: dict[str, set[str]] = {name: set() for name in times}
        for i in range(runs):
            times["bare"].append(
                run_in_pty([sys.executable, str(bare_script)], base, marks).marks["paint"][0]
            )
            fresh = home(f"first-{i}")  # nothing on disk yet
            for name, env in (("first-ever", fresh), *scenarios.items()):
                at, loaded = run_in_pty([drill, "study"], env, marks).marks["question"]
                times[name].append(at)
                heavy[name].update(m for m in loaded.split(",") if m != "-")
            at, loaded = run_in_pty([drill, "study"], dict(returning, DRILL_EXIT_AFTER="paint"), marks).marks[
                "paint"
            ]
            times["paint"].append(at)
            heavy["paint"].update(m for m in loaded.split(",") if m != "-")

    med = {name: statistics.median(values) for name, values in times.items()}
    print(f"installed drill: {drill} (package {package}, byte-compiled)")
    print(f"median of {runs} interleaved runs each (seconds; load average {os.getloadavg()[0]:.1f}):")
    print(f"  {'bare Textual app, first paint':44s} {med['bare']:.3f}")
    print(f"  {'drill study, first paint (returning)':44s} {med['paint']:.3f}")
    for name in ("first-ever", *scenarios):
        print(f"  {'drill study, first question: ' + name:44s} {med[name]:.3f}")
    print("ratios (median / bare first paint):")
    rows = [("study first paint / bare paint", med["paint"] / med["bare"], 1.25)]
    rows += [
        (f"first question, {name} / bare paint", med[name] / med["bare"], GOALS[name])
        for name in GOALS
        if name in med
    ]
    for label, ratio, goal in rows:
        verdict = "ok" if ratio <= goal else "OVER GOAL"
        print(f"  {label:44s} {ratio:5.2f}x   (goal <= {goal}x: {verdict})")
    if not pg_url:
        print("  PostgreSQL: not measured (set DRILL_TEST_PG_URL)")
    print("heavy modules loaded when it was on screen:")
    for name, loaded in heavy.items():
        if name != "bare":
            print(f"  {name:14s} {', '.join(sorted(loaded)) or 'none'}")


if __name__ == "__main__":
    main()
