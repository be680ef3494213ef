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

The content shipped with drill has a second entry, validated when drill is built (`hatch_build.py` writes
``drill/content/shipped-content.json``, as it compiles the catalogs): a first-ever start finds no user cache
but need not parse the YAML either. It is keyed on the bytes of the pack files and of the code that builds the
records (it must hold wherever drill is installed), is used only when those are exactly the files it was
built from, and is read through the same rules as any entry; its packs get the directories they are loaded
from.

A start-up need not wait for every record: `first_load` reads the packs, each card's pack, id and section (by
their fields' rules) and then only the card(s) asked for (`PartialLibrary.take`), each through all of its
rules; `PartialLibrary.complete` reads every record, the same way as `read`, before anything else uses the
content (the study screen does it while its store opens). A record refused then refuses the whole entry then:
the caller loads the YAML instead.
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
from drill.content.models import Card, Check, Erratum, Library, Pack, Quiz

FORMAT = (
    6  # 4: cards have points; 5: bank_question, errata (errata.yaml and each card's notes); 6: card kinds
)
SHIPPED = Path(__file__).with_name("shipped-content.json")  # built by hatch_build.py; not in git
# The modules that make and check the records (below the drill package): the shipped entry is keyed on their
# bytes too, so an entry built by other code (an editable checkout edited since its build) is never used.
CODE_ROOT = Path(__file__).resolve().parent.parent
BUILT_BY = (
    "fields.py",
    "content/cache.py",
    "content/control.py",
    "content/kinds.py",
    "content/loader.py",
    "content/models.py",
    "content/rules.py",
    "content/schema.py",
    "content/yamlio.py",
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


def shipped_key(pack_dirs: list[Path], catalog: object) -> str:
    """The shipped entry's key: as `cache_key`, with each pack file's bytes (a digest) for its path and times,
    and the bytes of the code that builds the records (`BUILT_BY`)."""
    from drill import __version__

    def digest(file: Path) -> str | None:
        try:
            return hashlib.sha256(file.read_bytes()).hexdigest()
        except FileNotFoundError:
            return None

    parts: list[object] = [FORMAT, __version__, repr(sorted(catalog.items())) if catalog else None]
    parts += [digest(CODE_ROOT / name) for name in BUILT_BY]
    parts += [digest(pack_dir / name) for pack_dir in pack_dirs for name in PACK_FILES]
    return "shipped-" + hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:32]


def cache_file(key: str) -> Path:
    from drill.paths import cache_dir

    return cache_dir() / f"content-{key}.json"


class _Refused(Exception):
    """A cached record fails its rules: the cache is not used."""


class _CacheErrors(fields.Errors):
    """Any problem with a cached record means "do not use the cache"."""

    def invalid(self, path: tuple, problem: str, spec: Any, values: dict[str, Any]) -> Exception:
        return _Refused(problem)


class Entry:
    """A cache entry as read from disk (its format and key checked); records are read through their rules
    when asked for, never before."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.errors = _CacheErrors()

    def records(self, cls: type, name: str) -> list:
        return [fields.read(cls, item, self.errors, trusted=False) for item in self.data[name]]

    def card(self, item: dict[str, Any]) -> Card:
        values = dict(item)
        return fields.read(KINDS[values.pop("kind")], values, self.errors, trusted=False)

    def card_keys(self) -> list[tuple[str, str, str]]:
        """(pack, id, section) of every card, in order, each value checked by its field's rule."""
        rules = {spec.key: spec.rule for spec in fields.specs(Card)}  # every kind declares these as Card does
        pack, id_, section = rules["pack"], rules["id"], rules["section"]
        return [
            (pack.check(item["pack"]), id_.check(item["id"]), section.check(item["section"]))
            for item in self.data["cards"]
        ]

    def library(self) -> Library:
        """Every record read through its rules (`_Refused` if one is refused)."""
        cards = [self.card(item) for item in self.data["cards"]]
        return Library(
            packs=self.records(Pack, "packs"),
            cards={card.id: card for card in cards},
            quizzes=self.records(Quiz, "quizzes"),
            checks=self.records(Check, "checks"),
            errata=self.records(Erratum, "errata"),
        )


# What an unusable entry raises while its records are read (fields.Invalid is a ValueError).
_UNUSABLE = (OSError, ValueError, KeyError, TypeError, AttributeError, _Refused)


