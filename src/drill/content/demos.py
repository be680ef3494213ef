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
    unknown = sorted(set(data) - {"demos", "attention"})
    if unknown:
        raise doc.error((unknown[0],), "unknown key (allowed: demos, attention)")
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


@dataclass(frozen=True, kw_only=True)
class AttentionData:
    """7.1's illustrative attention: the sentence's tokens and one distribution per token (rows sum to 1)."""

    tokens: tuple[str, ...]
    weights: tuple[tuple[float, ...], ...]


def load_attention(path: str | Path | None = None) -> AttentionData:
    """The `attention:` block of demos.yaml: ``tokens`` (non-empty text) and ``weights`` (one row per token,
    one non-negative number per token, each row summing to 1 ± 0.01). Raises ContentError (file:line: field)."""
    doc = read_yaml(demos_path(path))
    block = doc.data.get("attention") if isinstance(doc.data, dict) else None
    if not isinstance(block, dict):
        raise doc.error(("attention",), "expected a mapping with tokens and weights")
    for key in block:
        if key not in ("tokens", "weights"):
            raise doc.error(("attention", key), "unknown field (allowed: tokens, weights)")
    tokens = block.get("tokens")
    if not isinstance(tokens, list) or not tokens or not all(isinstance(t, str) and t for t in tokens):
        raise doc.error(("attention", "tokens"), "expected a list of non-empty tokens")
    rows = block.get("weights")
    if not isinstance(rows, list) or len(rows) != len(tokens):
        raise doc.error(("attention", "weights"), f"expected one row per token ({len(tokens)} rows)")
    weights = []
    for i, row in enumerate(rows):
        where = ("attention", "weights", i)
        if not isinstance(row, list) or len(row) != len(tokens):
            raise doc.error(where, f"expected {len(tokens)} weights (one per token)")
        for j, value in enumerate(row):
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise doc.error((*where, j), f"a weight is a number in [0, 1], got {value!r}")
        if abs(sum(row) - 1.0) > 0.01 + 1e-9:
            raise doc.error(where, f"the weights of {tokens[i]!r} sum to {sum(row):.3f}, not 1")
        weights.append(tuple(float(v) for v in row))
    return AttentionData(tokens=tuple(tokens), weights=tuple(weights))
