"""The chapter's interactive demos as data: `demos.yaml` in a pack (the packaged one: data/demos.yaml).

Each entry is one `:::demo` block of the chapter: ``name`` ([a-z0-9-]+, unique), ``section`` ("7.12"),
``title`` and ``description`` in the chapter's words (never translated). Errors name file, line and field.
Pure Python: no numpy, textual or rich.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from drill.content.yamlio import read_yaml

DEMOS_FILE = "demos.yaml"
NAME = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
SECTION = re.compile(r"7\.\d{1,2}\Z")
FIELDS = ("name", "section", "title", "description")


@dataclass(frozen=True, kw_only=True)
class DemoInfo:
    name: str
    section: str
    title: str
    description: str


def demos_path(content_path: str | Path | None = None) -> Path:
    from drill.content.loader import default_content_path

    base = Path(content_path) if content_path is not None else default_content_path()
    return base / DEMOS_FILE if base.is_dir() else base


def load_demos(path: str | Path | None = None) -> list[DemoInfo]:
    """The demos listed in ``path`` (a demos.yaml, or a pack directory holding one; default: the packaged
    one), in file order. Raises ContentError naming file, line and field."""
    doc = read_yaml(demos_path(path))
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("demos"), list):
        raise doc.error(("demos",), "expected a list under `demos:`")
    unknown = sorted(set(data) - {"demos"})
    if unknown:
        raise doc.error((unknown[0],), "unknown key (allowed: demos)")
    out: list[DemoInfo] = []
    seen: set[str] = set()
    for i, entry in enumerate(data["demos"]):
        where = ("demos", i)
        if not isinstance(entry, dict):
            raise doc.error(where, "expected a mapping with name, section, title, description")
        for key in entry:
            if key not in FIELDS:
                raise doc.error((*where, key), f"unknown field (allowed: {', '.join(FIELDS)})")
        for key in FIELDS:
            value = entry.get(key)
            if not isinstance(value, str) or not value.strip():
                raise doc.error((*where, key) if key in entry else where, f"`{key}` must be non-empty text")
        if not NAME.match(entry["name"]):
            raise doc.error((*where, "name"), "a demo name is [a-z0-9-]+")
        if entry["name"] in seen:
            raise doc.error((*where, "name"), f"duplicate demo name {entry['name']!r}")
        if not SECTION.match(entry["section"]):
            raise doc.error((*where, "section"), 'a section is written "7.N"')
        seen.add(entry["name"])
        out.append(DemoInfo(**{key: entry[key] for key in FIELDS}))
    return out
