"""Find content packs, load and validate them, and check every reference between them.

A pack is a directory holding ``questions.yaml`` and optionally ``quizzes.yaml`` and ``checks.yaml``. The path
given (``--content`` / ``DRILL_CONTENT``) is a pack or a directory whose sub-directories are packs; without one,
the content shipped inside the package (``drill/data``) is used, or the repository's ``data/`` in a source
checkout.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from drill.content.kinds import CalcCard, expand
from drill.content.models import Card, Check, Erratum, Library, Pack, Quiz
from drill.errors import ContentError

if TYPE_CHECKING:
    from drill.content.cache import PartialLibrary
    from drill.content.yamlio import Document

# drill.content.schema and .yamlio (and so PyYAML) are imported only when YAML is actually parsed: a start-up
# served from the cache never pays for them.

QUESTIONS, QUIZZES, CHECKS, ERRATA = "questions.yaml", "quizzes.yaml", "checks.yaml", "errata.yaml"
PACK_FILES = (QUESTIONS, QUIZZES, CHECKS, ERRATA)


def default_content_path() -> Path:
    """The packaged content (wheel: drill/data), else <repo>/data in a source or editable checkout."""
    here = Path(__file__).resolve()
    for candidate in (here.parent.parent / "data", here.parents[3] / "data"):
        if (candidate / QUESTIONS).is_file():
            return candidate
    raise ContentError(
        f"no content found: neither {here.parent.parent / 'data'} nor {here.parents[3] / 'data'} "
        f"holds {QUESTIONS} (reinstall drill, or pass --content PATH)"
    )


def find_packs(path: str | Path) -> list[Path]:
    """The pack directories named by ``path`` (a pack, a directory of packs, or a file inside a pack)."""
    path = Path(path)
    if not path.exists():
        raise ContentError(f"{path}: no such file or directory")
    if path.is_file():
        if path.name not in PACK_FILES:
            raise ContentError(f"{path}: not a content file (expected a directory holding {QUESTIONS})")
        path = path.parent
    if (path / QUESTIONS).is_file():
        return [path]
    packs = []
    for sub in sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        if (sub / QUESTIONS).is_file():
            packs.append(sub)
        elif any((sub / name).is_file() for name in PACK_FILES[1:]):
            raise ContentError(f"{sub}: has quizzes or checks but no {QUESTIONS}")
    if not packs:
        raise ContentError(f"{path}: no {QUESTIONS} here or in its sub-directories (not a content pack)")
    return packs


def resolve_content_path(path: str | Path | None) -> Path:
    if path is None or str(path) == "":
        env = os.environ.get("DRILL_CONTENT")
        return Path(env) if env else default_content_path()
    return Path(path)


def load_content(path: str | Path | None = None, *, cache: bool = True) -> Library:
    """Load and validate every pack under ``path`` (default: DRILL_CONTENT, else the shipped chapter).

    With ``cache`` (the default) an unchanged content set is read back from a JSON cache in the user cache
    directory, or for the shipped content from the entry validated when drill was built (drill.content.cache;
    either re-validated on reading); `drill check` passes ``cache=False`` to validate from scratch.
    """
    if cache:
        library = load_cached_content(path)
        if library is not None:
            return library
    pack_dirs = find_packs(resolve_content_path(path))
    library = _Builder().build(pack_dirs)
    if cache:
        from drill.content import cache as content_cache

        content_cache.write(content_cache.cache_key(pack_dirs, engine_catalog()), library)
    return _registered(library)


def load_cached_content(path: str | Path | None = None, *, partial: bool = False) -> Library | None:
    """`load_content`'s result when its cache holds it (milliseconds), else None: building it from the packs
    takes seconds (`load_content` does it, and caches it). ``partial``: a `PartialLibrary` (drill.content.cache:
    the packs, quizzes, errata and checks, each card's keys, the cards read as they are taken), to be
    `completed`."""
    from drill.content import cache as content_cache

    read = content_cache.first_load if partial else content_cache.load
    library = read(find_packs(resolve_content_path(path)), engine_catalog())
    return None if library is None else _registered(library)


def completed(library: PartialLibrary) -> Library | None:
    """Every record of a partial load read through its rules (None when one is refused: load the YAML)."""
    full = library.complete()
    return None if full is None else _registered(full)


def _registered(library: Library) -> Library:
    """The library, its errata made the ones drill.content.errata looks chapter text up against."""
    from drill.content.errata import set_errata

    set_errata(library.errata, library.checks)
    return library


class _Builder:
    def __init__(self) -> None:
        from drill.content import schema, yamlio

        self.schema, self.read_yaml = schema, yamlio.read_yaml
        self.library = Library()
        self.origin: dict[tuple[str, str], tuple[Document, tuple]] = {}  # (kind, id) -> where it was defined
        self.pack_paths: dict[str, Path] = {}

    def build(self, pack_dirs: list[Path]) -> Library:
        refs: list[tuple[Document, tuple, str]] = []  # (doc, path, card id) to resolve once all packs are in
        for pack_dir in pack_dirs:
            self._load_pack(pack_dir, refs)
        for doc, path, card_id in refs:
            if card_id not in self.library.cards:
                raise doc.error(path, f"card {card_id!r} does not exist")
        self._resolve_calc_cards()
        _check_engine_refs(self.library, self.origin)
        return self.library

    def _claim(self, kind: str, item_id: str, doc: Document, path: tuple) -> None:
        first = self.origin.get((kind, item_id))
        if first is not None:
            first_doc, first_path = first
            raise doc.error(
                path + ("id",),
                f"duplicate {kind} id {item_id!r} (first defined at {first_doc.file}:{first_doc.line(first_path + ('id',))})",
            )
        self.origin[(kind, item_id)] = (doc, path)

    def _load_pack(self, pack_dir: Path, refs: list) -> None:
        doc = self.read_yaml(pack_dir / QUESTIONS)
        raw_cards = self.schema.items(doc, "cards", "cards", Pack)
        pack = self.schema.pack_from(doc, pack_dir)
        if pack.id in self.pack_paths:
            raise doc.error(
                ("pack",), f"duplicate pack id {pack.id!r} (also used by {self.pack_paths[pack.id]})"
            )
        self.pack_paths[pack.id] = pack_dir

        banks: dict[int, str] = {}
        card_ids = []
        for i, raw in enumerate(raw_cards):
            for card in expand(self.schema.card_from(doc, i, raw, pack.id)):
                self._claim("card", card.id, doc, ("cards", i))
                if card.bank is not None:
                    if card.bank in banks:
                        raise doc.error(
                            ("cards", i, "bank"),
                            f"bank number {card.bank} is already used by card {banks[card.bank]!r}",
                        )
                    banks[card.bank] = card.id
                self.library.cards[card.id] = card
                card_ids.append(card.id)

        quiz_ids = self._load_quizzes(pack_dir, pack.id, refs)
        check_ids = self._load_checks(pack_dir, pack.id, refs)
        erratum_ids = self._load_errata(pack_dir, pack.id, card_ids)
        self.library.packs.append(
            replace(
                pack,
                card_ids=tuple(card_ids),
                quiz_ids=tuple(quiz_ids),
                check_ids=tuple(check_ids),
                erratum_ids=tuple(erratum_ids),
            )
        )

    def _resolve_calc_cards(self) -> None:
        """A hand-calculation card asks the element of its ``check``: the check's step, index and precision,
        and the check's erratum when the chapter printed the element wrong."""
        checks = {check.id: check for check in self.library.checks}
        for card_id, card in self.library.cards.items():
            if not isinstance(card, CalcCard):
                continue
            check = checks.get(card.check)
            if check is None:
                doc, path = self.origin[("card", card_id)]
                raise doc.error(path + ("check",), f"check {card.check!r} does not exist (checks.yaml)")
            errata = card.errata
            if check.erratum:  # the chapter's printed value is wrong: the card says so, with the engine's
                errata = (*errata, f"「{check.claimed:g}」：{check.erratum}")
            self.library.cards[card_id] = replace(
                card,
                example=check.example,
                step=check.step,
                index=check.index,
                decimals=check.decimals,
                errata=errata,
            )

    def _side_file(self, pack_dir: Path, name: str, key: str, pack_id: str):
        file = pack_dir / name
        if not file.exists():
            return None, []
        doc = self.read_yaml(file)
        raw = self.schema.items(doc, key, key, self.schema.SideFile)
        declared = self.schema.side_pack(doc, key)
        if declared is not None and declared != pack_id:
            raise doc.error(("pack",), f"pack {declared!r} does not match {QUESTIONS}'s pack {pack_id!r}")
        return doc, raw

    def _load_quizzes(self, pack_dir: Path, pack_id: str, refs: list) -> list[str]:
        doc, raw = self._side_file(pack_dir, QUIZZES, "quizzes", pack_id)
        ids = []
        for i, item in enumerate(raw):
            quiz: Quiz = self.schema.quiz_from(doc, i, item, pack_id)
            self._claim("quiz", quiz.id, doc, ("quizzes", i))
            refs.extend((doc, ("quizzes", i, "cards", j), card_id) for j, card_id in enumerate(quiz.cards))
            self.library.quizzes.append(quiz)
            ids.append(quiz.id)
        return ids

    def _load_checks(self, pack_dir: Path, pack_id: str, refs: list) -> list[str]:
        doc, raw = self._side_file(pack_dir, CHECKS, "checks", pack_id)
        ids = []
        for i, item in enumerate(raw):
            check: Check = self.schema.check_from(doc, i, item, pack_id)
            self._claim("check", check.id, doc, ("checks", i))
            if check.card is not None:
                refs.append((doc, ("checks", i, "card"), check.card))
            self.library.checks.append(check)
            ids.append(check.id)
        return ids

    def _load_errata(self, pack_dir: Path, pack_id: str, card_ids: list[str]) -> list[str]:
        """errata.yaml: each erratum goes on every card of the pack that shows one of its claims."""
        doc, raw = self._side_file(pack_dir, ERRATA, "errata", pack_id)
        check_ids = {check.id for check in self.library.checks}
        ids = []
        for i, item in enumerate(raw):
            erratum: Erratum = self.schema.erratum_from(doc, i, item, pack_id)
            self._claim("erratum", erratum.id, doc, ("errata", i))
            if erratum.check is not None and erratum.check not in check_ids:
                raise doc.error(("errata", i, "check"), f"check {erratum.check!r} does not exist")
            shown = []
            for card_id in card_ids:
                card = self.library.cards[card_id]
                texts = card.shown_text()
                if any(claim.strip() in text for claim in erratum.claims for text in texts):
                    note = f"「{erratum.claims[0].strip()}」：{erratum.note}"
                    self.library.cards[card_id] = replace(card, errata=(*card.errata, note))
                    shown.append(card_id)
            self.library.errata.append(replace(erratum, cards=tuple(shown)))
            ids.append(erratum.id)
        return ids


def engine_catalog() -> dict[str, tuple[str, ...]] | None:
    """drill.engine.catalog.EXAMPLE_STEPS (pure Python) when the engine provides it, else None."""
    try:
        from drill.engine.catalog import EXAMPLE_STEPS
    except ModuleNotFoundError as err:
        if err.name in ("drill.engine.catalog", "drill.engine"):
            return None
        raise
    return EXAMPLE_STEPS


def _check_engine_refs(library: Library, origin: dict) -> None:
    """Card ``steps`` and check ``example``/``step`` must name real engine steps (when the catalog exists)."""
    catalog = engine_catalog()
    if catalog is None:
        return

    def known(example: str, step: str, doc: Document, path: tuple, what: str) -> None:
        if example not in catalog:
            raise doc.error(
                path, f"{what}: unknown engine example {example!r} (known: {', '.join(sorted(catalog))})"
            )
        if step not in catalog[example]:
            raise doc.error(
                path,
                f"{what}: example {example!r} has no step {step!r} (its steps: {', '.join(catalog[example])})",
            )

    card: Card
    for card in library.cards.values():
        doc, path = origin[("card", card.id)]
        for j, ref in enumerate(card.steps):
            example, step = ref.split("/")
            known(example, step, doc, path + ("steps", j), f"step ref {ref!r}")
    for check in library.checks:
        doc, path = origin[("check", check.id)]
        known(check.example, check.step, doc, path + ("step",), f"check {check.id}")
