"""The one rule for characters drill never passes to a terminal, a file or a browser.

Refused (the content loader rejects them, naming file, line and field), dropped (the LaTeX renderer turns them
into a space) or shown as a visible stand-in (the TUI, for text that reached it some other way: a database
value, a card built in code): every C0 control except TAB and LF, DEL and every C1 control — exactly Unicode's
category Cc less ``\\t`` and ``\\n``.

The Unicode format characters (category Cf) are refused the same way: they reorder or hide text (bidi marks,
embeddings, overrides and isolates — the "Trojan Source" characters —, zero-width spaces and joiners, soft
hyphens, tags), so a question could read differently on screen than in its file. ``FORMAT`` lists them all
(Unicode 14, the version of Python 3.11's ``unicodedata``; tests/content/test_content_control_rule.py checks the
list against it); ``BIDI_FORMAT`` is the bidi subset, named in messages. A YAML file's leading BOM is not a
value: the reader drops it before this rule runs.
"""

from __future__ import annotations

import re
import unicodedata

# Character-class bodies (for a regex [...]).
CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 except TAB and LF, DEL, C1
BIDI_FORMAT = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # ALM, LRM/RLM, LRE..RLO, LRI..PDI
# Every character of category Cf (precomputed: scanning Unicode at import would cost a startup).
FORMAT = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
REFUSED = CONTROLS + FORMAT

_REFUSED = re.compile(f"[{REFUSED}]")
_REFUSED_IN_FILE = re.compile(f"(?!\r)[{REFUSED}]")  # CR in a raw file is a line break, not a value

_NAMES = {"\x1b": "ESC", "\x00": "NUL", "\x7f": "DEL", "\r": "CR", "\x07": "BEL", "\x08": "BS"}


def find(text: str) -> re.Match[str] | None:
    """The first refused character of a value, or None."""
    return _REFUSED.search(text)


def find_in_file(text: str) -> re.Match[str] | None:
    """The first refused character of a whole file's text (CR, a line break there, is allowed)."""
    return _REFUSED_IN_FILE.search(text)


def blank_in_file(text: str) -> str:
    """A file's text with every refused character (not CR) replaced by a space: offsets stay the same."""
    return _REFUSED_IN_FILE.sub(" ", text)


def replace(text: str, with_: str = " ") -> str:
    """``text`` with every refused character replaced by ``with_``."""
    return _REFUSED.sub(with_, text)


def describe(ch: str) -> str:
    """``U+001B (ESC)``: how an error message names a refused character."""
    name = (
        _NAMES.get(ch) or unicodedata.name(ch, "") or ("C1 control" if "\x80" <= ch <= "\x9f" else "control")
    )
    return f"U+{ord(ch):04X} ({name})"


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control pictures" block: ␀ … ␟
    if code == 0x7F:
        return "␡"
    if code <= 0x9F:
        return f"\\x{code:02x}"  # C1 controls have no pictures
    return f"<U+{code:04X}>"


def visible(text: str) -> str:
    """``text`` with every refused character shown as a visible stand-in (ESC -> ␛), for a screen."""
    return _REFUSED.sub(_stand_in, text)


__all__ = [
    "BIDI_FORMAT",
    "CONTROLS",
    "FORMAT",
    "REFUSED",
    "blank_in_file",
    "describe",
    "find",
    "find_in_file",
    "replace",
    "visible",
]
