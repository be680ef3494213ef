"""The interview date from the study screen: the D key (and the palette row derived from it), the forecast, the
plan in the store, and the header's days left and readiness."""

from __future__ import annotations

from datetime import date

from textual.widgets import Input, Static

from drill.srs.deadline import recall
from drill.store.plans import deadline_of
from drill.tui.keys import palette_rows
from drill.tui.screens.plan import PlanScreen
from drill.tui.widgets.header import StudyHeader
from tests.tui.conftest import NOW, card_shown, wait_until

DAY = date(2026, 3, 20)  # 18 days after the tests' frozen clock


def _text(widget: Static) -> str:
    return str(widget.render())


async def test_setting_the_date_from_the_study_screen(study_app, store):
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        assert any(
            title.endswith(": Interview date") and action == "interview_plan"
            for title, _help, action in palette_rows(screen)
        )
        header = app.screen.query_one(StudyHeader)
        assert "interview" not in str(header.render())

        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, PlanScreen))
        app.screen.query_one("#plan-date", Input).value = DAY.isoformat()
        await pilot.press("enter")
        forecast = app.screen.query_one("#plan-forecast", Static)
        await wait_until(pilot, lambda: "days left" in _text(forecast))
        assert "18 days left" in _text(forecast) and "Daily workload" in _text(forecast)
        assert store.interview_plan(NOW) is None  # a forecast changes nothing
        shown = _text(forecast)
        # it says which figure it shows, and the plan's one new-cards-a-day figure
        assert "By skill, on the day (if you follow the plan / if you stop now):" in shown
        assert "a day in the plan" in shown

        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, PlanScreen))
        plan = store.interview_plan(NOW)
        assert plan is not None and plan.interview_day == DAY
        await wait_until(pilot, lambda: "interview in 18d" in str(header.render()))
        deadline = deadline_of(store, plan)
        expected = sum(recall(s, deadline.at, store.config) for _c, _s, s in store.plan_cards())
        expected /= len(store.plan_cards())
        assert f"if you stop now: {round(100 * expected)}%" in str(header.render())  # it says which figure
        # and the weakest skill (mean recall on the day by skill, a never-tried card 0), labels by kind
        skill_of = {
            "qa": "Explain",
            "cloze": "Recall",
            "formula": "Recall",
            "calc": "Calculate",
            "code": "Code",
        }
        kinds = {cid: card.kind for cid, card in screen.session.library.cards.items()}
        by_skill: dict[str, list[float]] = {}
        for cid, _s, state in store.plan_cards():
            if cid in kinds:
                by_skill.setdefault(skill_of[kinds[cid]], []).append(recall(state, deadline.at, store.config))
        # ties in the order every output lists the skills (drill.srs.skillready's rule, one truth)
        order = ["Recall", "Explain", "Calculate", "Code"]
        weakest = min(by_skill, key=lambda k: (sum(by_skill[k]) / len(by_skill[k]), order.index(k)))
        value = sum(by_skill[weakest]) / len(by_skill[weakest])
        assert f"weakest {weakest} {round(100 * value)}%" in str(header.render())
        # the forecast's per-skill rows: "if you stop now" is each skill's mean recall on the day (never tried:
        # 0), and the never-tried cards are named
        lines = {line.split()[0]: line for line in shown.splitlines() if line.startswith("  ")}
        for name, values in by_skill.items():
            stopped = round(100 * sum(values) / len(values))
            assert lines[name].split("%")[1].strip().lstrip("/").strip() == f"{stopped}", lines[name]
            untried = sum(
                1
                for cid, _s, state in store.plan_cards()
                if cid in kinds and skill_of[kinds[cid]] == name and state.is_new
            )
            if untried:
                assert f"{untried} of {len(values)}" in lines[name] and "never tried" in lines[name]

        # grading a card moves the header's readiness: the card now has a memory state
        await pilot.press("space")
        await pilot.press("3")
        await wait_until(pilot, lambda: screen.session.stats.reviewed == 1)
        status = screen.session.interview
        expected = sum(recall(s, deadline.at, store.config) for _c, _s, s in store.plan_cards())
        assert status.readiness == expected / len(store.plan_cards())


async def test_a_bad_date_is_one_line_and_ctrl_x_removes_the_date(study_app, store):
    store.set_interview_plan(DAY, 0.9, NOW)
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: isinstance(app.screen, PlanScreen))
        field = app.screen.query_one("#plan-date", Input)
        assert field.value == DAY.isoformat()
        field.value = "2026-02-30"
        await pilot.press("enter")
        forecast = app.screen.query_one("#plan-forecast", Static)
        await wait_until(pilot, lambda: "is not a date" in _text(forecast))
        await pilot.press("ctrl+x")
        await wait_until(pilot, lambda: not isinstance(app.screen, PlanScreen))
        assert store.interview_plan(NOW) is None
