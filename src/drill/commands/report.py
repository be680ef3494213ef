"""`drill report` and `drill export` (not built yet)."""

import click

from drill.commands._stub import not_built


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def report(args) -> None:
    """(not built yet)"""
    not_built("report")


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def export(args) -> None:
    """(not built yet)"""
    not_built("export")
