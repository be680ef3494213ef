"""The `drill` console script.

`drill --help` is the first command a new user runs; answering it costs an interpreter start plus
importing click (about 50 ms, most of the time). So the help text for terminals of 80 columns or more is
kept as a string (drill/help_text.py, kept equal to click's output by tests/test_cli.py) and printed
without importing click. Everything else goes to the click group in drill.cli.

The help is in the UI language (drill.i18n.startup_language): the locale environment decides here unless a
config file may set ``ui.language``, in which case click's path reads it properly. Finding the config file
without platformdirs is done only where its location is plain (DRILL_CONFIG_DIR, or XDG on Linux).
"""

from __future__ import annotations

import sys

CLICK_HELP_WIDTH = 80  # click wraps help at min(terminal columns, 80)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args in (["--help"], ["-h"]) and _terminal_columns() >= CLICK_HELP_WIDTH:
        language = _language_without_config()
        if language is not None:
            from drill.help_text import HELP_TEXTS

            sys.stdout.write(HELP_TEXTS[language])
            return
    from drill.cli import main as cli_main

    cli_main(args)


def _language_without_config() -> str | None:
    """The UI language from the locale environment when no config file can set it; None to ask click."""
    import os

    config_dir = os.environ.get("DRILL_CONFIG_DIR")
    if not config_dir:
        if sys.platform != "linux":
            return None
        xdg = os.environ.get("XDG_CONFIG_HOME", "").strip()
        config_dir = os.path.join(xdg or os.path.expanduser("~/.config"), "drill")
    try:
        with open(os.path.join(config_dir, "drill.toml"), "rb") as handle:
            if b"language" in handle.read():
                return None
    except OSError:
        pass
    from drill.i18n import language_from_environment

    return language_from_environment()


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