def _entry(key: str, file: Path | None = None) -> Entry | None:
    """The entry in ``file`` (default: the user cache's for ``key``) when it is one for ``key``."""
    try:
        data = json.loads((file or cache_file(key)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    return Entry(data)


def _shipped(pack_dirs: list[Path], catalog: object) -> Entry | None:
    """The shipped entry, when it was built from exactly these pack files; its packs get these directories."""
    if not SHIPPED.is_file():
        return None
    entry = _entry(shipped_key(pack_dirs, catalog), SHIPPED)
    try:
        if entry is None or len(entry.data["packs"]) != len(pack_dirs):
            return None
        for item, pack_dir in zip(entry.data["packs"], pack_dirs, strict=True):
            item["path"] = str(pack_dir)
    except _UNUSABLE:
        return None
    return entry


def entry_for(pack_dirs: list[Path], catalog: object) -> Entry | None:
    """The user cache's entry for these packs, else the shipped one; None when neither fits."""
    return _entry(cache_key(pack_dirs, catalog)) or _shipped(pack_dirs, catalog)


def _library(entry: Entry | None) -> Library | None:
    try:
        return None if entry is None else entry.library()
    except _UNUSABLE:
        return None


def read(key: str) -> Library | None:
    """The cached Library for ``key``, re-validated field by field; None when absent, stale or refused."""
    return _library(_entry(key))


def load(pack_dirs: list[Path], catalog: object) -> Library | None:
    """The Library of `entry_for` these packs, every record re-validated; None when absent, stale or refused."""
    return _library(entry_for(pack_dirs, catalog))


class PartialLibrary(Library):
    """A cache entry's packs, quizzes, errata and checks, and the cards read so far (`take`): what a start-up
    shows before `complete` (study's first card, the quiz's first question). The errata come at once: what is
    shown first is corrected by its own pack's notes (drill.content.loader registers them, as for every
    library it loads).

    ``card_keys``: (pack, id, section) of every card in content order (what the read-only peek needs), each
    checked by its field's rule. Only `complete` gives a Library to study from. (A plain subclass: making
    another dataclass costs a start-up a millisecond.)
    """

    def __init__(
        self,
        packs: list[Pack],
        card_keys: list[tuple[str, str, str]],
        entry: Entry,
        *,
        quizzes: list[Quiz],
        checks: list[Check],
        errata: list[Erratum],
    ) -> None:
        super().__init__(packs=packs, quizzes=quizzes, checks=checks, errata=errata)
        self.card_keys, self.entry = card_keys, entry
        self._sections: dict[str, str] | None = None

    def section_of(self, card_id: str) -> str | None:
        """From the card keys: no card need be read."""
        if self._sections is None:
            self._sections = {id_: section for _pack, id_, section in self.card_keys}
        return self._sections.get(card_id)

    def take(self, card_id: str) -> Card | None:
        """The card ``card_id`` read through its kind's rules (and kept in ``cards``); None when the entry
        has no such card or refuses it."""
        if card_id not in self.cards:
            try:
                item = next((i for i in self.entry.data["cards"] if i.get("id") == card_id), None)
                if item is not None:
                    self.cards[card_id] = self.entry.card(item)
            except _UNUSABLE:
                return None
        return self.cards.get(card_id)

    def complete(self) -> Library | None:
        """Every record of the entry read through its rules, as `read` does; None when one is refused."""
        return _library(self.entry)


def first_load(pack_dirs: list[Path], catalog: object) -> PartialLibrary | None:
    """The packs, card keys, quizzes, checks and errata of `entry_for` these packs (no card read yet); None
    when absent, stale or refused."""
    entry = entry_for(pack_dirs, catalog)
    if entry is None:
        return None
    try:
        return PartialLibrary(
            packs=entry.records(Pack, "packs"),
            card_keys=entry.card_keys(),
            entry=entry,
            quizzes=entry.records(Quiz, "quizzes"),
            checks=entry.records(Check, "checks"),
            errata=entry.records(Erratum, "errata"),
        )
    except _UNUSABLE:
        return None


def _dump(key: str, library: Library) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "key": key,
        "packs": [fields.dump(p) for p in library.packs],
        "cards": [{"kind": c.kind, **fields.dump(c)} for c in library.cards.values()],
        "quizzes": [fields.dump(q) for q in library.quizzes],
        "checks": [fields.dump(c) for c in library.checks],
        "errata": [fields.dump(e) for e in library.errata],
    }


def write(key: str, library: Library) -> None:
    data = _dump(key, library)
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


def write_shipped(target: Path, pack_dirs: list[Path], catalog: object, library: Library) -> Path:
    """The shipped entry for ``library``, loaded and validated from ``pack_dirs`` (hatch_build.py). Pack
    directories are not recorded (a pack gets the one it is loaded from)."""
    data = _dump(shipped_key(pack_dirs, catalog), library)
    for item in data["packs"]:
        item["path"] = "."
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return target
