"""The `drill` console script and `python -m drill`: the click group in drill.cli.

`drill --help` goes through click like every other command (about 0.15 s), in the UI language drill.cli
chooses before click parses; the group loads a subcommand's module only when that subcommand runs, so the
help imports neither textual, numpy nor sqlalchemy.

Before that, two settings for drill's own process (`tune_process`), both about what a command costs before
its first screen or line, none about what it computes:

- Python's cyclic collector runs its youngest pass every 100,000 new container objects instead of every 700.
  A start makes some 100k of them (textual's, sqlalchemy's, numpy's and drill's modules, the content, the
  first screen), nearly all kept for the life of the process, and at the default the
  collector walked them again and again: about 150 passes before a quiz's first question (70-80 ms of CPU,
  one full pass of the heap, 35 ms, among them), 130 in `drill optimize` at 20k reviews (60-85 ms). A TUI
  freezes what it holds once its app is built (`DrillApp.run`), so its start runs no pass at all
  (tests/tui/test_start_collector.py). Garbage in cycles is still collected, in larger batches.
- OpenBLAS keeps its idle threads spinning for 2^28 cycles after numpy loads it and after each threaded call
  (``OPENBLAS_THREAD_TIMEOUT``, default 28): about 0.1 s of a second core's CPU at every `import numpy`, on
  machines whose other core is running the screen. drill's matrices are a few dozen numbers, and the engine's
  big traces run their blocks on its own pool with BLAS at one thread each (drill.engine.parallel): the spin
  saves drill at most a thread's wake-up (microseconds) per threaded call. With 2^4 cycles the threads sleep
  at once. The thread count is left alone.
  A value the user set wins.
"""

from __future__ import annotations

import gc
import os

COLLECTOR_THRESHOLDS = (100_000, 10, 10)  # Python's defaults: (700, 10, 10)
OPENBLAS_SPIN = "4"  # log2 of the cycles an idle OpenBLAS thread spins before it sleeps (4 is its minimum)

__all__ = ["main"]


def tune_process() -> None:
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", OPENBLAS_SPIN)  # read when numpy loads OpenBLAS


def main(argv: list[str] | None = None) -> None:
    tune_process()
    from drill.cli import main as run

    run(argv)
