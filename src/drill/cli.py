"""The `drill` command line: a click group whose subcommands load lazily.

Each subcommand lives in ``drill.commands.<name>`` and imports its heavy dependencies (textual, numpy,
sqlalchemy) inside the command body, so ``drill --help`` stays fast. Errors a user can fix are
``DrillError``s: printed as one line on stderr with a non-zero exit, never as a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from drill import __version__
from drill.errors import DrillError
from drill.i18n import N_, _, set_language, startup_language
from drill.i18n_click import VERSION_OPTION_HELP, DrillGroup, lang_option

# name -> "module:attribute"; the order is the order shown in --help.
COMMANDS: dict[str, str] = {
    "study": "drill.commands.study:study",
    "quiz": "drill.commands.quiz:quiz",
    "interview": "drill.commands.interview:interview",
    "calc": "drill.commands.calc:calc",
    "demo": "drill.commands.demo:demo",
    "report": "drill.commands.report:report",
    "export": "drill.commands.report:export",
    "code": "drill.commands.code:code",
    "plan": "drill.commands.plan:plan",
    "check": "drill.commands.check:check",
    "config": "drill.commands.srs:config",
    "backup": "drill.commands.store:backup",
    "restore": "drill.commands.store:restore",
    "cards": "drill.commands.cards:cards",
    "optimize": "drill.commands.srs:optimize",
}


class LazyGroup(DrillGroup):
    """A group that imports a subcommand's module only when that subcommand is used or listed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except DrillError as err:
            click.echo(_("drill: error: {message}").format(message=err), err=True)
            ctx.exit(err.exit_code)
        except KeyboardInterrupt:
            click.echo(_("drill: interrupted"), err=True)
            ctx.exit(130)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=N_(
        "Drill for Transformer interviews: spaced-repetition review, timed quizzes and the attention maths "
        "step by step, from the course chapter."
    ),
)
@click.version_option(__version__, prog_name="drill", help=VERSION_OPTION_HELP)
@lang_option
def cli() -> None:
    pass


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    set_language(startup_language(args))  # before click parses: --help and parse errors are translated too
    cli.main(args=args, prog_name="drill")
