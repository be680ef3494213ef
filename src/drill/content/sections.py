"""The chapter's sections as a rule, declared once: their order, and what "section S" covers.

Every surface that sorts sections (drill check, the study and custom-study lists, the mix of new cards,
readiness, the report, the Anki export) or filters by ``--section`` (report, interview, export) asks here.
"""

from __future__ import annotations

import re


def section_key(section: str) -> tuple[tuple[int, int, str], ...]:
    """Natural order, part by part: 7.2 before 7.10; a part that is not a number after the numbered ones, by
    name (a pack whose sections are words still sorts, never raises)."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"[.\s]+", section)
    )


def covers(wanted: str | None, section: str) -> bool:
    """Whether ``--section wanted`` covers a card of ``section``: that section or one of its sub-sections
    (7.1 covers 7.1 and 7.1.2, not 7.10); no ``wanted`` covers every card."""
    return wanted is None or section == wanted or section.startswith(wanted + ".")
