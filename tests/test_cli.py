"""The CLI as a user meets it: --help lists every subcommand; errors are one line and exit 2."""

from __future__ import annotations

import os
import subprocess
import sys

from drill.cli import COMMANDS


def run_drill(*args: str, columns: int | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m drill ARGS` as a new process (the console script's code path: drill.entry)."""
    env = dict(os.environ)
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run([sys.executable, "-m", "drill", *args], capture_output=True, text=True, env=env)


def test_help_lists_every_subcommand():
    out = run_drill("--help", columns=120)
    assert out.returncode == 0, out.stderr
    listed = out.stdout.split("Commands:", 1)[1].split()
    for name in COMMANDS:
        assert name in listed


def test_console_script_runs():
    out = run_drill("--version")
    assert out.returncode == 0
    assert "drill" in out.stdout


def test_help_wraps_to_a_narrow_terminal():
    out = run_drill("--help", columns=60)
    assert out.returncode == 0
    assert max(len(line) for line in out.stdout.splitlines()) <= 60
    assert "Commands:" in out.stdout


def test_other_arguments_reach_click():
    out = run_drill("nosuchcommand")
    assert out.returncode == 2
    assert "No such command" in out.stderr
