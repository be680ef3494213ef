"""`drill plan`: an interview date, the readiness forecast for it, and a schedule that does not overshoot it."""

from __future__ import annotations

import contextlib
import json
import sys
from datetime import UTC, date, datetime

import click

from drill.commands.options import FiniteRange, content_option, store_options
from drill.i18n import N_, _, pad
from drill.i18n_click import DrillCommand

MAX_DAYS_AHEAD = 730  # an interview date at most two years ahead: the plan's cost grows with the days to it


def _parse_day(text: str) -> date:
    from datetime import timedelta

    from drill.errors import InputError

    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(
            _("--interview {value!r} is not a date: use YYYY-MM-DD").format(value=text)
        ) from None
    latest = datetime.now(UTC).date() + timedelta(days=MAX_DAYS_AHEAD)
    if day > latest:
        raise InputError(
            _(
                "--interview {day}: drill plans for interviews at most two years ahead (until {latest})"
            ).format(day=day.isoformat(), latest=latest.isoformat())
        )
    return day


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def _bar(value: float, width: int = 20) -> str:
    filled = round(max(0.0, min(1.0, value)) * width)
    return "█" * filled + "·" * (width - filled)


def _echo_forecast(ready, plan_day: date, new_per_day: int) -> None:
    click.echo(
        _("Interview: {day} ({days} days left), target recall {target} on the day").format(
            day=plan_day.isoformat(), days=ready.days_left, target=_percent(ready.deadline.target)
        )
    )
    click.echo(
        _("Readiness on the day: {followed} if you follow the plan, {idle} if you stop reviewing now").format(
            followed=_percent(ready.if_followed), idle=_percent(ready.if_no_reviews)
        )
    )
    pace = ready.pace
    if pace.remaining:
        from drill.report.skills import new_cards_text

        click.echo(new_cards_text(pace.remaining, pace.needed_per_day, new_per_day, ready.days_left))
    click.echo("")
    click.echo(_("Per section (if followed / if you stop now):"))
    for row in ready.sections:
        click.echo(
            f"  {row.section:<6} {_bar(row.if_followed)} {_percent(row.if_followed):>5} / "
            f"{_percent(row.if_no_reviews):>4}  ({row.cards})"
        )
    risky = [c for c in ready.at_risk(10) if c.if_no_reviews < ready.deadline.target]
    if risky:
        click.echo("")
        click.echo(_("Most at risk (recall on the day if not reviewed again):"))
        for card in risky:
            click.echo(f"  {card.card_id:<24} {card.section:<6} {_percent(card.if_no_reviews):>5}")
    click.echo("")
    click.echo(_("Daily workload until the day (reviews + new cards, readiness at the day's start):"))
    for row in ready.days:
        click.echo(f"  +{row.day:<3} {row.reviews:>4} + {row.new:<3} {_percent(row.readiness):>5}")


def _skills_json(sp) -> dict:
    """The plan by skill (drill.srs.skillplan) as JSON."""
    from drill.content.skills import SKILLS

    return {
        "settle_day": sp.settle_day,
        "new_per_day": sp.new_per_day,
        "budget_minutes": sp.budget_minutes,
        "seconds_per_item": dict(sp.timings.seconds),
        "seconds_per_interview_answer": sp.timings.interview_seconds,
        "timings_from": dict(sp.timings.source),
        "readiness_on_the_day": {"if_followed": dict(sp.on_the_day), "now": dict(sp.now)},
        "never_tried": {s: {"never_tried": n, "total": t} for s, (n, t) in sp.never_tried.items()},
        "missed": {k: list(v) for k, v in sp.missed.items()},
        "minutes_needed": sp.minutes_needed,
        "days": [
            {
                "day": d.day,
                "items": {s: list(d.items(s)) for s in SKILLS},
                "new": {s: list(d.new[s]) for s in SKILLS},
                "reviews": {s: list(d.reviews[s]) for s in SKILLS},
                "interview": list(d.interview),
                "minutes": d.minutes,
                "readiness": dict(d.readiness),
            }
            for d in sp.days
        ],
    }


