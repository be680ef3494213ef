"""The `drill` console script.

`drill --help` is the first command a new user runs; answering it costs an interpreter start plus
importing click (about 50 ms, most of the time). So the help text for terminals of 80 columns or more is
kept as a string (drill/help_text.py, kept equal to click's output by tests/test_cli.py) and printed
without importing click. Everything else goes to the click group in drill.cli.
"""

from __future__ import annotations

import sys

CLICK_HELP_WIDTH = 80  # click wraps help at min(terminal columns, 80)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--help"], ["-h"]) and _terminal_columns() >= CLICK_HELP_WIDTH:
        from drill.help_text import HELP_TEXT

        sys.stdout.write(HELP_TEXT)
        return
    from drill.cli import main as cli_main

    cli_main(args)


def _terminal_columns() -> int:
    """shutil.get_terminal_size().columns, which click uses, without importing shutil (re, fnmatch: ~15 ms)."""
    import os

    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80
