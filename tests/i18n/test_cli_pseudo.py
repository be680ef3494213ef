"""Every word the command line shows goes through the catalog: each `--help` (every command and subcommand)
and the messages of the commands, run under the pseudo-locale, hold no word of drill's own outside ⟦…⟧."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from drill.cli import COMMANDS, cli
from drill.engine.examples import EXAMPLES, build_example
from drill.i18n_click import DrillCommand, DrillGroup
from tests.i18n.pseudo import unmarked_words

# Commands whose help does not go through the catalog yet (they need cls=DrillCommand and N_() help texts).
NOT_YET_TRANSLATED: set[str] = set()

# What a help page shows that is not a sentence: option names, metavars and click's type names (upper case),
# choices, the program's and commands' own names, and click's number type names.
HELP_TOKENS = (
    r"--?[\w-]+",
    r"\b[A-Z][A-Z0-9_]*(\.apkg)?\b",
    r"\[en\|zh\]",
    r"md\|html\|json\|csv",
    r"\bdrill\b",
    r"\binteger\b",
    r"(?m)\b[\w-]+(?=\]\s*$)",  # a flag's default value, "[default: shuffle]"
)


def command_paths() -> list[list[str]]:
    """Every command line that has a help page: the group, each command, each subcommand of a group."""
    paths: list[list[str]] = [[]]
    for name in COMMANDS:
        if name in NOT_YET_TRANSLATED:
            continue
        command = cli.get_command(click.Context(cli), name)
        paths.append([name])
        if isinstance(command, click.Group):
            paths += [[name, sub] for sub in command.list_commands(click.Context(command))]
    return paths


def test_only_the_known_commands_miss_the_catalog():
    plain = {
        name
        for name in COMMANDS
        if not isinstance(cli.get_command(click.Context(cli), name), DrillCommand | DrillGroup)
    }
    assert plain <= NOT_YET_TRANSLATED


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "drill")
def test_every_help_page_is_translated(pseudo, path):
    result = CliRunner().invoke(cli, ["--lang", "zh", *path, "--help"], prog_name="drill", terminal_width=100)
    assert result.exit_code == 0, result.output
    assert "⟦" in result.output
    listed = command_paths()
    names = tuple(rf"\b{name}\b" for names in listed for name in names)  # a group's page lists them
    names += tuple(rf"(?m)^  {name} .*$" for name in NOT_YET_TRANSLATED)  # their line in the list
    assert unmarked_words(result.output, allowed=HELP_TOKENS + names) == []


EXAMPLE_NAMES = tuple(EXAMPLES)
STEP_IDS = tuple(step.name for step in build_example("worked").steps)  # ids the user types to --step

ERRORS = [
    (["calc", "--plain", "--json"], ()),
    (["calc", "--heads", "0", "--x", "1,0"], ()),
    (["calc", "--heads", "2", "--kv-heads", "3", "--x", "1,0"], ()),
    (["calc", "--tokens", "0"], ()),
    (["calc", "--d-model", "3", "--heads", "2", "--seed", "1"], ()),
    (["calc", "--example", "worked", "--causal"], ()),
    (["calc", "--seed", "1", "--x", "1,0"], ()),
    (["calc", "--step", "nosuchstep", "--plain"], ("nosuchstep", *STEP_IDS)),
    (["calc", "--decimals", "99"], ()),
    (["calc", "--plain", "--x", "1,0;0,1", "--wq", "1,0,0;0,1,0"], ()),  # the engine's shape check
    (["calc", "--plain", "--x", "1,0;0,1", "--wo", "1,0,0"], ()),
    (["report", "--format", "xx"], ("xx",)),
    (["report", "-o", "out.xyz"], ("out.xyz", ".xyz")),
    (["report", "-o", "noext"], ("noext",)),
    (["report", "--format", "terminal", "-o", "out.md"], ("out.md",)),
    (["report", "--section", " "], ()),
    (["export", "--anki", "deck.txt"], ("deck.txt",)),
    (["quiz", "--seconds", "soon"], ("soon",)),
    (["study", "--sed", "1"], ("sed", "seed")),
    (["nosuchcommand"], ("nosuchcommand",)),
    (["config", "set"], ()),
    # the engine's own input messages (engine/parse.py, the example and task registries)
    (["quiz", "--count", "abc"], ("abc",)),
    (["quiz", "--count", "\u0663"], ("U+0663 ARABIC-INDIC DIGIT THREE",)),
    (["calc", "--plain", "--x", "1,2;3"], ()),
    (["calc", "--plain", "--x", "1,a"], ()),
    (["calc", "--plain", "--x", "1,,2"], ()),
    (["calc", "--plain", "--x", "1e999"], ()),
    (["calc", "--plain", "--x", "1,0;0,1", "--pad", "1,2"], ()),
    (["calc", "--plain", "--x", "1,0;0,1", "--pad", "1,1,0"], ()),
    (["calc", "--plain", "--example", "nosuch"], EXAMPLE_NAMES),
    (["code"], ()),
    (["code", "softmax", "--check", "/nonexistent/x.py"], ("/nonexistent/x.py", "No such file or directory")),
]


@pytest.mark.parametrize("args,exempt", ERRORS, ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_every_command_line_error_is_translated(pseudo, args, exempt):
    result = CliRunner().invoke(cli, ["--lang", "zh", *args], prog_name="drill")
    assert result.exit_code == 2, result.output
    assert "⟦" in result.output
    words = unmarked_words(
        result.output, exempt=exempt, allowed=HELP_TOKENS + tuple(rf"\b{a}\b" for a in args)
    )
    assert words == [], result.output


def test_config_show_and_set_are_translated(pseudo):
    runner = CliRunner()
    shown = runner.invoke(cli, ["--lang", "zh", "config"], prog_name="drill")
    assert shown.exit_code == 0, shown.output
    keys = tuple(line.split()[0] for line in shown.output.splitlines()[2:])
    assert "desired_retention" in keys
    # values as the user types them: numbers, durations, true/false, choices; the config file's path
    values = (
        r"\b\d+[smhd]\b", r"\btrue\b", r"\bfalse\b", r"\bsuspend\b", r"\bmixed\b", r"/\S+",
        r"\b(recall|explain|calculate|code)=[\d.]+",  # new_mix: skill=weight, as typed
    )  # fmt: skip
    assert unmarked_words(shown.output, exempt=keys, allowed=values) == []
    written = runner.invoke(cli, ["--lang", "zh", "config", "set", "day_starts_at", "5"], prog_name="drill")
    assert written.exit_code == 0, written.output
    assert unmarked_words(written.output, exempt=("day_starts_at",), allowed=(r"/\S+",)) == []
