"""`drill interview`: a timed mock interview over the 7.24 bank, with a key-point rubric and FSRS grades."""

from __future__ import annotations

import click

from drill.commands.options import WholeNumber, content_option, store_options
from drill.i18n import N_, _, ngettext
from drill.i18n_click import DrillCommand


@click.command(
    cls=DrillCommand,
    short_help=N_("A timed mock interview from the question bank, with a rubric."),
    help=N_(
        "A mock interview: bank questions in the bank's own words, chosen from what is due and what is "
        "weakest (weakest on the interview day first when `drill plan` set one), each with a time budget. "
        "Type the answer (ctrl+d when done) or answer aloud (space when done); then tick the key points "
        "you covered and the traps you fell into: drill proposes a grade from the coverage, you confirm it "
        "(enter) or change it (1-4), and FSRS schedules the card as in study. Sometimes the next question "
        "follows up from the same section. A scorecard closes the session; every question is saved.\n\n"
        "Time budget, follow-up chance and the rubric's thresholds: drill config (ui.interview_minutes, "
        "ui.interview_follow_up, ui.rubric_easy / ui.rubric_good / ui.rubric_hard).\n\n"
        "Press ? in the app for every key."
    ),
)
@click.option(
    "--questions",
    type=WholeNumber(1, 40),
    default=8,
    show_default=True,
    metavar="N",
    help=N_("How many questions."),
)
@click.option("--section", default=None, metavar="S", help=N_("Only questions from this chapter section."))
@click.option(
    "--minutes",
    type=click.FloatRange(min=0.25, max=60),
    default=None,
    metavar="M",
    help=N_("Minutes per question (default: ui.interview_minutes, 3)."),
)
@click.option("--aloud", is_flag=True, default=False, help=N_("Answer aloud: drill only times you."))
@click.option(
    "--follow-up",
    "follow_up",
    type=click.FloatRange(min=0, max=1),
    default=None,
    metavar="P",
    help=N_(
        "Chance that the next question follows up from the same section (default: ui.interview_follow_up)."
    ),
)
@click.option(
    "--seed",
    type=WholeNumber(),
    default=None,
    metavar="N",
    help=N_("Make the order and the follow-ups repeatable."),
)
@content_option
@store_options
def interview(questions, section, minutes, aloud, follow_up, seed, content_path, db_url, user_name) -> None:
    from drill.tui.app import make_app

    app = make_app(
        "interview",
        content_path=content_path,
        db_url=db_url,
        user=user_name,
        section=section,
        questions=questions,
        minutes=minutes,
        aloud=aloud,
        follow_up=follow_up,
        seed=seed,
    )
    app.run()
    if app.error is not None:
        raise app.error
    answers = app.interview_answers or []
    if answers:
        coverage = sum(a.coverage for a in answers) / len(answers)
        click.echo(
            ngettext(
                "drill: interview of {count} question, mean coverage {coverage:.0%}; every grade is saved.",
                "drill: interview of {count} questions, mean coverage {coverage:.0%}; every grade is saved.",
                len(answers),
            ).format(count=len(answers), coverage=coverage)
        )
    elif app.interview_answers is not None:
        click.echo(_("drill: interview stopped before any answer was graded."))
