"""One new-cards-a-day figure everywhere (issue 23): `drill plan` (text and JSON), `drill report` (JSON, Markdown,
terminal) and the plan screen all state the plan's own figure, and name the daily limit when the plan needs more.

The learner's new_per_day is 5 — less than two weeks to an interview need for every code task and hand
calculation to be introduced three days before it (the case the issue saw 18, 20 and 22 in). Every surface runs
on the real clock (the CLI has no other), so they see the same days left."""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.widgets import Input, Static

from drill.cli import cli
from drill.content import load_content
from drill.store import open_store
from drill.tui.screens.plan import PlanScreen
from tests.tui.conftest import card_shown, wait_until

LIMIT = 5
FIGURE = re.compile(r"(\d+) a day in the plan")


def run(*args: str):
    result = CliRunner().invoke(cli, list(args), prog_name="drill")
    assert result.exit_code == 0, result.output
    return result


def figures(text: str) -> set[int]:
    return {int(n) for n in FIGURE.findall(text)}


async def test_every_surface_states_the_same_new_cards_a_day(study_app, tmp_path):
    config = Path(os.environ["DRILL_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    (config / "drill.toml").write_text(f"new_per_day = {LIMIT}\n", encoding="utf-8")
    library = load_content()
    store = open_store(None, None)
    assert store.config.new_per_day == LIMIT
    store.sync_content(library)
    start = datetime.now(UTC) - timedelta(days=2)
    for _ in range(LIMIT):
        card = store.next_card(start)
        store.grade(card.card_id, 3, start, duration_ms=8000)
    day = (date.today() + timedelta(days=14)).isoformat()

    # drill plan --json: the plan's figure, its first day's new cards, the forecast's pace and workload
    plan = json.loads(run("plan", "--interview", day, "--yes", "--json").stdout)
    figure = plan["skills"]["new_per_day"]
    assert figure > LIMIT  # the guarantee needs more than the limit: the plan says so, with one number
    assert plan["new_cards"]["per_day"] == plan["new_cards"]["needed_per_day"] == figure
    assert plan["new_cards"]["limit"] == LIMIT
    assert sum(len(ids) for ids in plan["skills"]["days"][0]["new"].values()) == figure
    assert plan["days"][0]["new"] == figure
    # one plan behind the day-by-day forecast and the by-skill days: the same new cards and reviews each day,
    # and the day itself reads the overall "if followed"
    by_skill = plan["skills"]["days"]
    assert len(plan["days"]) == len(by_skill) + 1
    for overall, day_ in zip(plan["days"], by_skill, strict=False):
        assert overall["new"] == sum(len(ids) for ids in day_["new"].values())
        assert overall["reviews"] == sum(len(ids) for ids in day_["reviews"].values())
    assert plan["days"][-1]["readiness"] == pytest.approx(plan["readiness_if_followed"], abs=1e-9)

    # drill plan (text)
    text = run("plan").output
    assert figures(text) == {figure}
    assert f"more than your daily limit (new_per_day = {LIMIT})" in text

    # drill report: JSON, Markdown, the terminal
    report = tmp_path / "report.json"
    run("report", "-o", str(report))
    assert json.loads(report.read_text(encoding="utf-8"))["interview"]["new_needed_per_day"] == figure
    markdown = tmp_path / "report.md"
    run("report", "-o", str(markdown))
    assert figures(markdown.read_text(encoding="utf-8")) == {figure}
    assert figures(run("report").output) == {figure}

    # the plan screen, on the same store and clock
    app = study_app(library=library, store=store, clock=lambda: datetime.now(UTC))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, PlanScreen))
        app.screen.query_one("#plan-date", Input).value = day
        await pilot.press("enter")
        forecast = app.screen.query_one("#plan-forecast", Static)
        await wait_until(pilot, lambda: "a day in the plan" in str(forecast.render()))
        shown = str(forecast.render())
        assert figures(shown) == {figure}
        assert f"new_per_day = {LIMIT}" in shown
    store.close()
