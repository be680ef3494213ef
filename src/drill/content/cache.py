"""A JSON cache of validated content, so the study screen does not re-parse YAML on every start.

Parsing and validating the chapter costs ~50-100 ms (PyYAML's resolver runs in Python even with libyaml);
reading the same records back from JSON costs a few. The cache lives in the user cache directory
(drill.paths.cache_dir: platformdirs, or DRILL_CACHE_DIR) and is keyed on every content file's path, size, mtime
and ctime, drill's version, this module's format and the engine's step catalog (which validation depends on).
Only successful loads are cached, so a bad file is always reported; a missing, stale, corrupt or unwritable cache
is silently bypassed. JSON, not pickle: reading a cache never runs code. Nor is it trusted: every record is
read back through the same field rules as the YAML (drill.fields, drill.content.rules), so an edited cache
cannot bring in a control character, a wrong type or a malformed id; one that fails is not used.
Cross-references (a quiz's cards exist) were checked when the entry was written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from drill import fields
from drill.content.kinds import KINDS
from drill.content.loader import PACK_FILES
from drill.content.models import Check, Erratum, Library, Pack, Quiz

FORMAT = (
    6  # 4: cards have points; 5: bank_question, errata (errata.yaml and each card's notes); 6: card kinds
)


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
    from drill.paths import cache_dir

    return cache_dir() / f"content-{key}.json"


class _Refused(Exception):
    """A cached record fails its rules: the cache is not used."""


class _CacheErrors(fields.Errors):
    """Any problem with a cached record means "do not use the cache"."""

    def invalid(self, path: tuple, problem: str, spec: Any, values: dict[str, Any]) -> Exception:
        return _Refused(problem)


def read(key: str) -> Library | None:
    """The cached Library for ``key``, re-validated field by field; None when absent, stale or refused."""
    try:
        data = json.loads(cache_file(key).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("key") != key:
            return None
        errors = _CacheErrors()

        def records(cls: type, name: str) -> list:
            return [fields.read(cls, item, errors, trusted=False) for item in data[name]]

        cards = [fields.read(KINDS[item.pop("kind")], item, errors, trusted=False) for item in data["cards"]]
        return Library(
            packs=records(Pack, "packs"),
            cards={card.id: card for card in cards},
            quizzes=records(Quiz, "quizzes"),
            checks=records(Check, "checks"),
            errata=records(Erratum, "errata"),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError, _Refused):
        return None


def write(key: str, library: Library) -> None:
    data = {
        "format": FORMAT,
        "key": key,
        "packs": [fields.dump(p) for p in library.packs],
        "cards": [{"kind": c.kind, **fields.dump(c)} for c in library.cards.values()],
        "quizzes": [fields.dump(q) for q in library.quizzes],
        "checks": [fields.dump(c) for c in library.checks],
        "errata": [fields.dump(e) for e in library.errata],
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
    except OSError:  # a read-only or full cache directory: run without the cache
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
