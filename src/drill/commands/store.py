"""`drill backup` and `drill restore` (not built yet)."""

import click

from drill.commands._stub import not_built


def _stub(name: str) -> click.Command:
    @click.command(name=name, context_settings={"ignore_unknown_options": True})
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def command(args) -> None:
        """(not built yet)"""
        not_built(name)

    return command


backup = _stub("backup")
restore = _stub("restore")
