"""A screen's start runs no pass of Python's cyclic collector before its first question is on the terminal.

The start makes some 100k objects that live as long as the process (textual's, numpy's and drill's modules,
the content, the first screen); at Python's default thresholds the collector walked them 150 times before the
first question of a quiz (68-81 ms of its CPU, one full pass of the heap among them). drill.entry raises the
youngest pass's threshold and `DrillApp.run` freezes what the process holds once the app is built.

drill runs from its console entry point on a pseudo-terminal (benchmarks/ptyrun.py), with a collector callback
that counts the passes; SIGUSR1 asks it how many it has counted so far (as the held-imports terminal asks which
modules are loaded). The test reads the screen as a person does.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.tui.conftest import STUDY_QUESTION, ptyrun

COUNTED = """
import gc, os, signal, sys
passes = []
gc.callbacks.append(lambda phase, info: phase == "stop" and passes.append(info["generation"]))

def said(signum, frame):
    with open(os.environ["PASSES_REPORT"], "a", encoding="ascii") as out:
        out.write(",".join(map(str, passes)) + ";" + ",".join(map(str, gc.get_threshold())) + "\\n")

signal.signal(signal.SIGUSR1, said)
sys.argv = ["drill", *sys.argv[1:]]
from drill.entry import main
main()
"""

QUESTION = re.compile(r"question 1/\d+")
SIZE = (100, 30)
STARTS = {
    "study": (["study"], STUDY_QUESTION, "q"),
    # seed 2 asks a generated question first: numpy and the engine are loaded before that paint
    "quiz, a generated question first": (["quiz", "--seed", "2"], QUESTION, "q"),
    "quiz, a chapter question first": (["quiz", "--seed", "1"], QUESTION, "q"),
    "interview": (["interview", "--seed", "1"], QUESTION, "\x11"),
}


def passes_so_far(term, report: Path, timeout: float = 30.0) -> tuple[list[int], tuple[int, ...]]:
    """The generations of the collector's passes so far, and its thresholds, as the program says them."""
    before = len(report.read_text().splitlines())
    term.signal(signal.SIGUSR1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = report.read_text()
        lines = text.splitlines()
        if len(lines) > before and text.endswith("\n"):
            passes, thresholds = lines[before].split(";")
            return [int(g) for g in passes.split(",") if g], tuple(int(t) for t in thresholds.split(","))
        time.sleep(0.005)
    raise TimeoutError("drill did not say how many passes it has run")


@pytest.mark.parametrize("start", list(STARTS))
def test_no_collector_pass_before_the_first_question(tmp_path, start):
    args, awaited, quit_key = STARTS[start]
    report = tmp_path / "passes"
    report.write_text("")
    env = dict(os.environ, PASSES_REPORT=str(report))
    # the first start creates the database (and interview's saved order): the learner's second start is measured
    for _ in range(2):
        with ptyrun().Terminal([sys.executable, "-c", COUNTED, *args], env, size=SIZE) as term:
            term.wait_for(awaited)
            passes, thresholds = passes_so_far(term, report)
            term.press(quit_key, pause=0)
            term.wait_for_exit()
        assert term.result.code == 0
    assert thresholds[0] >= 100_000  # drill.entry's, not Python's 700
    assert passes == [], f"{start}: collector passes (generations) before the first question: {passes}"
