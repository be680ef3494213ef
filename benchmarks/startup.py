"""First question of the installed `drill study` (every way a learner starts it), `drill quiz` and `drill interview`,
each against a plain Textual app showing the same first screen, in the same run (medians of interleaved runs).

- study, first-ever start: empty data and cache directories (no content cache, no database)   goal <= 1.6x
- study, returning start: the default database, content cache and next-card plan from before   goal <= 1.6x
- study with DRILL_DB_URL naming a SQLite file (a returning start on that file)                goal <= 1.6x
- study on PostgreSQL (DRILL_DB_URL = $DRILL_TEST_PG_URL, when set; a returning start)         goal <= 2.5x
- quiz (`drill quiz --seed 1`): its first question                                              goal <= 2x
- interview (`drill interview --seed 1`): its first question                                   goal <= 2x

Each program runs as a new process on a 120x40 pseudo-terminal (benchmarks/ptyrun.py); a time is "spawn -> the
first bytes after which the awaited text is decoded on the screen" (no milestones inside either program): the
card's heading above its "show answer" hint; the quiz's and the interview's "question 1/N" heading with the question's
"§7.x · ..." line and its text beneath. The baseline
(benchmarks/baseline_app.py) shows, in one plain Static, the text drill drew for that first screen, captured on
the same terminal in the warm-up. After each timed start the program is quit (not timed).

drill's modules are byte-compiled first, as pip does when it installs a wheel (and as textual's are): an
editable install under PYTHONDONTWRITEBYTECODE would otherwise compile drill from source at every start,
which no installed drill does. The machine is shared (2 cores): the load average is printed; compare within a
run only.

    python benchmarks/startup.py [--runs 5] [--what study,quiz,interview]
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline_app import write_frames
from ptyrun import Terminal, drill_command, home_env, load_average, median_ms

BASELINE = str(Path(__file__).resolve().parent / "baseline_app.py")
# a card's heading (section · id · kind) above the card view's hint (drawn alone while the content loads)
STUDY_QUESTION = re.compile(r"§\S+ · \S+ · (?s:.*)show answer")
STUDY_READY = re.compile(r"new \d+ · learning \d+ · review \d+")  # the header's counts: the store is open
# the quiz's and the interview's "question 1/N" heading with the question under it (its "§7.x · ..." line and
# the line of text after that): the heading alone can come a frame or more before the question
FIRST_QUESTION = re.compile(r"question 1/\d+(?s:.*)§7\.\d+ · [^\n]*\n(?:[ \t]*\n)*[ \t]*\S")
# command -> (arguments, awaited text, quit key)
COMMANDS = {
    "study": (["study"], STUDY_QUESTION, "q"),
    "quiz": (["quiz", "--seed", "1"], FIRST_QUESTION, "q"),
    "interview": (["interview", "--seed", "1"], FIRST_QUESTION, "\x11"),
}
SETTLE = 1.5  # seconds at most that a first screen is left to settle before it is taken (`first_screen`)
GOALS = {
    "first-ever": 1.6,
    "returning": 1.6,
    "DRILL_DB_URL": 1.6,
    "PostgreSQL": 2.5,
    "quiz": 2.0,
    "interview": 2.0,
}


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


def first_screen(
    argv: list[str], env: dict[str, str], awaited, quit_key: str, ready=None
) -> tuple[float, str]:
    """Spawn -> ``awaited`` on the screen (seconds), and the screen then (settled: quiet for 0.3 s, or as it is
    1.5 s on -- the quiz's and the interview's countdown bar redraws all the time, and 30 s on, the benchmark's
    old wait, a quiz question had timed out into its feedback, a far larger screen for the baseline); the program
    is quit after (once ``ready`` is on the screen, when given: a warm-up that must leave the store's files
    behind)."""
    with Terminal(argv, env) as term:
        shown = term.wait_for(awaited) - term.start
        screen = term.settled(quiet=0.3, timeout=SETTLE) if ready is None else ""
        if ready is not None:
            term.wait_for(ready)
        term.press(quit_key, pause=0)
        term.finish(timeout=60)
    if term.result.code != 0:
        raise SystemExit(f"{argv} exited {term.result.code}:\n{term.text()}")
    return shown, screen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement (>= 3)")
    parser.add_argument("--what", default="study,quiz,interview", help="which commands (comma-separated)")
    args = parser.parse_args()
    runs = max(3, args.runs)
    what = [name for name in args.what.split(",") if name]
    drill = drill_command()
    package = byte_compile_drill()
    pg_url = os.environ.get("DRILL_TEST_PG_URL")

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        returning = home_env(os.environ, tmp_path / "returning")
        # scenario -> (command, environment)
        scenarios: dict[str, tuple[str, dict[str, str]]] = {}
        if "study" in what:
            (tmp_path / "elsewhere").mkdir()
            scenarios["returning"] = ("study", returning)
            url = f"sqlite:///{tmp_path / 'elsewhere' / 'progress.db'}"
            scenarios["DRILL_DB_URL"] = ("study", dict(returning, DRILL_DB_URL=url))
            if pg_url:
                scenarios["PostgreSQL"] = (
                    "study",
                    dict(returning, DRILL_DB_URL=pg_url, DRILL_USER="startup-bench"),
                )
        for name in ("quiz", "interview"):
            if name in what:
                scenarios[name] = (name, returning)

        # Warm-up: file caches, each returning scenario's database, plan and content cache (the study runs wait
        # for the store: its files are written once it is open), and drill's first screens for the baselines.
        frames: dict[str, Path] = {}
        for name, (command, env) in scenarios.items():
            argv, awaited, quit_key = COMMANDS[command]
            for _ in range(2):
                ready = STUDY_READY if command == "study" else None
                first_screen([drill, *argv], env, awaited, quit_key, ready)
            if command == "study":
                missing = missing_for_returning(env)
                if missing:
                    raise SystemExit(
                        f"{name}: the warm-up left no {', '.join(missing)}: not a returning start"
                    )
            if command not in frames:
                _, screen = first_screen([drill, *argv], env, awaited, quit_key)
                frames[command] = write_frames(tmp_path / f"{command}.json", screen, [])

        times: dict[str, list[float]] = {f"baseline {c}": [] for c in frames}
        times.update({name: [] for name in (["first-ever"] if "study" in what else []) + list(scenarios)})
        for i in range(runs):
            for command, path in frames.items():
                _, awaited, _ = COMMANDS[command]
                at, _ = first_screen([sys.executable, BASELINE, str(path)], os.environ, awaited, "q")
                times[f"baseline {command}"].append(at)
            cases = list(scenarios.items())
            if "study" in what:
                cases.insert(0, ("first-ever", ("study", home_env(os.environ, tmp_path / f"first-{i}"))))
            for name, (command, env) in cases:
                argv, awaited, quit_key = COMMANDS[command]
                at, _ = first_screen([drill, *argv], env, awaited, quit_key)
                times[name].append(at)

    print(f"installed drill: {drill} (package {package}, byte-compiled)")
    print(f"{load_average()}; median of {runs} interleaved runs each, spawn -> on the screen:")
    for name, values in times.items():
        print(f"  {name:28s} {median_ms(values):7.0f} ms")
    print("ratios (drill / the plain Textual app showing the same first screen):")
    for name in GOALS:
        if name not in times:
            continue
        command = scenarios[name][0] if name in scenarios else "study"
        ratio = median_ms(times[name]) / median_ms(times[f"baseline {command}"])
        verdict = "ok" if ratio <= GOALS[name] else "OVER GOAL"
        print(f"  {name:28s} {ratio:5.2f}x   (goal <= {GOALS[name]}x: {verdict})")
    if "study" in what and not pg_url:
        print("  PostgreSQL: not measured (set DRILL_TEST_PG_URL)")


if __name__ == "__main__":
    main()
