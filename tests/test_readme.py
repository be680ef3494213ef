"""The README's command table names every command `drill --help` lists, and the completion it documents works."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from drill.cli import cli

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_command_table_lists_every_command():
    table = README.read_text(encoding="utf-8").split("## Commands", 1)[1]
    listed = set(re.findall(r"`drill ([a-z]+)", table))
    commands = set(cli.list_commands(None))  # the lazy group's own list
    assert commands and commands <= listed, sorted(commands - listed)
    assert "`drill --version`" in table and "drill.sqlite3" in table


def test_bash_completion_as_documented():
    script = CliRunner().invoke(cli, [], prog_name="drill", env={"_DRILL_COMPLETE": "bash_source"})
    assert script.exit_code == 0 and "_drill_completion" in script.output
    assert "_DRILL_COMPLETE=bash_source drill" in README.read_text(encoding="utf-8")
