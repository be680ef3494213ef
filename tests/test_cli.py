"""The CLI as a user meets it: --help lists every subcommand; errors are one line and exit 2."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from drill.cli import COMMANDS, cli


def test_help_lists_every_subcommand():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "drill", "--version"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "drill" in out.stdout
