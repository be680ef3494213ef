"""The `drill` command line: a click group whose subcommands load lazily.

Each subcommand lives in ``drill.commands.<name>`` and imports its heavy dependencies (textual, numpy,
sqlalchemy) inside the command body, so ``drill --help`` stays fast. Errors a user can fix are
``DrillError``s: printed as one line on stderr with a non-zero exit, never as a traceback.
"""

from __future__ import annotations

import importlib

import click

from drill import __version__
from drill.errors import DrillError

# name -> "module:attribute"; the order is the order shown in --help.
COMMANDS: dict[str, str] = {
    "study": "drill.commands.study:study",
    "quiz": "drill.commands.quiz:quiz",
    "calc": "drill.commands.calc:calc",
    "report": "drill.commands.report:report",
    "export": "drill.commands.report:export",
    "code": "drill.commands.code:code",
    "plan": "drill.commands.plan:plan",
    "check": "drill.commands.check:check",
    "config": "drill.commands.srs:config",
    "backup": "drill.commands.store:backup",
    "restore": "drill.commands.store:restore",
    "optimize": "drill.commands.srs:optimize",
}


class LazyGroup(click.Group):
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
            click.echo(f"drill: error: {err}", err=True)
            ctx.exit(err.exit_code)
        except KeyboardInterrupt:
            click.echo("drill: interrupted", err=True)
            ctx.exit(130)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="drill")
def cli() -> None:
    """Drill for Transformer interviews: spaced-repetition review, timed quizzes and the attention maths
    step by step, from the course chapter."""


def main(argv: list[str] | None = None) -> None:
    cli.main(args=argv, prog_name="drill")
