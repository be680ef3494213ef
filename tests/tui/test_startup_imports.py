"""`drill study` paints its shell before sqlalchemy or numpy are imported, then shows a question.

Runs the real command on a pseudo-terminal (the benchmark's runner) and reads the milestones the app records.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

STARTUP = Path(__file__).resolve().parents[2] / "benchmarks" / "startup.py"


def load_runner():
    spec = importlib.util.spec_from_file_location("drill_startup_bench", STARTUP)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run_in_pty


def test_first_paint_comes_before_sqlalchemy_and_numpy(tmp_path):
    run_in_pty = load_runner()
    env = dict(os.environ, DRILL_EXIT_AFTER="question")
    marks = run_in_pty([sys.executable, "-m", "drill", "study"], env, tmp_path / "marks.txt", size=(100, 30))
    assert set(marks) == {"paint", "question"}
    paint_time, heavy_at_paint = marks["paint"]
    question_time, heavy_at_question = marks["question"]
    assert heavy_at_paint == "-"  # neither sqlalchemy nor numpy before the first paint
    assert "sqlalchemy" in heavy_at_question  # the store is open when the question shows
    assert paint_time < question_time


def test_exit_after_paint_stops_cleanly_at_the_first_paint(tmp_path):
    run_in_pty = load_runner()
    env = dict(os.environ, DRILL_EXIT_AFTER="paint")
    marks = run_in_pty([sys.executable, "-m", "drill", "study"], env, tmp_path / "marks.txt")
    assert list(marks) == ["paint"]
