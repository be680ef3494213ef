"""Which language drill speaks: `--lang`, else the `ui.language` setting, else the locale (LC_ALL, then
LC_MESSAGES, then LANG); and `drill --help` in that language on every path (locale, setting, --lang)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from drill import paths
from drill.cli import cli
from drill.i18n import (
    configured_language,
    language_from_args,
    language_from_environment,
    startup_language,
    text_width,
)
from drill.srs.config import load_config
from tests.i18n.test_cli_pseudo import command_paths


@pytest.mark.parametrize(
    "args,expected",
    [
        (["--lang", "zh", "study"], "zh"),
        (["--lang=en", "--help"], "en"),
        (["study", "--lang", "zh"], None),  # an option of the group only
        (["--lang", "fr"], None),  # click reports it
        (["--lang"], None),
        (["--version"], None),
    ],
)
def test_lang_option_is_read_before_click(args, expected):
    assert language_from_args(args) == expected


@pytest.mark.parametrize(
    "environ,expected",
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "zh"),
        ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}, "zh"),
        ({}, "en"),
    ],
)
def test_the_locale_decides_when_nothing_else_does(environ, expected):
    assert language_from_environment(environ) == expected


def write_config(text: str) -> None:
    path = paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_setting_beats_the_locale_and_the_option_beats_both():
    write_config('[ui]\nlanguage = "en"\n')
    assert startup_language(["study"], {"LANG": "zh_CN.UTF-8"}) == "en"
    assert startup_language(["--lang", "zh", "study"], {"LANG": "en_US.UTF-8"}) == "zh"
    write_config('ui.language = "zh"\n')  # the same table, written as a dotted key
    assert startup_language([], {}) == "zh"
    assert load_config().ui_language == "zh"


@pytest.mark.parametrize("text", ['[ui]\nlanguage = "fr"\n', "language = [oops\n", "\xff"])
def test_a_broken_setting_never_stops_drill_from_choosing_a_language(text):
    write_config(text)
    assert configured_language() is None
    assert startup_language([], {"LANG": "zh_CN.UTF-8"}) == "zh"


def run_drill(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "drill", *args], capture_output=True, text=True, env={**os.environ, **env}
    )


def help_in(language: str) -> str:
    """`drill --lang LANGUAGE --help` on a 120-column terminal: the help in that language, chosen explicitly."""
    out = run_drill("--lang", language, "--help", COLUMNS="120")
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_drill_config_sets_the_language_and_help_follows_it():
    out = run_drill("config", "set", "ui.language", "zh")
    assert out.returncode == 0, out.stderr
    assert paths.config_file().read_text(encoding="utf-8") == '[ui]\nlanguage = "zh"\n'
    assert run_drill("config", "get", "ui.language").stdout == "zh\n"
    assert run_drill("--help", COLUMNS="120").stdout == help_in("zh")
    assert run_drill("--lang", "en", "--help", COLUMNS="120").stdout == help_in("en") != help_in("zh")
    bad = run_drill("config", "set", "ui.language", "fr")
    assert bad.returncode == 2
    assert "ui.language" in bad.stderr and "allowed: en or zh" in bad.stderr
    assert run_drill("config", "reset", "ui.language").returncode == 0
    assert run_drill("--help", COLUMNS="120").stdout == help_in("en")


def test_a_chinese_locale_gets_chinese_help():
    out = run_drill("--help", COLUMNS="120", LANG="zh_CN.UTF-8")
    assert out.stdout == help_in("zh")
    assert "用法" in out.stdout


def test_help_finds_the_setting_where_platformdirs_puts_it(tmp_path):
    """With no DRILL_CONFIG_DIR, a language set in the config file platformdirs locates (XDG_CONFIG_HOME on
    Linux) is honoured by `drill --help`."""
    if sys.platform != "linux":
        pytest.skip("XDG_CONFIG_HOME locates the config file on Linux only")
    env = {k: v for k, v in os.environ.items() if k != "DRILL_CONFIG_DIR"}
    env.update(XDG_CONFIG_HOME=str(tmp_path), COLUMNS="120", LANG="C.UTF-8")
    located = subprocess.run(
        [sys.executable, "-c", "from drill.paths import config_file; print(config_file())"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.strip()
    assert located == str(tmp_path / "drill" / "drill.toml")
    (tmp_path / "drill").mkdir()
    (tmp_path / "drill" / "drill.toml").write_text('[ui]\nlanguage = "zh"\n', encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "drill", "--help"], capture_output=True, text=True, env=env)
    assert out.stdout == help_in("zh")


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "drill")
def test_chinese_help_fits_80_columns(path):
    """click's wrapping counts a Chinese character as two columns and breaks between characters."""
    result = CliRunner().invoke(cli, ["--lang", "zh", *path, "--help"], prog_name="drill", terminal_width=80)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert any("\u4e00" <= ch <= "\u9fff" for ch in result.output)
    too_wide = [line for line in lines if text_width(line) > 80]
    assert too_wide == []
