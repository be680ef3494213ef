"""`drill quiz`: timed multiple choice over the chapter's quizzes, plus numeric questions from the engine."""

from __future__ import annotations

import click

from drill.commands.options import WholeNumber, content_option, store_options
from drill.i18n import N_, _
from drill.i18n_click import DrillCommand


@click.command(
    cls=DrillCommand,
    short_help=N_("Timed multiple choice, with the explanations."),
    help=N_(
        "Timed multiple choice: A-D or 1-4 to answer, feedback with the explanation after each question, "
        "then your score and a review of the wrong answers. Every attempt is saved.\n\n"
        "Press ? in the app for every key."
    ),
)
@click.option(
    "--seconds",
    type=WholeNumber(1, 3600),
    default=30,
    show_default=True,
    metavar="N",
    help=N_(
        "Seconds per chapter question; a timeout counts as wrong. A generated question gets the limit of its "
        "kind (concept, shape, formula, hand): drill config ui.quiz_seconds_<kind>."
    ),
)
@click.option("--count", type=WholeNumber(1), default=None, metavar="N", help=N_("Ask at most N questions."))
@click.option("--section", default=None, metavar="S", help=N_("Only questions from this chapter section."))
@click.option(
    "--shuffle/--no-shuffle",
    default=True,
    show_default=True,
    help=N_("Shuffle the questions and each question's options (the answer follows its option)."),
)
@click.option(
    "--generated",
    type=WholeNumber(0, 200),
    default=8,
    show_default=True,
    metavar="N",
    help=N_(
        "Mix in N questions computed by the engine from small random inputs (every section has them; "
        "wrong options are named mistakes). 0: the chapter's questions only."
    ),
)
@click.option(
    "--seed",
    type=WholeNumber(),
    default=None,
    metavar="N",
    help=N_("Make the order and generated questions repeatable."),
)
@content_option
@store_options
def quiz(seconds, count, section, shuffle, generated, seed, content_path, db_url, user_name) -> None:
    from drill.tui.app import make_app

    app = make_app(
        "quiz",
        content_path=content_path,
        db_url=db_url,
        user=user_name,
        section=section,
        seconds=seconds,
        count=count,
        shuffle=shuffle,
        generated=generated,
        seed=seed,
    )
    app.run()
    if app.error is not None:
        raise app.error
    run = app.quiz_run
    if run is not None and run.results:
        total = len(run.results)
        if run.finished:
            message = _("drill: quiz score {score}/{total}; best streak {streak}.")
        else:
            message = _(
                "drill: quiz score {score}/{total} (stopped after {total} of {count}); best streak {streak}."
            )
        click.echo(message.format(score=run.score, total=total, count=len(run.items), streak=run.best_streak))
