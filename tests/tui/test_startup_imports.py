"""`drill study` paints its shell before sqlalchemy or numpy are imported, then shows a question.

Runs the installed command on a pseudo-terminal (benchmarks/ptyrun.py, the benchmarks' runner) and reads the
milestones the app records.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tests.tui.conftest import ptyrun

DRILL = str(Path(sys.executable).with_name("drill"))


def test_first_paint_comes_before_sqlalchemy_and_numpy(tmp_path):
    env = dict(os.environ, DRILL_EXIT_AFTER="question")
    marks = ptyrun().run_in_pty([DRILL, "study"], env, tmp_path / "marks.txt", size=(100, 30)).marks
    assert set(marks) == {"paint", "card", "question"}
    paint_time, heavy_at_paint = marks["paint"]
    question_time, _heavy = marks["question"]
    assert heavy_at_paint == "-"  # neither sqlalchemy nor numpy before the first paint
    assert paint_time < question_time


def test_first_ever_start_shows_its_question_before_sqlalchemy(tmp_path):
    """No database and no content cache yet: the first question is the content's first new card, shown
    before the store (sqlalchemy) is loaded; the store, opened afterwards, agrees and creates the database."""
    env = dict(os.environ, DRILL_EXIT_AFTER="ready")
    run = ptyrun().run_in_pty([DRILL, "study"], env, tmp_path / "marks.txt", size=(100, 30))
    names = [mark.name for mark in run.all_marks]
    assert names[:3] == ["paint", "card", "question"]
    assert run.marks["question"][1] == "-"
    assert names[-1] == "ready" and names.count("card") == 1  # the store chose the peeked card: no swap
    assert "sqlalchemy" in run.marks["ready"][1]


def test_exit_after_paint_stops_cleanly_at_the_first_paint(tmp_path):
    env = dict(os.environ, DRILL_EXIT_AFTER="paint")
    run = ptyrun().run_in_pty([DRILL, "study"], env, tmp_path / "marks.txt")
    assert list(run.marks) == ["paint"]
