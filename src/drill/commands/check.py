"""`drill check` (not built yet)."""

import click

from drill.commands._stub import not_built


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def check(args) -> None:
    """(not built yet)"""
    not_built("check")
