"""The pack carries its source: every field declared verbatim occurs, word for word, in the pack's chapter.

A pack's questions.yaml names its ``source`` (a file inside the pack: the chapter the cards are taken from).
Which fields are the chapter's words is declared once, in the models (`rules.VERBATIM`, `Options(verbatim=True)`,
`TextList(VERBATIM)`); this module re-reads the pack's YAML for the line of each field and looks every verbatim
string up in the source. Used by `drill check` only (a normal start-up never reads the chapter).

A multi-line field is looked up whole; when it is missing, the message quotes its first line that is not in the
source, so a changed table cell or code line is easy to find.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from drill import fields
from drill.content.kinds import card_class
from drill.content.loader import ERRATA, QUESTIONS, QUIZZES
from drill.content.models import Erratum, Library, Pack, Quiz
from drill.errors import ContentError

# file -> (list key, the Library mapping that holds its records by id)
_FILES = ((QUESTIONS, "cards"), (QUIZZES, "quizzes"), (ERRATA, "errata"))


_NOUN = {"cards": "card", "quizzes": "quiz", "errata": "erratum"}
_CLASSES = {"quizzes": Quiz, "errata": Erratum}


@dataclass(frozen=True)
class Missing:
    """A verbatim field whose text is not in the source."""

    file: Path
    line: int
    field: str  # "cards[3].pitfalls[1]"
    record: str  # "card q07"
    fragment: str  # the first line of the field that is not in the source (or the whole field, shortened)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}: not in the pack's source ({self.record}): {self.fragment!r}"


def source_text(pack: Pack) -> str | None:
    """The pack's source text, or None when the pack names no source; a named source that is missing is an error."""
    if pack.source is None:
        return None
    file = pack.path / pack.source
    if not file.is_file():
        raise ContentError(
            f"{pack.path / QUESTIONS}:1: source: {pack.source!r} is not a file in the pack ({file})"
        )
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ContentError(f"{file}: cannot read the pack's source: {err}") from None


def verbatim_strings(rule: fields.Rule, value: object, path: tuple) -> Iterator[tuple[tuple, str]]:
    """(path, text) for each string of a field declared verbatim (a text, a list of texts, a mapping of texts)."""
    if not getattr(rule, "verbatim", False) or value is None:
        return
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from verbatim_strings(rule, item, path + (i,))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from verbatim_strings(rule, item, path + (key,))


@dataclass(frozen=True)
class SourceReport:
    checked: int  # verbatim strings looked up
    missing: tuple[Missing, ...]
    unsourced: tuple[str, ...]  # ids of packs that name no source (nothing to check against)


def check_sources(library: Library) -> SourceReport:
    """Look up every verbatim field of every pack that names a source."""
    from drill.content.yamlio import format_path, read_yaml

    out: list[Missing] = []
    checked = 0
    unsourced = []
    for pack in library.packs:
        source = source_text(pack)
        if source is None:
            unsourced.append(pack.id)
            continue
        for name, key in _FILES:
            file = pack.path / name
            if not file.is_file():
                continue
            doc = read_yaml(file)
            for i, raw in enumerate(doc.data.get(key) or []):
                # the record's class (a card's kind); a record may make several cards (a table, a pair)
                cls = card_class(raw) if key == "cards" else _CLASSES[key]
                for spec in fields.specs(cls):
                    for path, text in verbatim_strings(spec.rule, raw.get(spec.key), (key, i, spec.key)):
                        checked += 1
                        if text.strip() in source:
                            continue
                        out.append(
                            Missing(
                                file=file,
                                line=_line(doc, path, text, source),
                                field=format_path(path),
                                record=f"{_NOUN[key]} {raw['id']}",
                                fragment=_first_missing_line(text, source),
                            )
                        )
    return SourceReport(checked, tuple(out), tuple(unsourced))


def _first_missing_line(text: str, source: str) -> str:
    for line in text.splitlines():
        if line.strip() and line.strip() not in source:
            return _short(line.strip())
    return _short(" ".join(text.split()))


def _line(doc, path: tuple, text: str, source: str) -> int:
    """The line of the first line of the field's text that is not in the source (a block scalar's own line)."""
    line = doc.line(path)
    lines = text.splitlines()
    if len(lines) < 2:
        return line
    try:
        raw = doc.file.read_text(encoding="utf-8").splitlines()
    except OSError:
        return line
    for target in lines:
        if target.strip() and target.strip() not in source:
            for n in range(line - 1, len(raw)):
                if target.strip() in raw[n]:
                    return n + 1
            break
    return line


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
