"""`drill quiz` and `drill calc` run for real on a pseudo-terminal: the first paint comes before numpy and
sqlalchemy are imported (quiz), the question follows, and the app exits cleanly. Bad options exit 2."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from click.testing import CliRunner

from drill.cli import cli as cli_main
from tests.tui.conftest import ptyrun

DRILL = str(Path(sys.executable).with_name("drill"))


def run_in_pty(argv: list[str], marks: Path, exit_after: str) -> tuple[int, dict[str, str]]:
    """Run argv on a 100×30 pseudo-terminal until the milestone is painted; (exit code, {milestone: heavy
    modules})."""
    env = dict(os.environ, DRILL_EXIT_AFTER=exit_after)
    run = ptyrun().run_in_pty(argv, env, marks, size=(100, 30), check=False)
    return run.code, {name: heavy for name, (_at, heavy) in run.marks.items()}


def test_quiz_paints_before_numpy_and_sqlalchemy(tmp_path):
    code, seen = run_in_pty(
        [DRILL, "quiz", "--seed", "1", "--generated", "2", "--seconds", "30"], tmp_path / "marks", "question"
    )
    assert code == 0
    assert seen["paint"] == "-"  # nothing heavy in front of the first paint
    assert set(seen["question"].split(",")) == {"sqlalchemy", "numpy"}  # loaded by the worker afterwards


def test_calc_runs_on_a_terminal(tmp_path):
    code, seen = run_in_pty([DRILL, "calc", "--example", "mha"], tmp_path / "marks", "question")
    assert code == 0 and "question" in seen


def test_bad_quiz_options_exit_2():
    runner = CliRunner()
    result = runner.invoke(cli_main, ["quiz", "--seconds", "0"])
    assert result.exit_code == 2 and "--seconds" in result.output
    result = runner.invoke(cli_main, ["quiz", "--generated", "-1"])
    assert result.exit_code == 2


def test_bad_calc_inputs_exit_2_before_the_screen(tmp_path):
    code, _ = run_in_pty([DRILL, "calc", "--x", "1,0;0,x"], tmp_path / "marks", "question")
    assert code == 2
