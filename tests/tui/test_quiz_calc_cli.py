"""`drill quiz` and `drill calc` run for real on a pseudo-terminal (benchmarks/ptyrun.py reads the screen): the
quiz's shell is drawn while sqlalchemy's and numpy's imports are held (`HeldTerminal`), its question follows once
they load; calc shows its example; both exit cleanly. Bad options exit 2."""

from __future__ import annotations

import os
import re

from click.testing import CliRunner

from drill.cli import cli as cli_main
from tests.tui.conftest import ptyrun

SIZE = (100, 30)


def test_quiz_paints_before_numpy_and_sqlalchemy(tmp_path):
    from tests.tui.test_quiz_first_question import opening_seed

    seed = opening_seed(chapter_first=True, generated=2)  # a chapter question first: no engine needed for it
    args = ["quiz", "--seed", str(seed), "--generated", "2", "--seconds", "30"]
    with ptyrun().HeldTerminal(args, dict(os.environ), tmp_path / "loaded", size=SIZE) as term:
        term.wait_for(re.compile(r"question 1/\d+"))
        assert term.loaded() == set()
        term.release()
        term.wait_for(lambda screen: "numpy" in term.loaded())  # the worker makes the generated ones after
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0


def test_calc_runs_on_a_terminal():
    reader = ptyrun()
    with reader.Terminal(
        [reader.drill_command(), "calc", "--example", "mha"], dict(os.environ), SIZE
    ) as term:
        term.wait_for(re.compile(r"drill calc · S=\d+ d=\d+"))  # the example's trace is on the screen
        term.press("q", pause=0)
        term.wait_for_exit()
    assert term.result.code == 0


def test_bad_quiz_options_exit_2():
    runner = CliRunner()
    result = runner.invoke(cli_main, ["quiz", "--seconds", "0"])
    assert result.exit_code == 2 and "--seconds" in result.output
    result = runner.invoke(cli_main, ["quiz", "--generated", "-1"])
    assert result.exit_code == 2


def test_bad_calc_inputs_exit_2_before_the_screen():
    reader = ptyrun()
    with reader.Terminal([reader.drill_command(), "calc", "--x", "1,0;0,x"], dict(os.environ), SIZE) as term:
        term.wait_for_exit()
    assert term.result.code == 2
