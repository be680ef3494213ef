"""`drill plan` on the command line: set, show (text and JSON), refuse bad input in one line, clear."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.content import load_content


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), prog_name="drill", input=input)


def in_days(n: int) -> str:
    return (date.today() + timedelta(days=n)).isoformat()


def test_no_date_says_how_to_set_one():
    result = run("plan")
    assert result.exit_code == 0, result.output
    assert "drill plan --interview YYYY-MM-DD" in result.output


def test_set_show_and_clear_a_date():
    day = in_days(20)
    result = run("plan", "--interview", day, "--yes", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    cards = len(load_content().cards)
    assert shown["interview_day"] == day and shown["target"] == 0.9
    assert shown["days_left"] in (20, 21)  # the study day starts at 4 am local time
    assert len(shown["days"]) == shown["days_left"] + 1
    assert sum(s["cards"] for s in shown["sections"]) == cards
    assert shown["new_cards"]["remaining"] == cards  # nothing studied yet
    assert sum(d["new"] for d in shown["days"]) == cards
    assert shown["readiness_if_no_reviews"] == 0.0
    assert shown["readiness_if_followed"] >= 0.9  # every card reached, reviews on time, recalled
    assert shown["readiness_if_followed"] == pytest.approx(
        sum(s["if_followed"] * s["cards"] for s in shown["sections"]) / cards
    )

    again = json.loads(run("plan", "--json").stdout)
    assert again["interview_day"] == day

    text = run("plan").output
    assert f"Interview: {day}" in text and "Per section" in text and "Daily workload" in text

    cleared = run("plan", "--clear")
    assert cleared.exit_code == 0 and "removed" in cleared.output
    assert "No interview date set" in run("plan").output


def test_the_target_can_be_moved_alone_once_a_date_is_set():
    day = in_days(10)
    assert run("plan", "--interview", day, "--yes").exit_code == 0
    result = run("plan", "--target", "0.95", "--yes", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(run("plan", "--json").stdout)["target"] == 0.95


def test_bad_input_is_one_line_and_changes_nothing():
    for args, needle in (
        (("plan", "--interview", "2026-13-40"), "is not a date"),
        (("plan", "--interview", "1999-01-01", "--yes"), "has already begun"),
        (("plan", "--clear", "--interview", in_days(5)), "give it alone"),
        (("plan", "--target", "0.9"), "needs an interview date"),
    ):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert needle in result.output
        assert "Traceback" not in result.output
    assert run("plan", "--interview", in_days(5), "--target", "1.5").exit_code == 2
    assert "No interview date set" in run("plan").output
