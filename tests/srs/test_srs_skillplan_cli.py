"""`drill plan` by skill: the JSON's per-day items, minutes and readiness recomputed in plain Python from the
same state (py-fsrs for recall); `drill plan` alone writes nothing; off a terminal `--interview` sets the date
(`--dry-run` only forecasts)."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from drill.cli import cli
from drill.content import load_content

# labels written before the code: the skill of each card kind
SKILL = {"qa": "explain", "cloze": "recall", "formula": "recall", "calc": "calculate", "code": "code"}


def run(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="drill")


def in_days(n: int) -> str:
    return (date.today() + timedelta(days=n)).isoformat()


def db_file() -> Path:
    return Path(os.environ["DRILL_DATA_DIR"]) / "drill.sqlite3"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_plan_alone_writes_nothing():
    assert run("plan").exit_code == 0
    assert not db_file().exists()  # no database made
    assert run("plan", "--interview", in_days(14), "--yes").exit_code == 0
    before = digest(db_file())
    for args in (("plan",), ("plan", "--json"), ("plan", "--minutes", "30")):
        result = run(*args)
        assert result.exit_code == 0, result.output
    assert digest(db_file()) == before


def test_off_a_terminal_interview_sets_the_date_and_dry_run_does_not():
    day, other = in_days(12), in_days(9)
    result = run("plan", "--interview", day)  # CliRunner's stdin is not a terminal
    assert result.exit_code == 0, result.output
    assert "By skill" in result.output and f"Interview date set to {day}" in result.output
    dry = run("plan", "--interview", other, "--dry-run")
    assert dry.exit_code == 0 and "Interview date set" not in dry.output
    assert json.loads(run("plan", "--json").stdout)["interview_day"] == day


@pytest.fixture
def studied():
    """A learner three days in: some cards graded (with durations), the plan set 14 days out."""
    from drill.store import open_store

    library = load_content()
    store = open_store(None, None)
    store.sync_content(library)
    start = datetime.now(UTC) - timedelta(days=3)
    for n in range(20):
        card = store.next_card(start)
        store.grade(card.card_id, 3 if n % 4 else 4, start, duration_ms=9000 + 1000 * n)
    store.close()
    result = run("plan", "--interview", in_days(14), "--yes", "--json")
    assert result.exit_code == 0, result.output
    return library, json.loads(result.stdout)


def test_the_json_figures_recomputed(studied):
    import fsrs

    from drill.store import open_store

    library, shown = studied
    plan = shown["skills"]
    kind = {c.id: c.kind for c in library.cards.values()}
    seconds, interview_seconds = plan["seconds_per_item"], plan["seconds_per_interview_answer"]
    # the learner's own durations: the median of their reviews per skill (20 graded, all at 9-28 s)
    assert plan["timings_from"]["recall"] == "history" and 9 <= seconds["recall"] <= 28
    assert plan["timings_from"]["interview"] == "default"
    for day in plan["days"]:
        for skill, ids in day["items"].items():
            assert all(SKILL[kind[i]] == skill for i in ids if i not in day["interview"])
        expected = sum(
            seconds[skill] * (len(day["new"][skill]) + len(day["reviews"][skill]))
            for skill in set(SKILL.values())
        )
        expected += interview_seconds * len(day["interview"])
        assert day["minutes"] == pytest.approx(expected / 60)
    # every card introduced once; every code task and hand calculation by the settle day; every bank question
    # asked in a mock interview by then
    introduced = [i for d in plan["days"] for ids in d["new"].values() for i in ids]
    assert len(introduced) == len(set(introduced)) == len(library.cards) - 20
    settle = plan["settle_day"]
    early = {i for d in plan["days"][:settle] for ids in d["new"].values() for i in ids}
    assert not plan["missed"]
    for card in library.cards.values():
        if card.kind in ("code", "calc") and card.id in introduced:
            assert card.id in early
    asked = {i for d in plan["days"][:settle] for i in d["interview"]}
    assert asked == {c.id for c in library.cards.values() if getattr(c, "bank", None) is not None}
    # readiness "now" per skill: py-fsrs's recall on the day of each card's state, never tried = 0
    store = open_store(None, None, readonly=True)
    try:
        at = store.deadline().at
        states = {cid: state for cid, _section, state in store.plan_cards()}
    finally:
        store.close()
    scheduler = fsrs.Scheduler()
    for skill in set(SKILL.values()):
        ids = [i for i in library.cards if SKILL[kind[i]] == skill]
        values = []
        for i in ids:
            s = states[i]
            if s.last_review is None:
                values.append(0.0)
                continue
            card = fsrs.Card(stability=s.stability, difficulty=s.difficulty, last_review=s.last_review)
            card.state = fsrs.State.Review
            values.append(scheduler.get_card_retrievability(card, current_datetime=at))
        assert plan["readiness_on_the_day"]["now"][skill] == pytest.approx(
            sum(values) / len(values), abs=1e-6
        )
        never = plan["never_tried"][skill]
        assert never == {"never_tried": values.count(0.0), "total": len(ids)}


def test_a_budget_too_small_says_what_is_missed_and_what_would_fix_it():
    result = run("plan", "--interview", in_days(6), "--yes", "--minutes", "5")
    assert result.exit_code == 0, result.output
    shown = json.loads(run("plan", "--json", "--minutes", "5").stdout)["skills"]
    assert shown["missed"] and shown["minutes_needed"] > 5
    assert "minutes a day would fix it" in run("plan", "--minutes", "5").output
