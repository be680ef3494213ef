"""The `drill` console script and `python -m drill`: the click group in drill.cli.

`drill --help` goes through click like every other command (about 0.15 s), in the UI language drill.cli
chooses before click parses; the group loads a subcommand's module only when that subcommand runs, so the
help imports neither textual, numpy nor sqlalchemy.
"""

from __future__ import annotations

from drill.cli import main

__all__ = ["main"]
