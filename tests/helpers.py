"""Helpers shared across the test packages (imported as ``from tests.helpers import ...``)."""

from __future__ import annotations

import io

from rich.console import Console


def plain(widget) -> str:
    """All the text a Static shows: its content drawn to plain text (tables included), 200 columns wide."""
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(widget.content)
    return console.export_text()
