"""`drill report` and `drill export` end to end through the CLI (click's runner), on the generated database."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest
from click.testing import CliRunner

from drill.cli import cli


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.mark.parametrize(
    ("fmt", "check"),
    [
        ("json", lambda text: json.loads(text)["schema_version"] == "1.6"),
        ("md", lambda text: text.startswith("# drill progress report")),
        ("html", lambda text: text.startswith("<!DOCTYPE html>") and "<script" not in text),
        ("csv", lambda text: next(csv.reader(io.StringIO(text)))[0] == "id"),
    ],
)
def test_each_format_to_stdout_and_to_a_file(history, tmp_path, fmt, check):
    result = run("report", "--db", history.url, "--user", "alice", "--format", fmt, "-o", "-")
    assert result.exit_code == 0, result.output
    assert check(result.stdout)
    target = tmp_path / f"report.{fmt}"
    result = run(
        "report", "--db", history.url, "--user", "alice", "-o", str(target)
    )  # format from the suffix
    assert result.exit_code == 0, result.output
    assert check(target.read_text(encoding="utf-8"))


def test_terminal_report_with_filters_and_cohort(history):
    result = run(
        "report",
        "--db",
        history.url,
        "--user",
        "bob",
        "--since",
        "2026-09-01",
        "--section",
        "7.12",
        "--cohort",
    )
    assert result.exit_code == 0, result.output
    for text in ("drill progress report", "Reviews per day", "True retention", "Cohort", "section 7.12"):
        assert text in result.stdout


def test_json_report_filters_are_recorded(history):
    result = run(
        "report",
        "--db",
        history.url,
        "--user",
        "bob",
        "--format",
        "json",
        "--since",
        "2026-09-01",
        "--section",
        "7.12",
        "--cohort",
    )
    doc = json.loads(result.stdout)
    assert doc["filters"] == {"since": "2026-09-01", "section": "7.12", "user": "bob", "cohort": True}
    assert {u["user"] for u in doc["cohort"]["users"]} == {"alice", "bob"}
    assert {c["section"] for c in doc["cards"]} == {"7.12"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "xml"], "--format 'xml' is not a report format"),
        (["--since", "yesterday"], "--since 'yesterday' is not a date"),
        (["--section", "8.8"], "--section '8.8': no cards in that section"),
        (["--user", "mallory"], "--user 'mallory': no such user"),
        (["-o", "report.txt"], "cannot tell the format"),
        (["--format", "terminal", "-o", "x.html"], "--format terminal prints to the terminal"),
    ],
)
def test_bad_values_are_one_line_errors_with_exit_2(history, args, message):
    result = (
        run("report", "--db", history.url, "--user", "alice", *args)
        if "--user" not in args
        else run("report", "--db", history.url, *args)
    )
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_unwritable_output_is_a_clear_error(history, tmp_path):
    result = run("report", "--db", history.url, "--user", "alice", "-o", str(tmp_path))
    assert result.exit_code == 2
    result = run("report", "--db", history.url, "--user", "alice", "--format", "md", "-o", str(tmp_path))
    assert result.exit_code == 2 and "is a directory" in result.stderr


def test_export_anki(tmp_path):
    target = tmp_path / "drill.apkg"
    result = run("export", "--anki", str(target))
    assert result.exit_code == 0, result.output
    assert zipfile.is_zipfile(target)
    assert "notes written" in result.stderr
    # -o names the package as for every other output; --no-quizzes leaves the chapter's quizzes out.
    short = run("export", "-o", str(tmp_path / "short.apkg"), "--no-quizzes")
    assert short.exit_code == 0, short.output
    counts = [int(r.stderr.split()[0]) for r in (result, short)]
    assert counts[0] - counts[1] == 8  # the chapter's 8 quizzes
    bad = run("export", "--anki", str(tmp_path / "deck.zip"))
    assert bad.exit_code == 2 and "ends in .apkg" in bad.stderr


def test_report_on_a_database_from_an_older_drill_migrates_it_first(tmp_path):
    """A learner who upgrades drill and asks for a report first: the report opens read-only, so the store
    says an upgrade is needed; the command then migrates (after a backup) and reports instead of failing."""
    from drill.store import migrate
    from drill.store.backup import list_backups

    path = tmp_path / "old.sqlite3"
    url = f"sqlite:///{path}"
    migrate.upgrade(url, "0002")
    result = run("report", "--db", url, "--user", "alice", "--format", "json", "-o", "-")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["schema_version"] == "1.6"
    assert len(list_backups(path)) == 1
