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
