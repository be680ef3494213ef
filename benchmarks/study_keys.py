"""What a learner feels at the keys of `drill study`: reveal (space), grade -> next card (3) and quit (q), each from
the key to the screen, against a plain Textual app showing the same screens and taking the same keys, in one run.

Both programs run as new processes on a pseudo-terminal (benchmarks/ptyrun.py); a time is "key written -> the
first bytes after which the awaited screen is decoded" (no milestones inside either program):

- reveal: the card's "show answer" hint is gone (the answer is drawn in its place);
- grade -> next card: another card's heading and its "show answer" hint are on the screen; drill's grade is the
  real one (committed to SQLite, WAL + synchronous=FULL, before the next card is chosen and drawn);
- quit: the program has ended (its terminal is the shell's again), drill's session closed.

Each key is pressed after a reader's pause of 0.3 s, one at a time, from the first grade the app takes (the
header shows today's counts: the store is open). Each drill session starts in a fresh data directory, as a
learner's first day: new_per_day = 100, learning steps of 1 s. The baseline (benchmarks/baseline_app.py) shows
the text drill drew for two cards (question, answer, question, answer, and round again), captured from a warm-up
session on the same terminal. Sessions alternate, baseline first; medians; the load average is printed — on a
shared 2-core machine the figures swing with the other processes: compare within one run only.

The study process's peak memory (its own ru_maxrss) is printed too.

``--search`` also presses / (the card browser: its filter drawn) and esc (back: the question drawn) before each
card.

``--db A,B,...`` also runs drill on a fresh copy of each prepared database (DRILL_DB_URL; e.g. the store
benchmark's 1k- and 1M-card files from benchmarks/bench_collection.py, whose cards are another user's and
another pack's), in the same interleaved rounds, and prints each key's median per database and its ratio to
the first one's (issue 27: start, grade -> next card and quit at 1M cards <= 1.5x the same at 1k). A copy is
made before each session and opened once untimed (the learner's first open: the shipped cards synced in, the
file checked), so the timed session is a returning learner's start.

    python benchmarks/study_keys.py [--rounds 3] [--grades 8] [--search] [--db small.sqlite3,big.sqlite3]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline_app import write_frames
from ptyrun import SIZE, Terminal, drill_command, load_average, median_ms, study_env

QUESTION = "show answer"  # the card view's hint (with a card's heading: its question; gone with the answer)
READY = re.compile(r"new \d+ · learning \d+ · review \d+")  # the header's counts: the store is open
CARD = re.compile(r"§\S+ · (\S+) · ")  # a card's heading: section · id · kind
BASELINE = str(Path(__file__).resolve().parent / "baseline_app.py")
SEARCH = "search id, question"  # the browser's filter, drawn with its table
STARTS = ("start (first question)", "start (counts shown)")  # with --db: from the process's start
KEYS = ("search (/)", "back from search (esc)", "reveal", "grade -> next card", "quit")


def cards(screen: str) -> list[str]:
    return CARD.findall(screen)


def revealed(screen: str) -> bool:
    return QUESTION not in screen


def next_card(shown: list[str]) -> Callable[[str], bool]:
    return lambda screen: QUESTION in screen and bool(cards(screen)) and cards(screen) != shown


def session(term: Terminal, grades: int, times: dict[str, list[float]], search: bool) -> None:
    """(Search and go back,) reveal and grade ``grades`` cards, then quit; each key's time into ``times``."""
    for _grade in range(grades):
        shown = cards(term.update())
        if search:
            sent = term.press("/")
            times["search (/)"].append(term.wait_for(SEARCH, after=sent) - sent)
            sent = term.press("\x1b")
            times["back from search (esc)"].append(term.wait_for(next_card([]), after=sent) - sent)
        sent = term.press(" ")
        times["reveal"].append(term.wait_for(revealed, after=sent) - sent)
        sent = term.press("3")
        times["grade -> next card"].append(term.wait_for(next_card(shown), after=sent) - sent)
    sent = term.press("q")
    times["quit"].append(term.wait_for_exit() - sent)
    if term.finish().code != 0:
        raise SystemExit(f"{term.argv} exited {term.result.code}")
    times.setdefault("peak MB", []).append(term.result.maxrss_mb)


