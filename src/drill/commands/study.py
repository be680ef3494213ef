"""`drill study`: review due cards in the Textual study screen; custom study with filters and modes."""

from __future__ import annotations

import click

from drill.commands.options import WholeNumber, content_option, store_options
from drill.i18n import N_, _, ngettext
from drill.i18n_click import DrillCommand
from drill.store.extras import MAX_EXTRA


@click.command(
    cls=DrillCommand,
    short_help=N_("Review the cards that are due, graded 1-4."),
    help=N_(
        "Review the cards that are due: reveal, grade 1-4 (Again/Hard/Good/Easy), FSRS schedules the next "
        "review.\n\nCustom study: --section, --tag and --kind (each may be repeated) keep only those cards; "
        "--ahead N reviews the cards due within N days, --forgotten the cards answered Again today, "
        "--preview shows new cards without scheduling them (nothing is saved).\n\n"
        "Study more today: --more N adds N new cards to today's new-card limit (new_per_day), --more-reviews N "
        "adds N to today's review limit (reviews_per_day), for today only (key + in the app does the same); "
        "review ahead is --ahead N (key c).\n\n"
        "Press ? in the app for every key; ctrl+p opens the command palette."
    ),
)
@click.option(
    "--section",
    "sections",
    multiple=True,
    metavar="S",
    help=N_("Only cards from this chapter section (e.g. 7.9); repeat for several."),
)
@click.option(
    "--tag", "tags", multiple=True, metavar="TAG", help=N_("Only cards with this tag; repeat for several.")
)
@click.option(
    "--kind", "kinds", multiple=True, metavar="KIND", help=N_("Only cards of this kind; repeat for several.")
)
@click.option(
    "--ahead",
    type=WholeNumber(1, 365),
    default=None,
    metavar="N",
    help=N_("Review ahead: the cards due within the next N days (an early review, counted by FSRS)."),
)
@click.option("--forgotten", is_flag=True, help=N_("Review the cards answered Again today."))
@click.option(
    "--preview", is_flag=True, help=N_("Preview new cards without scheduling them (nothing is saved).")
)
@click.option(
    "--new",
    "new_limit",
    type=WholeNumber(0),
    default=None,
    metavar="N",
    help=N_("Introduce at most N new cards this session."),
)
@click.option("--limit", type=WholeNumber(1), default=None, metavar="N", help=N_("Stop after N reviews."))
@click.option(
    "--more",
    "more_new",
    type=WholeNumber(1, MAX_EXTRA),
    default=None,
    metavar="N",
    help=N_("Study more today: add N new cards to today's new-card limit (today only)."),
)
@click.option(
    "--more-reviews",
    type=WholeNumber(1, MAX_EXTRA),
    default=None,
    metavar="N",
    help=N_("Study more today: add N reviews to today's review limit (today only)."),
)
@content_option
@store_options
def study(
    sections,
    tags,
    kinds,
    ahead,
    forgotten,
    preview,
    new_limit,
    limit,
    more_new,
    more_reviews,
    content_path,
    db_url,
    user_name,
) -> None:
    from drill.errors import InputError
    from drill.tui.app import make_app
    from drill.tui.models.custom_study import StudyFilter

    modes = [
        name
        for name, on in (("--ahead", ahead is not None), ("--forgotten", forgotten), ("--preview", preview))
        if on
    ]
    if len(modes) > 1:
        raise InputError(_("{options}: choose one of them").format(options=" / ".join(modes)))
    more = [name for name, n in (("--more", more_new), ("--more-reviews", more_reviews)) if n is not None]
    if more and modes:
        raise InputError(
            _("{more}: {mode} has no daily limit to raise; use one or the other").format(
                more=" / ".join(more), mode=modes[0]
            )
        )
    if more:
        _study_more(db_url, user_name, more_new or 0, more_reviews or 0)
    mode = "ahead" if ahead is not None else "forgotten" if forgotten else "preview" if preview else "due"
    study_filter = StudyFilter(
        sections=tuple(dict.fromkeys(sections)),
        tags=tuple(dict.fromkeys(tags)),
        kinds=tuple(dict.fromkeys(kinds)),
        mode=mode,
        ahead_days=ahead or 0,
    )
    app = make_app(
        "study",
        content_path=content_path,
        db_url=db_url,
        user=user_name,
        # Today's schedule for one section (or all): the store's own queue, first card peeked at once.
        section=study_filter.single_section,
        study=None if study_filter.is_plain else study_filter,
        new_limit=new_limit,
        limit=limit,
    )
    app.run()
    if app.error is not None:
        raise app.error
    stats = app.study_stats
    if preview and stats is not None and stats.card_ids:
        click.echo(
            ngettext(
                "drill: previewed {count} card; nothing was saved.",
                "drill: previewed {count} cards; nothing was saved.",
                len(stats.card_ids),
            ).format(count=len(stats.card_ids))
        )
    elif stats is not None and stats.reviewed:
        click.echo(
            ngettext(
                "drill: reviewed {count} card ({again} again); every grade is saved.",
                "drill: reviewed {count} cards ({again} again); every grade is saved.",
                stats.reviewed,
            ).format(count=stats.reviewed, again=stats.again)
        )


def _study_more(db_url: str | None, user: str | None, new: int, reviews: int) -> None:
    """--more / --more-reviews: today's limits raised in the store before the session starts (so the first card
    the screen peeks at already follows them)."""
    from datetime import UTC, datetime

    from drill.store import open_store

    with open_store(db_url, user) as store:
        extra_new, extra_reviews = store.study_more(datetime.now(UTC), new, reviews)
        config = store.config
    click.echo(
        _(
            "drill: today's limits: {new} new cards, {reviews} reviews ({extra_new} and {extra_reviews} added today)."
        ).format(
            new=config.new_per_day + extra_new,
            reviews=config.reviews_per_day + extra_reviews,
            extra_new=extra_new,
            extra_reviews=extra_reviews,
        )
    )
