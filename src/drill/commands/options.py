"""Options shared by several subcommands, defined once."""

from __future__ import annotations

import click

from drill.i18n import N_

content_option = click.option(
    "--content",
    "content_path",
    envvar="DRILL_CONTENT",
    type=click.Path(exists=True, file_okay=False, dir_okay=True),
    default=None,
    help=N_("A content pack directory, or a directory of packs (default: the chapter shipped with drill)."),
)

db_option = click.option(
    "--db",
    "db_url",
    envvar="DRILL_DB_URL",
    default=None,
    metavar="URL",
    help=N_("Any SQLAlchemy URL (default: a SQLite file in the user data directory)."),
)

user_option = click.option(
    "--user",
    "user_name",
    envvar="DRILL_USER",
    default=None,
    metavar="NAME",
    help=N_("Whose progress to use (default: the login name)."),
)


def store_options(func):
    """--db and --user, for every command that reads or writes progress."""
    return db_option(user_option(func))