def _echo_skills(sp) -> None:
    from drill.content.skills import SKILLS, never_tried_text, skill_name

    click.echo("")
    click.echo(_("By skill (readiness on the day if you follow the plan / if you stop now):"))
    for s in SKILLS:
        untried, total = sp.never_tried[s]
        note = f"  {never_tried_text(s, untried, total)}" if untried else ""
        click.echo(
            f"  {pad(skill_name(s), 10)} {_bar(sp.on_the_day[s])} {_percent(sp.on_the_day[s]):>5} / "
            f"{_percent(sp.now[s]):>4}{note}"
        )
    if sp.missed:
        click.echo(
            _("Will be missed by day -3: {items}").format(
                items=", ".join(i for ids in sp.missed.values() for i in ids) or _("the daily budget")
            )
        )
        if sp.minutes_needed is not None:
            click.echo(_("About {minutes:.0f} minutes a day would fix it.").format(minutes=sp.minutes_needed))
    defaults = [k for k, v in sp.timings.source.items() if v == "default"]
    if defaults:
        click.echo(
            _("Minutes estimated with drill's defaults (no history yet) for: {skills}").format(
                skills=", ".join(skill_name(k) if k in SKILLS else _("mock interview") for k in defaults)
            )
        )


def _skill_plan(store, library, now, deadline, minutes):
    """drill.srs.skillplan's plan from the store's cards and the learner's own timings and answers."""
    from drill.report.skills import plan_for

    return plan_for(store, library, now, deadline, minutes)


def _as_json(ready, plan_day: date, sp=None) -> str:
    return json.dumps(
        {
            "skills": None if sp is None else _skills_json(sp),
            "interview_day": plan_day.isoformat(),
            "target": ready.deadline.target,
            "days_left": ready.days_left,
            "readiness_if_followed": ready.if_followed,
            "readiness_if_no_reviews": ready.if_no_reviews,
            "new_cards": {
                "remaining": ready.pace.remaining,
                "per_day": ready.pace.needed_per_day,
                "needed_per_day": ready.pace.needed_per_day,
                "limit": ready.pace.limit,
                "reachable": ready.pace.reachable,
            },
            "sections": [
                {
                    "section": s.section,
                    "cards": s.cards,
                    "if_followed": s.if_followed,
                    "if_no_reviews": s.if_no_reviews,
                }
                for s in ready.sections
            ],
            "at_risk": [
                {"card": c.card_id, "section": c.section, "recall": c.if_no_reviews} for c in ready.at_risk()
            ],
            "days": [
                {"day": d.day, "reviews": d.reviews, "new": d.new, "readiness": d.readiness}
                for d in ready.days
            ],
        },
        ensure_ascii=False,
        indent=2,
    )


@click.command(
    cls=DrillCommand,
    short_help=N_("An interview date: readiness on the day, reviews that land before it."),
    help=N_(
        "Plan for an interview day: readiness on the day, the cards most at risk, and reviews that land "
        "before it.\n\n"
        "While a date is set, no card whose recall on the day would fall below the target is scheduled after "
        "it; new cards come at a pace that reaches every card before the day. After the day, plain FSRS resumes."
    ),
)
@click.option(
    "--interview",
    "interview",
    default=None,
    metavar="YYYY-MM-DD",
    help=N_("Set (or move) the interview date."),
)
@click.option(
    "--target",
    type=FiniteRange(0.5, 0.99),
    default=None,
    help=N_("Recall to aim for on the day (default 0.9)."),
)
@click.option(
    "--clear", "clear", is_flag=True, help=N_("Remove the date: plain FSRS again, every interval kept.")
)
@click.option(
    "--yes", "-y", "yes", is_flag=True, help=N_("Set the date without asking (the forecast is still shown).")
)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the plan as JSON (for scripts)."))
@click.option(
    "--minutes",
    type=FiniteRange(1, 1440),
    default=None,
    help=N_("Daily time budget in minutes: the plan says what it cannot fit and what time would."),
)
@click.option(
    "--dry-run", "dry_run", is_flag=True, help=N_("Show the forecast for --interview without setting it.")
)
@store_options
@content_option
def plan(interview, target, clear, yes, as_json, minutes, dry_run, db_url, user_name, content_path) -> None:
    from drill.content import load_content
    from drill.errors import InputError
    from drill.srs.deadline import DEFAULT_TARGET
    from drill.store.plans import Plan, deadline_of

    if clear and (interview or target is not None):
        raise InputError(_("--clear removes the date: give it alone"))
    day = _parse_day(interview) if interview is not None else None
    library = load_content(content_path)
    now = datetime.now(UTC)
    if day is None and not clear and target is None:
        _show(library, now, db_url, user_name, as_json, minutes)  # read-only: nothing written
        return
    with _open(db_url, user_name, dry_run) as store:
        store.sync_content(library)  # read-only (--dry-run): nothing written, the unsynced cards count as new
        if clear:
            restored = store.clear_interview_plan()
            click.echo(_("Interview date removed; {n} cards back on FSRS's own schedule.").format(n=restored))
            return
        current = store.interview_plan(now)
        if day is None and target is not None:
            if current is None:
                raise InputError(_("--target needs an interview date: drill plan --interview YYYY-MM-DD"))
            day = current.interview_day
        chosen = target if target is not None else (current.target if current else DEFAULT_TARGET)
        deadline = deadline_of(store, Plan(day, chosen, now))
        if deadline.at <= now:
            raise InputError(
                _("the interview day {day} has already begun: give a later date").format(day=day.isoformat())
            )
        sp = _skill_plan(store, library, now, deadline, minutes)
        from drill.report.skills import plan_readiness

        ready = plan_readiness(store, now, deadline, sp)
        if as_json:
            click.echo(_as_json(ready, day, sp))
        else:
            _echo_forecast(ready, day, store.config.new_per_day)
            _echo_skills(sp)
        if dry_run:
            return
        if (
            not yes and sys.stdin.isatty()
        ):  # off a terminal: set without asking (--dry-run: only the forecast)
            if not click.confirm(
                _("Set {day} as your interview date?").format(day=day.isoformat()), default=True
            ):
                click.echo(_("Nothing changed."))
                return
        moved = store.set_interview_plan(day, chosen, now)
        click.echo(
            _("Interview date set to {day}; {n} cards brought forward to be reviewed before it.").format(
                day=day.isoformat(), n=moved
            ),
            err=as_json,
        )