def capture(drill: str, env: dict[str, str], path: Path, search: bool) -> Path:
    """drill's own screens for two cards, (the browser and the question again,) question and answer, as the
    baseline shows them."""
    with Terminal([drill, "study"], env) as term:
        term.wait_for(READY)
        first = term.settled()
        steps = []
        for _card in range(2):
            shown = cards(term.update())
            if search:
                term.wait_for(SEARCH, after=term.press("/"))
                steps.append(("/", term.settled()))
                term.wait_for(next_card([]), after=term.press("\x1b"))
                steps.append(("escape", term.settled()))
            term.wait_for(revealed, after=term.press(" "))
            steps.append((" ", term.settled()))
            term.wait_for(next_card(shown), after=term.press("3"))
            steps.append(("3", term.settled()))
        term.press("q")
    steps[-1] = ("3", first)  # round again: the second card's grade shows the first card
    return write_frames(path, first, steps)


def fresh_copy(source: Path, dest: Path) -> Path:
    """``source`` (its WAL checkpointed into it first) copied to ``dest``, side files of an earlier copy gone."""
    with sqlite3.connect(source) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for suffix in ("", "-wal", "-shm", ".checked", ".lock"):
        Path(str(dest) + suffix).unlink(missing_ok=True)
    shutil.copyfile(source, dest)
    return dest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="sessions of each program, alternating")
    parser.add_argument("--grades", type=int, default=8, help="cards revealed and graded per session")
    parser.add_argument("--search", action="store_true", help="also / (the browser) and esc before each card")
    parser.add_argument("--db", default="", help="prepared databases to study on too (comma-separated)")
    args = parser.parse_args()
    databases = [Path(p) for p in args.db.split(",") if p]
    for path in databases:
        if not path.is_file():
            raise SystemExit(f"study_keys.py: --db {path}: no such database file")
    drill = drill_command()
    times = {"drill": {key: [] for key in KEYS}, "baseline": {key: [] for key in KEYS}}
    for path in databases:
        times[str(path)] = {key: [] for key in (*STARTS, *KEYS)}
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        env = study_env(drill, os.environ, tmp_path / "capture")
        frames = capture(drill, env, tmp_path / "frames.json", args.search)
        for round_ in range(args.rounds):
            with Terminal([sys.executable, BASELINE, str(frames)], os.environ) as term:
                term.wait_for(QUESTION)
                session(term, args.grades, times["baseline"], args.search)
            env = study_env(drill, os.environ, tmp_path / f"learner-{round_}")
            with Terminal([drill, "study"], env) as term:
                term.wait_for(READY)
                session(term, args.grades, times["drill"], args.search)
            for number, path in enumerate(databases):
                copy = fresh_copy(path, tmp_path / f"db-{number}.sqlite3")
                env = study_env(drill, os.environ, tmp_path / f"db-{number}-{round_}")
                env["DRILL_DB_URL"] = f"sqlite:///{copy}"
                with Terminal([drill, "study"], env) as term:  # the first open (sync, check): not timed
                    term.wait_for(READY)
                    term.press("q")
                    term.wait_for_exit()
                with Terminal([drill, "study"], env) as term:
                    first_question = term.wait_for(next_card([]))
                    times[str(path)]["start (first question)"].append(first_question - term.start)
                    times[str(path)]["start (counts shown)"].append(term.wait_for(READY) - term.start)
                    session(term, args.grades, times[str(path)], args.search)
    print(
        f"{load_average()}; {args.rounds} sessions each of {args.grades} cards, interleaved, a {SIZE[0]}x{SIZE[1]}"
        " terminal, each key after 0.3 s; key -> screen, medians:"
    )
    for key in KEYS:
        if not times["drill"][key]:
            continue
        drill_ms, base_ms = median_ms(times["drill"][key]), median_ms(times["baseline"][key])
        print(
            f"  {key:24s} drill {drill_ms:7.1f} ms   plain Textual {base_ms:6.1f} ms   "
            f"{drill_ms / base_ms:5.2f}x   (n={len(times['drill'][key])})"
        )
    for path in databases:
        first = times[str(databases[0])]
        for key in (*STARTS, *KEYS):
            if times[str(path)][key]:
                here, there = median_ms(times[str(path)][key]), median_ms(first[key])
                print(
                    f"  {path.name:24s} {key:24s} {here:8.1f} ms   {here / there:5.2f}x {databases[0].name}"
                )
    peaks = times["drill"]["peak MB"]
    print(f"  drill study's peak memory over a session: {max(peaks):.0f} MB (goal <= 120 MB over 50 cards)")


if __name__ == "__main__":
    main()
