"""Reveal and search on the installed `drill study`, as ratios to a bare Textual app's update in the same run.

Goal (issue 13 §2): nothing a key triggers waits on the engine — reveal (space -> the answer painted) and
search (/ -> the card browser painted, its search box focused) each <= 1.5x the bare baseline (median).

Baselines, both bare Textual apps on the same pseudo-terminal, interleaved with drill's sessions:
- "update": key -> a Label's new text painted (the round trip of grade_roundtrip.py);
- "push": key -> a pushed screen painted holding an Input and a DataTable of as many rows as drill's browser
  shows (every shipped card) — what opening a new search screen costs in Textual, for scale.

Each drill session starts in a fresh data directory; the first key is pressed `--read-first` seconds after
the store is open (the "ready" mark; default 1 s, a quick reader; 0 presses at once), so the side pane's
engine traces and the warm-up of every card's steps (~3 s) are being computed while the learner reveals and
searches — the case the issue measured (q24: reveal up to ~1 s while the pane computed for 3.4 s). Meanwhile
the study screen builds its card browser (0.3 s after "ready"): with --read-first 0 the first search builds
it instead, and its time is printed on its own line. Per card: 3 (grade: the next card), space (reveal, timed), / (search, timed),
escape. The bare app gets the same rhythm — a throwaway update, then the timed update and the timed push —
because Textual paints at most once per 1/60 s: a key pressed just after a paint waits for the next frame
(up to ~17 ms) while a key pressed after a pause is painted at once, so a baseline and a subject pressed at
different moments would measure that phase, not the screens.

    python benchmarks/reveal_bench.py [--sessions 3] [--cards 12]
"""

from __future__ import annotations

import argparse
import os
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
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label

ROWS = int(os.environ["BARE_ROWS"])

class Search(Screen):
    def compose(self):
        yield Input(placeholder="search")
        yield DataTable()

    def on_mount(self):
        table = self.query_one(DataTable)
        for name in ("id", "section", "state", "due", "stability", "lapses", "question"):
            table.add_column(name)
        for i in range(ROWS):
            table.add_row(f"q{i:02d}", "7.9", "new", "-", "-", "0", "为什么除 √d_k？" * 3)
        self.query_one(Input).focus()
        self.call_after_refresh(self.app.mark, "pushed")

    def key_escape(self):
        self.app.pop_screen()


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
        elif event.key == "y":  # the throwaway update (drill's grade, before its reveal)
            self.query_one(Label).update("y")
            self.call_after_refresh(self.mark, "before")
        elif event.key == "s":
            self.push_screen(Search())
        elif event.key == "q":
            self.exit()

    def mark(self, name):
        with open(os.environ["DRILL_BENCH_MARKS"], "a") as out:
            out.write(f"{name} {time.monotonic():.6f} -\\n")

Bare().run()
"""


def shipped_cards() -> int:
    """How many rows drill's browser lists: every card of the shipped content."""
    from drill.content import load_content

    return len(load_content().cards)


def bare_batch(
    script: Path, env: dict[str, str], marks: Path, presses: int
) -> tuple[list[float], list[float]]:
    """(key -> label painted, key -> pushed screen painted) samples."""
    updates, pushes = [], []
    with PtySession([sys.executable, str(script)], env, marks) as session:
        session.wait_for("paint")
        for n in range(1, presses + 1):
            session.press("y")
            session.wait_for("before", n)
            sent = session.press("x")
            updates.append(session.wait_for("label", n).at - sent)
            sent = session.press("s")
            pushes.append(session.wait_for("pushed", n).at - sent)
            session.press("\x1b")
            time.sleep(0.4)  # escape alone: the terminal driver waits to tell it from a sequence
        session.press("q")
    return updates, pushes


def drill_session(
    drill: str, env: dict[str, str], marks: Path, cards: int, read_first: float
) -> tuple[list[float], list[float]]:
    """(reveal, search) samples of one study session of ``cards`` cards."""
    reveals, searches = [], []
    with PtySession([drill, "study"], env, marks) as session:
        session.wait_for("question")
        session.wait_for("ready")
        time.sleep(read_first)  # the learner reads the first card
        for n in range(1, cards + 1):
            if n > 1:
                session.press("3")  # grade the card before: the next card
            session.wait_for("card", n)
            sent = session.press(" ")
            reveals.append(session.wait_for("answer", n).at - sent)
            sent = session.press("/")
            searches.append(session.wait_for("search", n).at - sent)
            session.press("\x1b")
            time.sleep(0.4)
        session.press("q")
    run = session.finish()
    if run.code != 0:
        raise SystemExit(f"drill study exited {run.code}")
    return reveals, searches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sessions", type=int, default=3, help="study sessions (each in a fresh data directory)"
    )
    parser.add_argument("--cards", type=int, default=12, help="cards revealed and searched per session")
    parser.add_argument(
        "--read-first", type=float, default=1.0, help="seconds between the store open and the first key"
    )
    args = parser.parse_args()
    drill = drill_command()
    base = {k: v for k, v in os.environ.items() if not k.startswith("DRILL_")}
    base["BARE_ROWS"] = str(shipped_cards())
    updates: list[float] = []
    pushes: list[float] = []
    reveals: list[float] = []
    searches: list[float] = []
    firsts: list[float] = []  # each session's first search: it builds the session's browser
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        script = tmp_path / "bare_app.py"
        script.write_text(BARE_APP)
        marks = tmp_path / "marks.txt"
        bare_batch(script, base, marks, 3)  # warm-up: file caches
        for i in range(args.sessions):
            root = tmp_path / f"session-{i}"
            env = study_env(drill, base, root)
            u, p = bare_batch(script, base, marks, args.cards)
            updates += u
            pushes += p
            r, s = drill_session(drill, env, marks, args.cards, args.read_first)
            reveals += r
            searches += s
            firsts.append(s[0])
    med = {
        name: statistics.median(v) * 1000
        for name, v in (("update", updates), ("push", pushes), ("reveal", reveals), ("search", searches))
    }
    print(
        f"load average {os.getloadavg()[0]:.1f}; {args.sessions} sessions of {args.cards} cards, interleaved; "
        f"first key {args.read_first:g} s after the store opened:"
    )
    print(f"  bare Textual key -> label painted          median {med['update']:7.2f} ms  (n={len(updates)})")
    print(
        f"  bare Textual key -> search screen painted  median {med['push']:7.2f} ms  (n={len(pushes)}; "
        f"{base['BARE_ROWS']} rows)"
    )
    for name, samples in (("reveal", reveals), ("search", searches)):
        p90 = statistics.quantiles(samples, n=10)[-1] * 1000
        print(
            f"  drill {name:6s} -> painted                  median {med[name]:7.2f} ms  "
            f"(n={len(samples)}; p90 {p90:.1f} ms; max {max(samples) * 1000:.1f} ms)"
        )
    print(
        "  drill's first search of each session (shows the browser built meanwhile, or builds it): "
        + ", ".join(f"{s * 1000:.0f}" for s in firsts)
        + " ms"
    )
    for name, base_name in (("reveal", "update"), ("search", "update"), ("search", "push")):
        ratio = med[name] / med[base_name]
        verdict = "ok" if ratio <= 1.5 else "OVER GOAL"
        print(f"ratio {name} / bare {base_name}: {ratio:.2f}x   (goal <= 1.5x: {verdict})")


if __name__ == "__main__":
    main()
