"""Chapter sections in a report: their natural order and what ``--section`` covers."""

from __future__ import annotations

import re


def section_key(section: str) -> tuple:
    """Natural order: 7.2 before 7.10."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"[.\s]+", section)
    )


def in_section(card_section: str, wanted: str) -> bool:
    """Whether ``--section wanted`` covers a card of ``card_section`` (the section or one of its sub-sections)."""
    return card_section == wanted or card_section.startswith(wanted + ".")


def sortable(section: str) -> str:
    """The CSV's ``section_key``: every number after the first two digits wide ("7.2" -> "7.02", "7.10" ->
    "7.10", "7.2.1" -> "7.02.01"), so the text sorts as the chapter runs, and a spreadsheet or pandas that
    reads "7.02" and "7.10" as numbers still orders them right and never merges 7.10 with 7.1."""
    parts = section.split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts):
        return section
    return ".".join([parts[0], *(p.zfill(2) for p in parts[1:])])
