"""Strict validation of parsed YAML documents into Card / Quiz / Check records.

Hand-written rather than pydantic: the rules are few, every message must carry the file, the line and the
field (which the Document's path -> line map gives), and loading has to stay fast for the study screen.
Unknown fields, missing or empty required fields and wrong types are all errors; nothing is coerced.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from drill.content.models import Card, Check, Quiz
from drill.content.yamlio import Document

PACK_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
ITEM_ID = re.compile(r"[a-z0-9][a-z0-9._-]*\Z")
SECTION = re.compile(r"\d+(?:\.\d+)*\Z")
OPTION_KEY = re.compile(r"[A-Z]\Z")
STEP_REF = re.compile(r"([a-z0-9][a-z0-9_-]*)/([a-z0-9][a-z0-9_-]*)\Z")

_TYPE_NAMES = {
    str: "text",
    int: "an integer",
    float: "a number",
    bool: "true/false",
    list: "a list",
    dict: "a mapping",
}


def _type_name(value: object) -> str:
    if value is None:
        return "nothing (null)"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


class Record:
    """One mapping in a document, read field by field; each reader raises ContentError at the field's line."""

    def __init__(self, doc: Document, path: tuple, value: object, fields: Iterable[str], what: str) -> None:
        self.doc, self.path, self.what = doc, path, what
        if not isinstance(value, dict):
            raise doc.error(path, f"expected a mapping ({what}), got {_type_name(value)}")
        self.data = value
        allowed = list(fields)
        for key in value:
            if key not in allowed:
                import difflib  # only on the error path

                close = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else f" (allowed: {', '.join(allowed)})"
                raise doc.error(path + (key,), f"unknown field {key!r} in {what}{hint}")

    def error(self, name: str | tuple, problem: str):
        sub = name if isinstance(name, tuple) else (name,)
        return self.doc.error(self.path + sub, problem)

    def _get(self, name: str, required: bool):
        if name not in self.data:
            if required:
                raise self.doc.error(
                    self.path + (name,), f"required field {name!r} is missing from {self.what}"
                )
            return None
        value = self.data[name]
        if value is None and required:
            raise self.error(name, "required field is empty")
        return value

    def text(
        self, name: str, *, required: bool = True, pattern: re.Pattern | None = None, hint: str = ""
    ) -> str | None:
        value = self._get(name, required)
        if value is None:
            return None
        if isinstance(value, float) and pattern is SECTION:
            raise self.error(name, f'expected text such as "7.10", got the number {value!r}: quote it')
        if not isinstance(value, str):
            raise self.error(name, f"expected text, got {_type_name(value)}")
        if not value.strip():
            raise self.error(name, "must not be empty")
        if pattern is not None and not pattern.match(value):
            raise self.error(name, f"{value!r} is not valid{': ' + hint if hint else ''}")
        return value

    def integer(self, name: str, *, required: bool = True, low: int | None = None, high: int | None = None):
        value = self._get(name, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(name, f"expected an integer, got {_type_name(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.error(name, f"{value} is out of range [{low}, {high}]")
        return value

    def number(self, name: str, *, required: bool = True) -> float | None:
        value = self._get(name, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(name, f"expected a number, got {_type_name(value)}")
        if not math.isfinite(value):  # YAML's .nan / .inf
            raise self.error(name, f"expected a finite number, got {value}")
        return float(value)

    def text_list(
        self,
        name: str,
        *,
        required: bool = True,
        nonempty: bool = True,
        pattern: re.Pattern | None = None,
        hint: str = "",
    ) -> tuple[str, ...]:
        value = self._get(name, required)
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.error(name, f"expected a list, got {_type_name(value)}")
        if nonempty and not value:
            raise self.error(name, "must not be an empty list")
        out = []
        for i, item in enumerate(value):
            if isinstance(item, float) and pattern is SECTION:
                raise self.error(
                    (name, i), f'expected text such as "7.10", got the number {item!r}: quote it'
                )
            if not isinstance(item, str):
                raise self.error((name, i), f"expected text, got {_type_name(item)}")
            if not item.strip():
                raise self.error((name, i), "must not be empty")
            if pattern is not None and not pattern.match(item):
                raise self.error((name, i), f"{item!r} is not valid{': ' + hint if hint else ''}")
            out.append(item)
        return tuple(out)


def items(doc: Document, key: str, what: str, top_fields: Iterable[str]) -> tuple[dict, list]:
    """The top-level mapping of a file and its required, non-empty list ``key``."""
    top = Record(doc, (), doc.data, top_fields, f"the top level of {doc.file.name}")
    value = top._get(key, True)
    if not isinstance(value, list):
        raise doc.error((key,), f"expected a list of {what}, got {_type_name(value)}")
    if not value:
        raise doc.error((key,), f"must list at least one of the {what}")
    return top.data, value


CARD_FIELDS = (
    "id",
    "section",
    "bank",
    "asked_in",
    "tags",
    "question",
    "answer",
    "bank_answer",
    "pitfalls",
    "steps",
)
QUIZ_FIELDS = ("id", "section", "stem", "options", "answer", "explanation", "cards")
CHECK_FIELDS = ("id", "section", "example", "step", "index", "claimed", "decimals", "card", "erratum")

ID_HINT = "ids are lower-case letters, digits, '.', '_' or '-'"
SECTION_HINT = 'sections look like "7.9"'
STEP_HINT = 'step refs look like "<example>/<step>", e.g. "worked/softmax"'


def card_from(doc: Document, index: int, value: object, pack: str) -> Card:
    r = Record(doc, ("cards", index), value, CARD_FIELDS, "a card")
    card_id = r.text("id", pattern=ITEM_ID, hint=ID_HINT)
    r.what = f"card {card_id}"
    section = r.text("section", pattern=SECTION, hint=SECTION_HINT)
    asked_in = r.text_list("asked_in", required=False, pattern=SECTION, hint=SECTION_HINT) or (section,)
    return Card(
        id=card_id,
        pack=pack,
        section=section,
        bank=r.integer("bank", required=False, low=1, high=999),
        asked_in=asked_in,
        tags=r.text_list("tags"),
        question=r.text("question"),
        answer=r.text("answer"),
        bank_answer=r.text("bank_answer", required=False),
        pitfalls=r.text_list("pitfalls", required=False),
        steps=r.text_list("steps", required=False, nonempty=False, pattern=STEP_REF, hint=STEP_HINT),
    )


def quiz_from(doc: Document, index: int, value: object, pack: str) -> Quiz:
    r = Record(doc, ("quizzes", index), value, QUIZ_FIELDS, "a quiz")
    quiz_id = r.text("id", pattern=ITEM_ID, hint=ID_HINT)
    r.what = f"quiz {quiz_id}"
    section = r.text("section", pattern=SECTION, hint=SECTION_HINT)
    stem = r.text("stem")
    options = r._get("options", True)
    if not isinstance(options, dict):
        raise r.error("options", f"expected a mapping of option letters to text, got {_type_name(options)}")
    if len(options) < 2:
        raise r.error("options", "a multiple-choice quiz needs at least two options")
    opts = Record(doc, r.path + ("options",), options, list(options), "options")
    for key in options:
        if not isinstance(key, str) or not OPTION_KEY.match(key):
            raise r.error(("options", key), f"option key {key!r} must be one capital letter (A, B, C, …)")
        opts.text(key)
    answer = r.text("answer")
    if answer not in options:
        raise r.error("answer", f"answer {answer!r} is not one of the options ({', '.join(options)})")
    return Quiz(
        id=quiz_id,
        pack=pack,
        section=section,
        stem=stem,
        options=dict(options),
        answer=answer,
        explanation=r.text("explanation"),
        cards=r.text_list("cards", pattern=ITEM_ID, hint=ID_HINT),
    )


def check_from(doc: Document, index: int, value: object, pack: str) -> Check:
    r = Record(doc, ("checks", index), value, CHECK_FIELDS, "a check")
    check_id = r.text("id", pattern=ITEM_ID, hint=ID_HINT)
    r.what = f"check {check_id}"
    raw_index = r._get("index", False)
    if raw_index is None:
        index_value: tuple[int, ...] = ()
    elif not isinstance(raw_index, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in raw_index
    ):
        raise r.error("index", f"expected a list of non-negative integers such as [0, 1], got {raw_index!r}")
    else:
        index_value = tuple(raw_index)
    erratum = r._get("erratum", False)
    if erratum is not None:
        erratum = r.text("erratum")
    return Check(
        id=check_id,
        pack=pack,
        section=r.text("section", pattern=SECTION, hint=SECTION_HINT),
        example=r.text("example", pattern=ITEM_ID, hint="an engine example name"),
        step=r.text("step", pattern=ITEM_ID, hint="a step name"),
        index=index_value,
        claimed=r.number("claimed"),
        decimals=r.integer("decimals", low=0, high=12),
        card=r.text("card", required=False, pattern=ITEM_ID, hint=ID_HINT),
        erratum=erratum,
    )
