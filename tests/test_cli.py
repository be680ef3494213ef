"""The CLI as a user meets it: --help lists every subcommand; errors are one line and exit 2."""

from __future__ import annotations

import os
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


def test_cached_help_text_is_what_click_prints():
    """drill.entry answers `drill --help` from drill/help_text.py without importing click; it must be the
    same text click renders, in every UI language (regenerate help_text.py as its docstring says)."""
    from drill.cli import render_help
    from drill.help_text import HELP_TEXTS
    from drill.i18n import LANGUAGES

    assert set(HELP_TEXTS) == set(LANGUAGES)
    for language in LANGUAGES:
        assert HELP_TEXTS[language] == render_help(language)


def test_help_on_a_wide_terminal_is_the_cached_text_and_imports_no_click():
    from drill.help_text import HELP_TEXTS

    code = (
        "import sys\nfrom drill.entry import main\nmain(['--help'])\n"
        "sys.stderr.write('click loaded' if 'click' in sys.modules else 'no click')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "COLUMNS": "120"}
    )
    assert out.returncode == 0
    assert out.stdout == HELP_TEXTS["en"]
    assert out.stderr == "no click"


def test_help_on_a_narrow_terminal_goes_through_click():
    out = subprocess.run(
        [sys.executable, "-m", "drill", "--help"], capture_output=True, text=True, env={**os.environ, "COLUMNS": "60"}
    )
    assert out.returncode == 0
    assert max(len(line) for line in out.stdout.splitlines()) <= 60
    assert "Commands:" in out.stdout


def test_other_arguments_reach_click():
    out = subprocess.run([sys.executable, "-m", "drill", "nosuchcommand"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "No such command" in out.stderr
