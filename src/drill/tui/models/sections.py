"""Section titles from the chapter a pack quotes (its `source:`): "7.9" -> "为什么除 √d_k".

Read when a screen first needs them (the browser), never at start-up; cached per process. The chapter's own
words (its ``## 7.9 …`` headings, the trailing ★ dropped). A pack without a source, or one that can't be read,
gives no titles: the section number is then shown alone.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.content.models import Library

HEADING = re.compile(r"^##\s+(\d+(?:\.\d+)+)\s+(.+?)\s*★?\s*$")


@cache
def _titles_in(path: Path) -> dict[str, str]:
    titles: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return titles
    for line in text.splitlines():
        match = HEADING.match(line)
        if match:
            titles.setdefault(match.group(1), match.group(2))
    return titles


def section_titles(library: Library) -> dict[str, str]:
    """Every section number of the library's packs' chapters -> its title."""
    titles: dict[str, str] = {}
    for pack in library.packs:
        if pack.source:
            for section, title in _titles_in(Path(pack.path) / pack.source).items():
                titles.setdefault(section, title)
    return titles


def section_label(section: str, titles: dict[str, str]) -> str:
    """ "7.9 为什么除 √d_k", or "7.9" when the chapter has no such heading."""
    title = titles.get(section)
    return f"{section} {title}" if title else section
