"""Parsed YAML documents -> Card / Quiz / Check / Pack records, by the fields declared in drill.content.models.

The reading itself is drill.fields.read (shared with the config); this module only says how a problem is
reported for content: the file, the line (from the Document's path -> line map) and the field, and which record
it is in ("card q07"). Unknown fields, missing or empty required fields and wrong types are all errors; nothing
is coerced.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drill import fields
from drill.content.kinds import card_class
from drill.content.models import Card, Check, Erratum, Pack, Quiz
from drill.content.rules import Text, type_name
from drill.content.yamlio import Document
from drill.errors import ContentError


class DocumentErrors(fields.Errors):
    """drill.fields.Errors for one mapping of a Document: messages carry file:line: field path."""

    def __init__(self, doc: Document, path: tuple, noun: str | None = None) -> None:
        self.doc, self.path, self.noun = doc, path, noun

    def what(self, values: dict[str, Any] | None = None) -> str:
        if self.noun is None:
            return f"the top level of {self.doc.file.name}"
        if values and "id" in values:
            return f"{self.noun} {values['id']}"
        return f"a {self.noun}"

    def not_mapping(self, value: Any) -> ContentError:
        return self.doc.error(self.path, f"expected a mapping ({self.what()}), got {type_name(value)}")

    def unknown(self, key: Any, known: list[str]) -> ContentError:
        close = difflib.get_close_matches(str(key), known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else f" (allowed: {', '.join(known)})"
        return self.doc.error(self.path + (key,), f"unknown field {key!r} in {self.what()}{hint}")

    def missing(self, spec: fields.Spec, values: dict[str, Any]) -> ContentError:
        return self.doc.error(
            self.path + (spec.key,), f"required field {spec.key!r} is missing from {self.what(values)}"
        )

    def invalid(
        self, path: tuple, problem: str, spec: fields.Spec | None, values: dict[str, Any]
    ) -> ContentError:
        return self.doc.error(self.path + tuple(path), problem)


def items(doc: Document, key: str, what: str, head: type) -> list:
    """The required, non-empty list ``key`` of a file's top-level mapping, whose other fields are ``head``'s."""
    errors = DocumentErrors(doc, ())
    if not isinstance(doc.data, dict):
        raise errors.not_mapping(doc.data)
    known = [spec.key for spec in fields.specs(head) if not spec.given] + [key]
    for name in doc.data:
        if name not in known:
            raise errors.unknown(name, known)
    if key not in doc.data:
        raise doc.error((key,), f"required field {key!r} is missing from {errors.what()}")
    value = doc.data[key]
    if value is None:
        raise doc.error((key,), "required field is empty")
    if not isinstance(value, list):
        raise doc.error((key,), f"expected a list of {what}, got {type_name(value)}")
    if not value:
        raise doc.error((key,), f"must list at least one of the {what}")
    return value


def pack_from(doc: Document, pack_dir: Path) -> Pack:
    """questions.yaml's top level (its ``cards:`` are read by `card_from`); the pack's item ids come later."""
    return fields.read(Pack, doc.data, DocumentErrors(doc, ()), given={"path": pack_dir}, extra=("cards",))


@dataclass(frozen=True, kw_only=True)
class SideFile:
    """The top level of quizzes.yaml / checks.yaml: the pack it belongs to (optional) and its list."""

    pack: str | None = fields.declare(Text(), default=None)


def side_pack(doc: Document, key: str) -> str | None:
    return fields.read(SideFile, doc.data, DocumentErrors(doc, ()), extra=(key,)).pack


def card_from(doc: Document, index: int, value: object, pack: str) -> Card:
    """A card record as its kind's class (one record; `kinds.expand` makes a table's or a pair's cards)."""
    errors = DocumentErrors(doc, ("cards", index), "card")
    try:
        cls = card_class(value)
    except fields.Invalid as err:
        raise errors.invalid(err.at, err.problem, None, {}) from None
    return fields.read(cls, value, errors, given={"pack": pack}, extra=("kind",))


def quiz_from(doc: Document, index: int, value: object, pack: str) -> Quiz:
    return fields.read(Quiz, value, DocumentErrors(doc, ("quizzes", index), "quiz"), given={"pack": pack})


def check_from(doc: Document, index: int, value: object, pack: str) -> Check:
    return fields.read(Check, value, DocumentErrors(doc, ("checks", index), "check"), given={"pack": pack})


def erratum_from(doc: Document, index: int, value: object, pack: str) -> Erratum:
    return fields.read(
        Erratum, value, DocumentErrors(doc, ("errata", index), "erratum"), given={"pack": pack}
    )
