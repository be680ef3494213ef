"""Chapter sections in a report's CSV: a section written so that text and number sorts agree. Their order and
what ``--section`` covers are the content layer's one rule (drill.content.sections)."""

from __future__ import annotations


def sortable(section: str) -> str:
    """The CSV's ``section_key``: every number after the first two digits wide ("7.2" -> "7.02", "7.10" ->
    "7.10", "7.2.1" -> "7.02.01"), so the text sorts as the chapter runs, and a spreadsheet or pandas that
    reads "7.02" and "7.10" as numbers still orders them right and never merges 7.10 with 7.1."""
    parts = section.split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts):
        return section
    return ".".join([parts[0], *(p.zfill(2) for p in parts[1:])])
