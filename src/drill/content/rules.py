"""The rules content fields are declared with (drill.fields): text, numbers, lists, options, an index.

Nothing is coerced: a number where text is expected is an error (with a hint to quote a section number), and
every string is checked against the control-character rule, so a record read back from the cache passes the
same checks as one read from YAML. Standard library only (the models import this at start-up).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from drill.content import control
from drill.fields import Invalid, Rule

PACK_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
ITEM_ID = re.compile(r"[a-z0-9][a-z0-9._-]*\Z")
SECTION = re.compile(r"\d+(?:\.\d+)*\Z")
OPTION_KEY = re.compile(r"[A-Z]\Z")
KIND = re.compile(r"(?:wrong|note)\Z")  # an erratum's kind (drill.content.errata)
STEP_REF = re.compile(r"([a-z0-9][a-z0-9_-]*)/([a-z0-9][a-z0-9_-]*)\Z")

KIND_HINT = 'kind is "wrong" (the chapter is wrong) or "note" (right in magnitude; the exact figure)'
ID_HINT = "ids are lower-case letters, digits, '.', '_' or '-'"
SECTION_HINT = 'sections look like "7.9"'
STEP_HINT = 'step refs look like "<example>/<step>", e.g. "worked/softmax"'
PACK_HINT = "pack ids are lower-case words joined by '-'"

_TYPE_NAMES = {
    str: "text",
    int: "an integer",
    float: "a number",
    bool: "true/false",
    list: "a list",
    dict: "a mapping",
}


def type_name(value: object) -> str:
    if value is None:
        return "nothing (null)"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


class Text(Rule):
    """Non-blank text free of control characters, optionally matching ``pattern``.

    ``verbatim``: the text is the chapter's, word for word; `drill check` finds it in the pack's ``source``
    (drill.content.source). The other rules below take the flag from their items.
    """

    def __init__(self, pattern: re.Pattern | None = None, hint: str = "", *, verbatim: bool = False) -> None:
        self.pattern, self.hint, self.verbatim = pattern, hint, verbatim

    def check(self, value: Any) -> str:
        if isinstance(value, float) and self.pattern is SECTION:
            raise Invalid(f'expected text such as "7.10", got the number {value!r}: quote it')
        if not isinstance(value, str):
            raise Invalid(f"expected text, got {type_name(value)}")
        if not value.strip():
            raise Invalid("must not be empty")
        bad = control.find(value)
        if bad:
            raise Invalid(
                f"control character {control.describe(bad.group())} is not allowed (only newline and tab are)"
            )
        if self.pattern is not None and not self.pattern.match(value):
            raise Invalid(f"{value!r} is not valid{': ' + self.hint if self.hint else ''}")
        return value


class TextList(Rule):
    """A list of `Text` items (a tuple in the record); empty only when ``nonempty`` is false."""

    def __init__(self, item: Text | None = None, *, nonempty: bool = True) -> None:
        self.item, self.nonempty = item or Text(), nonempty
        self.verbatim = self.item.verbatim

    def check(self, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise Invalid(f"expected a list, got {type_name(value)}")
        if self.nonempty and not value:
            raise Invalid("must not be an empty list")
        out = []
        for i, item in enumerate(value):
            try:
                out.append(self.item.check(item))
            except Invalid as err:
                raise Invalid(err.problem, (i, *err.at)) from None
        return tuple(out)


class Integer(Rule):
    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def check(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(f"expected an integer, got {type_name(value)}")
        if not self.low <= value <= self.high:
            raise Invalid(f"{value} is out of range [{self.low}, {self.high}]")
        return value


class Number(Rule):
    """A finite number (YAML's .nan / .inf are refused), as a float."""

    def check(self, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise Invalid(f"expected a number, got {type_name(value)}")
        if not math.isfinite(value):
            raise Invalid(f"expected a finite number, got {value}")
        return float(value)


class Index(Rule):
    """An index into an engine step's output: a list of non-negative integers ([] for a scalar)."""

    def check(self, value: Any) -> tuple[int, ...]:
        if not isinstance(value, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in value
        ):
            raise Invalid(f"expected a list of non-negative integers such as [0, 1], got {value!r}")
        return tuple(value)


class Options(Rule):
    """A multiple-choice quiz's options: two or more capital letters, each naming non-blank text."""

    def __init__(self, *, verbatim: bool = False) -> None:
        self.verbatim = verbatim

    def check(self, value: Any) -> dict[str, str]:
        if not isinstance(value, dict):
            raise Invalid(f"expected a mapping of option letters to text, got {type_name(value)}")
        if len(value) < 2:
            raise Invalid("a multiple-choice quiz needs at least two options")
        for key, text in value.items():
            if not isinstance(key, str) or not OPTION_KEY.match(key):
                raise Invalid(f"option key {key!r} must be one capital letter (A, B, C, …)", (key,))
            if text is None:
                raise Invalid("required field is empty", (key,))
            try:
                Text().check(text)
            except Invalid as err:
                raise Invalid(err.problem, (key,)) from None
        return dict(value)


class WhyWrong(Rule):
    """Why each wrong option of a multiple-choice quiz is wrong: option letter -> ``zh`` and ``en`` (drill's own
    words, both required) and optionally ``quote``: the words of the quiz's own explanation (the chapter's) that
    rule the option out. Which letters it must cover is the quiz's rule (`Quiz.check_record`)."""

    PARTS = ("zh", "en", "quote")

    def check(self, value: Any) -> dict[str, dict[str, str]]:
        if not isinstance(value, dict):
            raise Invalid(f"expected a mapping of option letters to zh/en notes, got {type_name(value)}")
        out: dict[str, dict[str, str]] = {}
        for key, entry in value.items():
            if not isinstance(key, str) or not OPTION_KEY.match(key):
                raise Invalid(f"option key {key!r} must be one capital letter (A, B, C, …)", (key,))
            if not isinstance(entry, dict):
                raise Invalid(
                    f"expected a mapping with zh, en (and optionally quote), got {type_name(entry)}", (key,)
                )
            for part in entry:
                if part not in self.PARTS:
                    raise Invalid(f"unknown field {part!r} (allowed: zh, en, quote)", (key, part))
            for part in ("zh", "en"):
                if entry.get(part) is None:
                    raise Invalid(f"required field {part!r} is missing", (key, part))
            for part, text in entry.items():
                try:
                    Text().check(text)
                except Invalid as err:
                    raise Invalid(err.problem, (key, part)) from None
            out[key] = dict(entry)
        return out


class FilePath(Rule):
    """A filesystem path (only ever read back from the cache: the loader gives a pack its directory)."""

    def check(self, value: Any) -> Path:
        return Path(Text().check(value))

    def dump(self, value: Path) -> str:
        return str(value)


VERBATIM = Text(verbatim=True)
ID = Text(ITEM_ID, ID_HINT)
PACK = Text(PACK_ID, PACK_HINT)
SECTION_TEXT = Text(SECTION, SECTION_HINT)
