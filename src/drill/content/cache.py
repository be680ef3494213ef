"""A JSON cache of validated content, so the study screen does not re-parse YAML on every start.

Parsing and validating the chapter costs ~50-100 ms (PyYAML's resolver runs in Python even with libyaml);
reading the same records back from JSON costs a few. The cache lives in the user data directory and is keyed on
every content file's path, size, mtime and ctime, drill's version, this module's format and the engine's step
catalog (which validation depends on). Only successful loads are cached, so a bad file is always reported; a
missing, stale, corrupt or unwritable cache is silently bypassed. JSON, not pickle: reading a cache never runs
code.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path

from drill.content.models import Card, Check, Library, Pack, Quiz

FORMAT = 1
PACK_FILES = ("questions.yaml", "quizzes.yaml", "checks.yaml")


def cache_key(pack_dirs: list[Path], catalog: object) -> str:
    from drill import __version__

    parts: list[object] = [FORMAT, __version__, repr(sorted(catalog.items())) if catalog else None]
    for pack_dir in pack_dirs:
        for name in PACK_FILES:
            file = (pack_dir / name).resolve()
            try:
                st = file.stat()
            except FileNotFoundError:
                parts.append((str(file), None))
                continue
            parts.append((str(file), st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:32]


def cache_file(key: str) -> Path:
    from drill.paths import data_dir

    return data_dir() / "cache" / f"content-{key}.json"


def read(key: str) -> Library | None:
    try:
        data = json.loads(cache_file(key).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("key") != key:
            return None
        return Library(
            packs=[
                Pack(
                    id=p["id"],
                    title=p["title"],
                    path=Path(p["path"]),
                    source=p["source"],
                    card_ids=tuple(p["card_ids"]),
                    quiz_ids=tuple(p["quiz_ids"]),
                    check_ids=tuple(p["check_ids"]),
                )
                for p in data["packs"]
            ],
            cards={c["id"]: _card(c) for c in data["cards"]},
            quizzes=[_quiz(q) for q in data["quizzes"]],
            checks=[_check(c) for c in data["checks"]],
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write(key: str, library: Library) -> None:
    data = {
        "format": FORMAT,
        "key": key,
        "packs": [dict(asdict(p), path=str(p.path)) for p in library.packs],
        "cards": [asdict(c) for c in library.cards.values()],
        "quizzes": [asdict(q) for q in library.quizzes],
        "checks": [asdict(c) for c in library.checks],
    }
    target = cache_file(key)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        for old in target.parent.glob("content-*.json"):  # one entry per content set is enough
            if old != target:
                old.unlink(missing_ok=True)
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, target)
    except OSError:  # a read-only or full data directory: run without the cache
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def _tuples(record: dict, *names: str) -> dict:
    for name in names:
        if record.get(name) is not None:
            record[name] = tuple(record[name])
    return record


def _card(c: dict) -> Card:
    return Card(**_tuples(c, "tags", "asked_in", "pitfalls", "steps"))


def _quiz(q: dict) -> Quiz:
    return Quiz(**_tuples(q, "cards"))


def _check(c: dict) -> Check:
    c["index"] = tuple(c["index"])
    return Check(**c)
