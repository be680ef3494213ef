"""An answer's text normalised for matching, with every normalised character mapped back to the learner's own
text (so evidence is a span of what they typed, not of the normalised copy).

What is folded: case and width (NFKC: full-width letters, ``ₖ`` → ``k``, ``²`` → ``2``), the minus sign and
dashes, the ways engineers write a square root (``√``, ``sqrt``, ``根号``, ``开方``, ``square root of``) → ``sqrt``,
subscripted names (``d_k``, ``d_{k}``, ``dₖ``, ``d k``) → ``dk`` (``d_model`` → ``dmodel``, ``d_v`` → ``dv``,
``d_ff`` → ``dff``), infinity (``∞``, ``inf``, ``无穷``) → ``inf``, ``≤`` → ``<=``. Pure Python, deterministic.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_CHARS = {
    "\u2212": "-",  # minus sign
    "\u2013": "-",
    "\u2014": "-",
    "\u2192": "->",  # →
    "\u2264": "<=",
    "\u2265": ">=",
    "\u221e": "inf",
    "\u00d7": "×",
    "\u22c5": "·",
    "\u2219": "·",
    "\u3000": " ",
    "\u2018": "'",
    "\u2019": "'",
}

# (pattern, replacement), applied in order on the NFKC-folded, lower-cased text
_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), r)
    for p, r in (
        (r"square root of|root of|开根号|根号下?|开方|√", "sqrt "),
        (r"\bsqrt\s*\(\s*([a-z_{}\s]{1,12}?)\s*\)", r"sqrt \1"),
        (r"\bd\s*_\s*\{?\s*model\s*\}?|\bd\s+model\b|\bdmodel\b", "dmodel"),
        (r"\bd\s*_\s*\{?\s*ff\s*\}?", "dff"),
        (r"\bd\s*_\s*\{?\s*([kv])\}?(?![a-z])", r"d\1"),
        (r"\bd ([kv])\b", r"d\1"),
        (r"无穷大?|\binfinity\b", "inf"),
        (r"[ \t]+", " "),
    )
)


@dataclass(frozen=True)
class Normalized:
    """``text``: the folded answer; ``origin[i]``: the index in the learner's text of ``text[i]``."""

    raw: str
    text: str
    origin: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The learner's own [start, end) behind the normalised [start, end)."""
        if end <= start:
            return (self.origin[start] if start < len(self.origin) else len(self.raw),) * 2
        return self.origin[start], self.origin[end - 1] + 1


def normalize(raw: str) -> Normalized:
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(raw):
        folded = _CHARS.get(ch)
        if folded is None:
            folded = unicodedata.normalize("NFKC", ch).lower()
        for out in folded:
            chars.append(out)
            origin.append(i)
    text = "".join(chars)
    for pattern, repl in _RULES:
        text, origin = _sub(pattern, repl, text, origin)
    return Normalized(raw, text, tuple(origin))


def _sub(pattern: re.Pattern[str], repl: str, text: str, origin: list[int]) -> tuple[str, list[int]]:
    out: list[str] = []
    where: list[int] = []
    last = 0
    for m in pattern.finditer(text):
        out.append(text[last : m.start()])
        where.extend(origin[last : m.start()])
        new = m.expand(repl)
        out.append(new)
        if m.end() > m.start():
            first, final = origin[m.start()], origin[m.end() - 1]
        else:
            first = final = origin[m.start()] if m.start() < len(origin) else (origin[-1] if origin else 0)
        # the replacement's characters point at the match's first character, its last at the match's last
        where.extend([first] * max(len(new) - 1, 0) + ([final] if new else []))
        last = m.end()
    out.append(text[last:])
    where.extend(origin[last:])
    return "".join(out), where
