"""`drill code` timings, as ratios against baselines measured in the same run (medians of interleaved runs).

- `drill code softmax --check FILE` as a whole command (a new process, the reference solution in FILE) vs
  `python -c "import numpy"` (goal <= 3x). Timed with --no-save and with the default save (the attempt is
  written by a detached process after the command has printed; the script waits for it between runs, untimed).
- The code screen's run-to-results for task 2 (attention): ctrl+r pressed -> results on screen, in a headless
  app (Textual's run_test) with the reference solution in the editor (goal <= 1.5 s), printed as a ratio to
  the same child process doing nothing (the runner started the same way on a no-op function with no cases).

    python benchmarks/code_bench.py [--runs 9]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(argv: list[str], env: dict[str, str], expect: int = 0) -> float:
    start = time.monotonic()
    rc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    elapsed = time.monotonic() - start
    if rc != expect:
        raise SystemExit(f"{argv}: exit {rc}, expected {expect}")
    return elapsed


def wait_for_writers(data: Path) -> None:
    pending = data / "pending-code-attempts"
    for _ in range(600):
        if not pending.exists() or not os.listdir(pending):
            return
        time.sleep(0.05)
    raise SystemExit("the detached attempt writers did not finish")


def cli(runs: int) -> None:
    from drill.engine.codetasks import get_task

    drill = shutil.which("drill") or sys.exit("drill is not installed in this environment")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        sol = tmp / "softmax_solution.py"
        sol.write_text(get_task("softmax").solution(), encoding="utf-8")
        env = dict(os.environ, DRILL_DATA_DIR=str(tmp / "data"), DRILL_CONFIG_DIR=str(tmp / "config"))
        base, nosave, save = [], [], []
        timed([drill, "code", "softmax", "--check", str(sol)], env)  # warm: creates the database once
        wait_for_writers(tmp / "data")
        for _ in range(runs):
            base.append(timed([sys.executable, "-c", "import numpy"], env))
            nosave.append(timed([drill, "code", "softmax", "--check", str(sol), "--no-save"], env))
            save.append(timed([drill, "code", "softmax", "--check", str(sol)], env))
            wait_for_writers(tmp / "data")
    b = statistics.median(base)
    print(f"python -c 'import numpy'                 median {b * 1000:7.1f} ms")
    for name, xs in (
        ("drill code softmax --check (--no-save)", nosave),
        ("drill code softmax --check (saves)", save),
    ):
        m = statistics.median(xs)
        verdict = "ok" if m <= 3 * b else "OVER"
        print(f"{name:<40} median {m * 1000:7.1f} ms  ratio {m / b:4.2f}x  (goal <= 3x: {verdict})")


async def tui(runs: int) -> None:
    from textual.widgets import TextArea

    from drill.engine.codetasks import get_task
    from drill.runner import run_submission
    from drill.tui.app import make_app

    task = get_task("attention")
    screen_times, noop_times = [], []
    app = make_app("code", task="attention", db_url="sqlite:///:memory:")
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        screen.query_one("#code-editor", TextArea).load_text(task.solution())
        for _ in range(runs + 1):
            start = time.monotonic()
            run_submission("def f():\n    pass\n", "f", [])
            noop_times.append(time.monotonic() - start)
            done = screen.runs
            start = time.monotonic()
            await pilot.press("ctrl+r")
            while screen.runs == done:
                await pilot.pause(0.005)
            screen_times.append(time.monotonic() - start)
            assert screen.verdict is not None and screen.verdict.all_passed
            screen.query_one("#code-editor", TextArea).focus()
    screen_times, noop_times = screen_times[1:], noop_times[1:]  # the first run warms the imports
    s, n = statistics.median(screen_times), statistics.median(noop_times)
    verdict = "ok" if s <= 1.5 else "OVER"
    print(f"runner child doing nothing               median {n * 1000:7.1f} ms")
    print(
        f"code screen ctrl+r -> results (task 2)   median {s * 1000:7.1f} ms  ratio {s / n:4.2f}x  "
        f"(goal <= 1.5 s: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    cli(args.runs)
    asyncio.run(tui(args.runs))


if __name__ == "__main__":
    main()
