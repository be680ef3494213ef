"""Options shared by several subcommands, defined once."""

from __future__ import annotations

import click

from drill.i18n import N_


class WholeNumber(click.IntRange):
    """An integer option read by drill's one rule for typed numbers (`drill.engine.parse.whole_number`).

    Full-width digits (a Chinese input method's) are read as ASCII; other scripts' digits are refused naming
    the character; at most `drill.engine.parse.MAX_DIGITS` digits, so a 5,000-digit value never reaches int()
    and is not echoed whole. ``low``/``high`` bound it as click.IntRange does (shown in --help the same way).
    """

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        super().__init__(min=low, max=high)

    def convert(self, value, param, ctx):
        if not isinstance(value, int) or isinstance(value, bool):
            from drill.engine.parse import whole_number
            from drill.errors import InputError

            try:
                value = whole_number(str(value))
            except InputError as err:
                self.fail(str(err), param, ctx)
        return super().convert(value, param, ctx)

    def _describe_range(self) -> str:
        return "" if self.min is None and self.max is None else super()._describe_range()


class FiniteRange(click.FloatRange):
    """A number option within ``low``..``high`` that refuses nan and inf (click's FloatRange lets nan through:
    every comparison with nan is false)."""

    def convert(self, value, param, ctx):
        import math

        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            from drill.i18n import _

            self.fail(_("{value!r} is not a finite number").format(value=str(value)), param, ctx)
        return number


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
