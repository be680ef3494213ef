"""A user who types `drill`, or a group's name alone (`drill cards`), asked for help: it is shown, translated
as ``--help`` is, on standard output, with exit 0 -- the same page ``--help`` prints. A wrong command stays
drill's one line on stderr with exit 2. Each is run as a real process, in English and in Chinese."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest

from tests.test_cli_refusals import COMMANDS, one_line

# Every group that needs its command (walked, so a new group is covered); `drill config` alone shows the
# settings instead (invoke_without_command).
GROUPS = [(), *(path for path, cmd in COMMANDS.items() if isinstance(cmd, click.Group))]
NEEDS_COMMAND = [path for path in GROUPS if not path or not COMMANDS[path].invoke_without_command]
LOCALES = {"en": "en_US.UTF-8", "zh": "zh_CN.UTF-8"}


def drill(*args: str, lang: str) -> subprocess.CompletedProcess[str]:
    """`drill ARGS` under a locale (the tests' own config folder: no ui.language setting)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG=LOCALES[lang], COLUMNS="100")
    return subprocess.run(
        [sys.executable, "-m", "drill", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def test_the_groups_are_walked():
    assert () in NEEDS_COMMAND and ("cards",) in NEEDS_COMMAND and ("config",) not in NEEDS_COMMAND


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", NEEDS_COMMAND, ids=lambda p: " ".join(("drill", *p)))
def test_a_group_alone_prints_its_help_and_exits_0(path, lang):
    bare = drill(*path, lang=lang)
    asked = drill(*path, "--help", lang=lang)
    assert asked.returncode == 0, asked.stderr
    assert (bare.returncode, bare.stderr) == (0, ""), bare.stderr
    assert bare.stdout == asked.stdout
    usage = {"en": "Usage: drill", "zh": "用法: drill"}[lang]
    assert bare.stdout.startswith(f"{usage} {' '.join(path)}".rstrip())


def test_options_without_a_command_print_the_help_too():
    """`drill --lang zh` names no command either: the Chinese help, exit 0 (click said "Missing command")."""
    bare = drill("--lang", "zh", lang="en")
    assert (bare.returncode, bare.stderr) == (0, "")
    assert bare.stdout == drill("--help", lang="zh").stdout and "用法" in bare.stdout


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", NEEDS_COMMAND, ids=lambda p: " ".join(("drill", *p)))
def test_a_wrong_command_stays_one_line_with_exit_2(path, lang):
    out = drill(*path, "nosuchcommand", lang=lang)
    prefix = {"en": "drill: error: ", "zh": "drill: 错误: "}[lang]
    see = " ".join(("drill", *path, "--help"))
    one_line(out, "'nosuchcommand'", see, prefix=prefix)
