"""`drill quiz` and `drill calc` run for real on a pseudo-terminal: the first paint comes before numpy and
sqlalchemy are imported (quiz), the question follows, and the app exits cleanly. Bad options exit 2."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

from click.testing import CliRunner

from drill.cli import cli as cli_main

DRILL = str(Path(sys.executable).with_name("drill"))


def run_in_pty(argv: list[str], marks: Path, exit_after: str) -> tuple[int, dict[str, str]]:
    """Run argv on a 100×30 pseudo-terminal until the milestone is painted; {milestone: heavy modules}."""
    marks.write_text("")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = dict(os.environ, DRILL_BENCH_MARKS=str(marks), DRILL_EXIT_AFTER=exit_after, TERM="xterm-256color")

    def drain() -> None:  # the terminal must be read or the app blocks writing to it
        try:
            while os.read(master, 65536):
                pass
        except OSError:
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    try:
        code = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(timeout=5)
    os.close(master)
    seen = {}
    for line in marks.read_text().splitlines():
        name, _stamp, heavy = line.split()
        seen[name] = heavy
    return code, seen


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
