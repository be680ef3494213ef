"""`drill config` and `drill optimize` on the command line."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
from click.testing import CliRunner

from drill import paths
from drill.cli import cli
from drill.srs.config import SETTINGS


def run(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="drill")


def test_config_shows_every_setting_with_value_default_and_source():
    run("config", "set", "desired_retention", "0.85")
    result = run("config")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"config file: {paths.config_file()}"
    assert lines[1].split() == ["setting", "value", "default", "from"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert set(rows) == set(SETTINGS)
    assert rows["desired_retention"].split() == ["desired_retention", "0.85", "0.9", "file"]
    assert rows["new_per_day"].split() == ["new_per_day", "20", "20", "default"]
    assert rows["learning_steps"].split() == ["learning_steps", "[1m,", "10m]", "[1m,", "10m]", "default"]
    assert "(FSRS defaults)" in rows["parameters"]


def test_config_without_a_file_says_so():
    result = run("config")
    assert result.exit_code == 0
    assert "not created yet" in result.output.splitlines()[0]
    assert not paths.config_file().exists()


def test_config_path():
    result = run("config", "path")
    assert result.exit_code == 0 and result.output.strip() == str(paths.config_file())


def test_config_set_get_reset():
    result = run("config", "set", "learning_steps", "1m", "10m", "1h")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("learning_steps = [1m, 10m, 1h]")
    assert tomllib.loads(paths.config_file().read_text())["learning_steps"] == ["1m", "10m", "1h"]
    assert run("config", "get", "learning_steps").output.strip() == "[1m, 10m, 1h]"
    assert run("config", "set", "relearning_steps", "").exit_code == 0
    assert run("config", "get", "relearning_steps").output.strip() == "[]"
    result = run("config", "reset", "learning_steps")
    assert result.exit_code == 0 and "[1m, 10m]  (default)" in result.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["config", "set", "desired_retention", "1.2"],
            "desired_retention: 1.2 is out of range; allowed: a number from 0.7 to 0.99",
        ),
        (["config", "set", "new_per_day", "-5"], "new_per_day: -5 is out of range"),
        (
            ["config", "set", "retention", "0.8"],
            "unknown setting 'retention' (did you mean desired_retention?)",
        ),
        (["config", "get", "nope"], "unknown setting 'nope'"),
        (["config", "reset", "nope"], "unknown setting 'nope'"),
    ],
)
def test_config_errors_are_one_line_exit_2(args, needle):
    result = run(*args)
    assert result.exit_code == 2
    assert needle in result.output
    assert "Traceback" not in result.output
    assert not paths.config_file().exists()


def test_broken_config_file_in_a_real_process():
    path = paths.config_file()
    path.parent.mkdir(parents=True)
    path.write_text("day_starts_at = 25\n")
    proc = subprocess.run([sys.executable, "-m", "drill", "config"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"drill: error: {path}: day_starts_at: 25 is out of range; allowed: an hour from 0 to 23"
    )
    assert "Traceback" not in proc.stderr
