"""`drill study`: review due cards in the Textual study screen."""

from __future__ import annotations

import click

from drill.commands.options import content_option, store_options
from drill.i18n import N_, ngettext
from drill.i18n_click import DrillCommand


@click.command(
    cls=DrillCommand,
    short_help=N_("Review the cards that are due, graded 1-4."),
    help=N_(
        "Review the cards that are due: reveal, grade 1-4 (Again/Hard/Good/Easy), FSRS schedules the next "
        "review.\n\nPress ? in the app for every key; ctrl+p opens the command palette."
    ),
)
@click.option(
    "--section", default=None, metavar="S", help=N_("Only cards from this chapter section (e.g. 7.9).")
)
@click.option(
    "--new",
    "new_limit",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help=N_("Introduce at most N new cards this session."),
)
@click.option(
    "--limit", type=click.IntRange(min=1), default=None, metavar="N", help=N_("Stop after N reviews.")
)
@content_option
@store_options
def study(section, new_limit, limit, content_path, db_url, user_name) -> None:
    from drill.tui.app import make_app

    app = make_app(
        "study",
        content_path=content_path,
        db_url=db_url,
        user=user_name,
        section=section,
        new_limit=new_limit,
        limit=limit,
    )
    app.run()
    if app.error is not None:
        raise app.error
    stats = app.study_stats
    if stats is not None and stats.reviewed:
        click.echo(
            ngettext(
                "drill: reviewed {count} card ({again} again); every grade is saved.",
                "drill: reviewed {count} cards ({again} again); every grade is saved.",
                stats.reviewed,
            ).format(count=stats.reviewed, again=stats.again)
        )
