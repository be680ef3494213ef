"""click's own refusals of a command line are drill's one line (issue 11, left from item 13).

An unknown option, a value click's type refuses, an option without its value, a missing or an extra argument,
an unknown command: each used to print click's "Usage: … / Try '… --help' for help. / Error: …" block. Now each
is one line on stderr, ``drill: error: <command>: <click's message, naming the option and the value> (see
'drill <command> --help')``, exit 2, nothing on stdout, as drill's own errors are. Every subcommand (and every
sub-subcommand, found by walking the click groups, so a new one is covered) is tried as a real process.
"""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from drill.cli import cli

BOGUS = "--no-such-option-s4"


def commands(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], click.Command]:
    """Every command and group under ``group``, by the words that name it on the command line."""
    ctx = click.Context(group, info_name="drill")
    found = {}
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        found[(*prefix, name)] = command
        if isinstance(command, click.Group):
            found.update(commands(command, (*prefix, name)))
    return found


COMMANDS = commands()
PATHS = list(COMMANDS)


def run_drill(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "drill", "--lang", lang, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def one_line(out: subprocess.CompletedProcess[str], *fragments: str, prefix: str = "drill: error: ") -> str:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert out.stdout == "", out.stdout
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    line = lines[0]
    assert line.startswith(prefix), line
    assert "Usage:" not in line and "Traceback" not in out.stderr
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


def test_every_command_is_walked():
    top = {path[0] for path in PATHS}
    assert top == set(cli.list_commands(click.Context(cli)))
    assert ("cards", "unsuspend") in PATHS and len(PATHS) > len(top)


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_an_unknown_option_is_one_line_for_every_command(path):
    out = run_drill(*path, BOGUS)
    where = " ".join(path)
    line = one_line(out, f"drill: error: {where}: ", f"(see 'drill {where} --help')")
    if not COMMANDS[path].context_settings.get("ignore_unknown_options"):
        assert f"'{BOGUS}'" in line, line
    else:  # `config set KEY VALUE...` reads "--x" as its key (a value may start with "-"): VALUE is missing
        assert "Missing argument" in line, line


@pytest.mark.parametrize(
    "args,fragments",
    [
        pytest.param(("quiz", "--count", "abc"), ["quiz: ", "'--count'", "'abc'"], id="bad-value"),
        pytest.param(("calc", "--seed", "-1"), ["calc: ", "'--seed'", "-1 is not in the range"], id="range"),
        pytest.param(("quiz", "--count"), ["quiz: ", "'--count'", "requires an argument"], id="no-value"),
        pytest.param(("cards", "unsuspend"), ["cards unsuspend: ", "Missing argument 'ID...'"], id="no-arg"),
        pytest.param(("config", "set"), ["config set: ", "Missing argument 'KEY'"], id="no-key"),
        pytest.param(("report", "stray"), ["report: ", "unexpected extra argument (stray)"], id="extra-arg"),
        pytest.param(("nosuch",), ["No such command 'nosuch'", "(see 'drill --help')"], id="no-command"),
        pytest.param(("cards", "nosuch"), ["cards: ", "No such command 'nosuch'"], id="no-subcommand"),
        pytest.param((BOGUS, "quiz"), [f"'{BOGUS}'", "(see 'drill --help')"], id="group-option"),
    ],
)
def test_each_kind_of_refusal_is_one_line_naming_what_is_wrong(args, fragments):
    one_line(run_drill(*args), *fragments)


def test_a_bad_choice_for_the_global_language_option():
    out = subprocess.run(
        [sys.executable, "-m", "drill", "--lang", "xx", "quiz"], capture_output=True, text=True, timeout=120
    )
    one_line(out, "'--lang'", "'xx'", "(see 'drill --help')")


def test_control_and_bidi_characters_in_a_refused_option_are_shown_as_stand_ins():
    out = run_drill("report", "stray\x1b[31m\u202e")  # click echoes extra arguments as they are
    line = one_line(out, "report: ", "unexpected extra argument")
    assert "\x1b" not in out.stderr and "\u202e" not in out.stderr
    assert "stray␛[31m<U+202E>" in line


def test_the_refusal_is_in_the_ui_language():
    out = run_drill("quiz", "--count", "abc", lang="zh")
    line = one_line(out, "quiz: ", "'--count'", "'abc'", prefix="drill: 错误: ")
    assert "（见 'drill quiz --help'）" in line and "Invalid value" not in line


def test_the_app_factory_refuses_the_same_way_in_process():
    """The group the console script runs is the one tests invoke: CliRunner sees the same single line."""
    result = CliRunner().invoke(cli, ["quiz", "--count", "abc"], prog_name="drill")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "drill: error: quiz: Invalid value for '--count': 'abc' is not a whole number (see 'drill quiz --help')"
    ]


def test_a_group_without_its_command_still_shows_its_help():
    """Not a refusal: `drill cards` alone lists what it can do, as click shows it (help, not an error line)."""
    out = run_drill("cards")
    assert "Usage:" in out.stdout + out.stderr and "drill: error" not in out.stderr