@contextlib.contextmanager
def _open(db_url, user_name, dry_run: bool):
    """The store: read-only for --dry-run (a forecast writes nothing: no sync, no user row, no integrity check
    of the whole file), unless a newer drill must first migrate the database (as `drill report` does). With
    no database yet, a dry run forecasts for a new learner from an empty database of its own, thrown away."""
    from drill.errors import StoreUpgradeNeeded
    from drill.store import open_store

    if not dry_run:
        with open_store(db_url, user_name) as store:
            yield store
        return
    from drill.store.engine import resolve_url, sqlite_file

    db_file = sqlite_file(resolve_url(db_url))
    if db_file is not None and not db_file.exists():
        import tempfile
        from pathlib import Path

        from sqlalchemy.engine import URL

        with tempfile.TemporaryDirectory(prefix="drill-plan-") as folder:
            fresh = Path(folder) / "forecast.sqlite3"
            with open_store(URL.create("sqlite", database=str(fresh)).render_as_string(), user_name) as store:
                yield store
        return
    try:
        store = open_store(db_url, user_name, readonly=True)
    except StoreUpgradeNeeded:
        store = open_store(db_url, user_name)
    with store:
        yield store


def _show(library, now, db_url, user_name, as_json, minutes) -> None:
    """`drill plan` with no date given: the current plan's forecast, read-only (no sync, nothing written)."""
    from drill.errors import StoreError
    from drill.store import open_store
    from drill.store.plans import deadline_of

    try:
        store = open_store(db_url, user_name, readonly=True)
    except StoreError:
        store = None  # no database yet: no date either
    if store is None:
        click.echo(_("No interview date set. Set one with: drill plan --interview YYYY-MM-DD"))
        return
    with store:
        # read-only: nothing is written; the store then reads the packs the library loads, not every card of
        # the user (a learner with several packs in the database is planned for the ones the content holds)
        store.sync_content(library)
        current = store.interview_plan(now)
        if current is None:
            click.echo(_("No interview date set. Set one with: drill plan --interview YYYY-MM-DD"))
            return
        deadline = deadline_of(store, current)
        sp = _skill_plan(store, library, now, deadline, minutes)
        from drill.report.skills import plan_readiness

        ready = plan_readiness(store, now, deadline, sp)
        if as_json:
            click.echo(_as_json(ready, current.interview_day, sp))
        else:
            _echo_forecast(ready, current.interview_day, store.config.new_per_day)
            _echo_skills(sp)
