"""The JSON files drill keeps beside a database (the study peek's plan, the interview peek's key): read one as a
dict or None, write one whole or not at all. Standard library only: the peeks read them before sqlalchemy loads."""

from __future__ import annotations

import json
import os
from pathlib import Path


def read_json(path: Path) -> dict | None:
    """The file's object, or None when it is missing, unreadable or not a JSON object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename: a reader sees the old file or the new."""
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)
