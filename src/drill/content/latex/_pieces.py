"""Pieces: the laid-out units of a row (an atom with its scripts, an operator, a relation, …), the character
classes that decide a piece's kind, and the small text helpers for scripts, parentheses and words."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from . import _symbols as sym
from ._box import Box, hconcat, wrap


@dataclass
class Piece:
    """One laid-out unit of a row: an atom (with scripts), an operator, a relation, punctuation…"""

    kind: str  # ord open close punct op rel unary bigop func frac text delim space
    box: Box
    space_before: bool = False  # whitespace in the source before it (kept between two atoms)
    gap: int = 0  # for kind == "space"
    sub: Box | None = None
    sup: Box | None = None
    primes: str = ""
    brace: str = ""  # "under"/"over" for \underbrace/\overbrace: the script is a label
    label: Box | None = None
    pad_before: bool = False  # \text{ …} with edge spaces asks for a gap on that side
    pad_after: bool = False
    group_scripts: bool = False  # a script on it applies to all of it: √x with ² -> (√x)²

    @property
    def first_char(self) -> str:
        line = self.box.lines[self.box.baseline] if self.box.lines else ""
        return line[:1]


_ATOM_BREAKERS = set("+−-×·÷/=<>≤≥≈≠,;:→←∈±∓⊙⊗⊕∘∗") | set(sym.RELATION.values()) | set(sym.BINARY.values())
_ATOM_BREAKERS.discard("|")
_PAIRS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩"}
BINARY_CHARS = {**{v: v for v in sym.BINARY.values()}, "+": "+", "-": "−", "−": "−", "*": "∗"}
RELATION_CHARS = (set(sym.RELATION.values()) | set("=<>:")) - {"|"}  # a bare | is a delimiter (|x|)
NEGATED = {
    "=": "≠",
    "∈": "∉",
    "<": "≮",
    ">": "≯",
    "≤": "≰",
    "≥": "≱",
    "∼": "≁",
    "≡": "≢",
    "⊂": "⊄",
    "⊃": "⊅",
    "⊆": "⊈",
    "⊇": "⊉",
    "|": "∤",
    "∃": "∄",
    "≈": "≉",
    "≅": "≇",
    "→": "↛",
}
NUMERIC = re.compile(r"^[−+]?[0-9.,]*[0-9][0-9.,]*%?$|^[−+]?∞$")


def is_atomic(text: str) -> bool:
    """True when `text` reads as one unit after / or √ (no top-level space or operator)."""
    text = text.strip()
    if not text:
        return True
    if text[0] in "−-+±∓":
        return False
    depth = 0
    for ch in text:
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        elif depth <= 0 and (ch.isspace() or ch in _ATOM_BREAKERS):
            return False
    return True


def is_wrapped(text: str) -> bool:
    """True when `text` is one bracketed group: (…), […], {…}."""
    if len(text) < 2 or text[0] not in _PAIRS or _PAIRS[text[0]] != text[-1]:
        return False
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
            if depth == 0 and i != len(text) - 1:
                return False
    return depth == 0


def graphemes(text: str) -> int:
    return sum(1 for ch in text if not unicodedata.combining(ch))


_WORD = re.compile(r"[^\W\d_]{3,}")


def script_text(text: str, table: dict[str, str]) -> str | None:
    """The Unicode super/subscript form of `text`, or None when a character has none (or it is a word)."""
    if not text or _WORD.search(text):
        return None
    out = []
    for ch in text:
        if ch not in table:
            return None
        out.append(table[ch])
    return "".join(out)


@dataclass
class Row:
    box: Box
    pieces: list[Piece] = field(default_factory=list)

    @property
    def atomic(self) -> bool:
        if self.box.is_line:
            return is_atomic(self.box.lines[0])
        real = [p for p in self.pieces if p.kind != "space"]
        return len(real) == 1 and real[0].kind in ("ord", "delim")


def no_commands(text: str) -> str:
    return re.sub(r"\\+([A-Za-z]*)", r"\1", re.sub(r"\s+", " ", text))


def text_chars(chars: str) -> str:
    return re.sub(r"\s+", " ", chars)


def map_letters(text: str, table: dict[str, str]) -> str:
    return "".join(table.get(ch, ch) for ch in text)


def parens(box: Box, oneline: bool) -> Box:
    if box.is_line or oneline:
        return Box.text("(" + box.str + ")")
    return wrap(box, "(", ")")


def top_row(text: str, base: Box) -> Box:
    return Box((text,) + ("",) * (base.height - 1), base.baseline)


def baseline_alnum(ch: str) -> bool:
    return ch.isalnum() and ch not in sym.SCRIPT_CHARS


def script_form(box: Box | None, table: dict[str, str], mark: str):
    """("uni", text) | ("bare", text) | ("paren", text) | ("box", Box) for a script, or None."""
    if box is None or (box.is_line and not box.lines[0].strip()):
        return None
    if not box.is_line:
        return ("box", box)
    text = box.lines[0].strip()
    uni = script_text(text, table)
    if uni is not None:
        return ("uni", uni)
    # trailing primes have no script form: sᵢⱼ′ (as sᵢⱼ beside it), not s_(ij′)
    stem = text.rstrip("′″‴")
    if stem != text and stem and (uni := script_text(stem, table)) is not None:
        return ("uni", uni + text[len(stem) :])
    if graphemes(text) == 1:
        return ("bare", text)
    if is_wrapped(text):
        return ("wrapped", text)
    return ("paren", text)


def script_str(form, mark: str) -> str:
    kind, text = form
    if kind == "uni":
        return text
    if kind in ("bare", "wrapped"):
        return mark + text
    return f"{mark}({text})"


def as_box(form, mark: str) -> Box:
    if form[0] == "box":
        return hconcat([Box.text(mark), form[1]])
    return Box.text(script_str(form, mark))
