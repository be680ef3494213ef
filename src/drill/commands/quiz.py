"""`drill quiz`: timed multiple choice over the chapter's quizzes, plus numeric questions from the engine."""

from __future__ import annotations

import click

from drill.commands.options import content_option, store_options


@click.command()
@click.option(
    "--seconds",
    type=click.IntRange(min=1, max=3600),
    default=30,
    show_default=True,
    metavar="N",
    help="Seconds per question; a timeout counts as wrong.",
)
@click.option(
    "--count", type=click.IntRange(min=1), default=None, metavar="N", help="Ask at most N questions."
)
@click.option("--section", default=None, metavar="S", help="Only questions from this chapter section.")
@click.option(
    "--shuffle/--no-shuffle",
    default=True,
    show_default=True,
    help="Shuffle the questions and each question's options (the answer follows its option).",
)
@click.option(
    "--generated",
    type=click.IntRange(min=0, max=200),
    default=0,
    show_default=True,
    metavar="N",
    help="Mix in N numeric questions computed by the engine from random small inputs.",
)
@click.option(
    "--seed", type=int, default=None, metavar="N", help="Make the order and generated questions repeatable."
)
@content_option
@store_options
def quiz(seconds, count, section, shuffle, generated, seed, content_path, db_url, user_name) -> None:
    """Timed multiple choice: A-D or 1-4 to answer, feedback with the explanation after each question,
    then your score and a review of the wrong answers. Every attempt is saved.

    Press ? in the app for every key.
    """
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
        finished = "" if run.finished else f" (stopped after {total} of {len(run.items)})"
        click.echo(f"drill: quiz score {run.score}/{total}{finished}; best streak {run.best_streak}.")
