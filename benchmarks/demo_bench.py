"""`drill demo`: a control moved one key at a time, as a reader moves it, and the demos' start-up, each against a plain
Textual app showing the same screens and taking the same keys, in the same run.

Both programs run as new processes on a 120x40 pseudo-terminal (benchmarks/ptyrun.py). The awaited screen is
the one drill settles on (captured in a warm-up session on the same terminal; compared without its blanks), so a
time is "key written (or spawn) -> the first bytes after which the whole screen is drawn" — no milestones inside
either program. A move is → then ← alternately (the control stays in its range), each after a reader's pause of
0.3 s; drill's move is the real one (the engine recomputes the demo, the controls, tables and plot are
redrawn). The baseline (benchmarks/baseline_app.py) shows drill's text in one plain Static.

    python benchmarks/demo_bench.py [--demo softmax] [--control 0] [--rounds 3] [--moves 8]
    python benchmarks/demo_bench.py --start [--runs 5]

``--start`` times start-up instead: `drill demo` (the list drawn), `drill demo mha` (a demo without a plot) and
`drill demo softmax` (a plot demo), each against the baseline showing the same first screen. ``--control N``
moves the demo's N-th control (0-based; tab is pressed N times first).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline_app import write_frames
from ptyrun import Terminal, changed_from, drill_command, home_env, load_average, median_ms

BASELINE = str(Path(__file__).resolve().parent / "baseline_app.py")
RIGHT, LEFT = "\x1b[C", "\x1b[D"
KEY_NAMES = {RIGHT: "right", LEFT: "left"}
STARTS = {
    "drill demo (the list)": ["demo"],
    "drill demo mha": ["demo", "mha"],
    "drill demo softmax": ["demo", "softmax"],
}


def bare(screen: str) -> str:
    return re.sub(r"\s+", "", screen)


def showing(frame: str) -> Callable[[str], bool]:
    """The screen is ``frame`` (blanks aside: a wide character's width is the emulator's guess)."""
    want = bare(frame)
    return lambda screen: bare(screen) == want


def drill_screens(drill: str, env: dict[str, str], args: list[str], control: int) -> tuple[str, str, str]:
    """drill's settled screens: as opened (control focused), after →, after ← again."""
    with Terminal([drill, *args], env) as term:
        term.wait_for("→")
        term.settled(quiet=1.0)
        for _ in range(control):
            term.press("\t")
        start = term.settled(quiet=1.0)
        term.wait_for(changed_from(start), after=term.press(RIGHT), timeout=30)
        moved = term.settled(quiet=1.0)
        term.wait_for(changed_from(moved), after=term.press(LEFT), timeout=30)
        back = term.settled(quiet=1.0)
        term.press("q")
    return start, moved, back


def moves(term: Terminal, start: str, moved: str, back: str, count: int, out: list[float]) -> None:
    term.wait_for(showing(start))
    for n in range(count):
        key, frame = (RIGHT, moved) if n % 2 == 0 else (LEFT, back)
        sent = term.press(key)
        out.append(term.wait_for(showing(frame), after=sent) - sent)
    term.press("q")
    if term.finish().code != 0:
        raise SystemExit(f"{term.argv} exited {term.result.code}")


def move_times(args: argparse.Namespace, drill: str, tmp_path: Path) -> None:
    env = home_env(os.environ, tmp_path / "home")
    demo_args = ["demo", args.demo]
    start, moved, back = drill_screens(drill, env, demo_args, args.control)
    frames = write_frames(tmp_path / "demo.json", start, [(KEY_NAMES[RIGHT], moved), (KEY_NAMES[LEFT], back)])
    times: dict[str, list[float]] = {"baseline": [], "drill": []}
    for _round in range(args.rounds):
        with Terminal([sys.executable, BASELINE, str(frames)], os.environ) as term:
            moves(term, start, moved, back, args.moves, times["baseline"])
        with Terminal([drill, *demo_args], env) as term:
            term.wait_for("→")
            for _ in range(args.control):
                term.press("\t")
            moves(term, start, moved, back, args.moves, times["drill"])
    drill_ms, base_ms = median_ms(times["drill"]), median_ms(times["baseline"])
    print(
        f"{load_average()}; {args.rounds} sessions each of {args.moves} moves, interleaved, each after 0.3 s:"
    )
    print(f"  plain Textual, the same screen          {base_ms:7.1f} ms")
    print(
        f"  drill demo {args.demo}, control {args.control} moved   {drill_ms:7.1f} ms   {drill_ms / base_ms:.2f}x"
    )


def start_times(runs: int, drill: str, tmp_path: Path) -> None:
    env = home_env(os.environ, tmp_path / "home")
    first: dict[str, str] = {}
    frames: dict[str, Path] = {}
    for n, (name, args) in enumerate(STARTS.items()):  # warm-up: file caches; drill's first screens
        with Terminal([drill, *args], env) as term:
            term.wait_for("Quit")
            first[name] = term.settled(quiet=1.0)
            term.press("q", pause=0)
        frames[name] = write_frames(tmp_path / f"start-{n}.json", first[name], [])
    times: dict[str, list[float]] = {f"{p} {name}": [] for name in STARTS for p in ("baseline", "drill")}
    for _run in range(runs):
        for name, args in STARTS.items():
            for who, argv in (
                ("baseline", [sys.executable, BASELINE, str(frames[name])]),
                ("drill", [drill, *args]),
            ):
                with Terminal(argv, env) as term:
                    times[f"{who} {name}"].append(term.wait_for(showing(first[name])) - term.start)
                    term.press("q", pause=0)
    print(f"{load_average()}; median of {runs} interleaved runs, spawn -> the whole first screen drawn:")
    for name in STARTS:
        drill_ms, base_ms = median_ms(times[f"drill {name}"]), median_ms(times[f"baseline {name}"])
        print(
            f"  {name:24s} drill {drill_ms:6.0f} ms   plain Textual {base_ms:6.0f} ms   {drill_ms / base_ms:.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo", default="softmax", help="the demo whose control is moved")
    parser.add_argument("--control", type=int, default=0, help="which control to move (0-based)")
    parser.add_argument("--rounds", type=int, default=3, help="sessions of each program, alternating")
    parser.add_argument("--moves", type=int, default=8, help="moves per session")
    parser.add_argument("--start", action="store_true", help="time start-up instead (see above)")
    parser.add_argument("--runs", type=int, default=5, help="start-up runs of each (with --start)")
    args = parser.parse_args()
    drill = drill_command()
    with tempfile.TemporaryDirectory() as tmp:
        if args.start:
            start_times(max(3, args.runs), drill, Path(tmp))
        else:
            move_times(args, drill, Path(tmp))


if __name__ == "__main__":
    main()
