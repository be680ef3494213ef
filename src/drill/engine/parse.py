"""Matrices and masks typed by a user ("1,0;0,1;1,1"), shared by `drill calc` flags and the calc screen.

Rows are separated by ";" or new lines, values by "," or spaces. Every problem raises InputError naming the
matrix, the row and column, and the shape seen so far, so the user can fix the text without guessing.

What a number is, for matrices and for numeric command-line values alike (`whole_number`):

* ASCII: digits 0-9, a sign, a decimal point, an exponent (``-1.5e3``). No ``_`` separators, no ``nan`` or
  ``inf`` (values must be finite).
* Accepted on purpose, read as their ASCII twins: the full-width forms a Chinese input method types
  (``１２．５``, ``－３``, ``，`` ``；`` and the ideographic space as separators) and U+2212 MINUS SIGN, which
  drill itself prints (a value copied from ``drill calc --plain`` reads back).
* Refused, naming the character: digits of other scripts (Arabic-Indic ``٣``, Devanagari ``३``, …). Python's
  float() would read them, but Arabic-Indic zero ``٠`` looks like a dot: "1٠5" would silently be 105.

Caps, each named in its message: `MAX_MATRIX_CHARS` characters of text per matrix (checked before any
parsing), `MAX_ABS_VALUE` for any value (with d_model ≤ 512 and at most a few million values per matrix, no
step of the attention trace can then overflow float64: |QKᵀ| stays below 1e80, so no score is ever inf and no
softmax NaN), `MAX_DIGITS` digits for a whole number.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import TYPE_CHECKING

from drill.errors import InputError
from drill.i18n import _

if TYPE_CHECKING:
    import numpy as np  # imported where it is used: drill's option types read numbers without numpy

MAX_MATRIX_CHARS = (
    2**23
)  # ~8 million characters: far more than 2^18 values (drill calc's cap per matrix) need
MAX_ABS_VALUE = 1e15  # |value| of any entry; squared twice through X·W and Q·Kᵀ it stays far below 1.8e308
MAX_DIGITS = 18  # digits of a whole number (a seed, a count): int() never meets a 5,000-digit value

_VALUE_SPLIT = re.compile(r"[,\s]+")
_EMPTY_VALUE = re.compile(r"(?:^|,)\s*(?:,|$)")  # ",," or a leading/trailing comma: a value left out
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WHOLE = re.compile(r"[+-]?[0-9]+")
# Full-width ASCII (U+FF01..U+FF5E), the ideographic space and U+2212 MINUS SIGN -> ASCII.
_TO_ASCII = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)} | {0x3000: ord(" "), 0x2212: ord("-")}


def ascii_text(text: str) -> str:
    """`text` with full-width forms and U+2212 read as their ASCII twins (see the module docstring)."""
    return text.translate(_TO_ASCII)


def _shown(token: str) -> str:
    """A token as quoted in a message: long ones cut (a 5,000-digit value is not echoed whole)."""
    return repr(token if len(token) <= 24 else token[:20] + "…")


def _foreign_digit(token: str) -> str | None:
    """ "'٣' (U+0663 ARABIC-INDIC DIGIT THREE)" for the first non-ASCII character of `token`, else None."""
    for ch in token:
        if not ch.isascii():
            name = unicodedata.name(ch, "")
            return f"{ch!r} (U+{ord(ch):04X}{' ' + name if name else ''})"
    return None


def _not_a_number(token: str, where: str, whole: bool) -> InputError:
    at = f"{where}: " if where else ""
    shown = _shown(token)
    foreign = _foreign_digit(token)
    if foreign is not None:
        message = (
            _(
                "{shown} is not a whole number: {foreign} is not an ASCII digit (type 0-9; full-width digits are read as ASCII)"
            )
            if whole
            else _(
                "{shown} is not a number: {foreign} is not an ASCII digit (type 0-9; full-width digits are read as ASCII)"
            )
        )
        return InputError(at + message.format(shown=shown, foreign=foreign))
    message = _("{shown} is not a whole number") if whole else _("{shown} is not a number")
    return InputError(at + message.format(shown=shown))


def whole_number(text: str, where: str = "") -> int:
    """A whole number typed by a user (a command-line value), by the rules of the module docstring;
    ``where`` (e.g. the option's name) starts the message of the InputError for anything else."""
    token = ascii_text(str(text)).strip()
    if not _WHOLE.fullmatch(token):
        raise _not_a_number(token, where, whole=True)
    digits = len(token.lstrip("+-"))
    if digits > MAX_DIGITS:
        at = f"{where}: " if where else ""
        message = _("{shown} has {digits:,} digits; at most {limit} are allowed")
        raise InputError(at + message.format(shown=_shown(token), digits=digits, limit=MAX_DIGITS))
    return int(token)


def _rows(text: str) -> list[str]:
    return [row.strip() for row in re.split(r"[;\n]", text) if row.strip()]


def _number(token: str, where: str) -> float:
    if not _NUMBER.fullmatch(token):
        try:
            value = float(token)  # only to tell nan / inf apart from a typo
        except ValueError:
            value = 0.0
        if not math.isfinite(value):
            message = _("{where} is {shown}; values must be finite numbers")
            raise InputError(message.format(where=where, shown=_shown(token)))
        raise _not_a_number(token, where, whole=False)
    value = float(token)
    if not abs(value) <= MAX_ABS_VALUE:  # 1e400 reads as inf: refused here too
        message = _(
            "{where} is {shown}; values must be finite numbers of magnitude at most {limit:g} "
            "(larger ones would overflow the attention scores)"
        )
        raise InputError(message.format(where=where, shown=_shown(token), limit=MAX_ABS_VALUE))
    return value


def parse_matrix(text: str | None, name: str) -> np.ndarray:
    """Parse "1,0;0,1;1,1" into a float64 array of shape [rows, columns]."""
    import numpy as np

    if text is not None and len(str(text)) > MAX_MATRIX_CHARS:
        message = _("{name}: {count:,} characters is over the limit of {limit:,} for one matrix")
        raise InputError(message.format(name=name, count=len(str(text)), limit=MAX_MATRIX_CHARS))
    if text is not None:
        text = ascii_text(str(text))
    if text is None or not str(text).strip():
        message = _("{name}: empty matrix; write rows separated by ';' and values by ',' (e.g. \"1,0;0,1\")")
        raise InputError(message.format(name=name))
    lines = _rows(str(text))
    if not lines:  # only separators, e.g. " ; "
        message = _("{name}: no values between the separators in {text!r}")
        raise InputError(message.format(name=name, text=str(text).strip()))
    for r, line in enumerate(lines, start=1):
        if _EMPTY_VALUE.search(line):
            message = _("{name}, row {r} ({line!r}): a value is missing between commas")
            raise InputError(message.format(name=name, r=r, line=line))
    rows = [[t for t in _VALUE_SPLIT.split(line) if t] for line in lines]
    width = len(rows[0])
    for r, tokens in enumerate(rows, start=1):
        if len(tokens) != width:
            message = _(
                "{name} is ragged: row {r} has {count} values but row 1 has {width} "
                "(a [{rows}, {width}] matrix needs {width} values in every row)"
            )
            raise InputError(message.format(name=name, r=r, count=len(tokens), width=width, rows=len(rows)))
    shape = f"[{len(rows)}, {width}]"
    values = [
        [
            _number(t, _("{name} {shape}, row {r}, column {c}").format(name=name, shape=shape, r=r, c=c))
            for c, t in enumerate(tokens, start=1)
        ]
        for r, tokens in enumerate(rows, start=1)
    ]
    return np.asarray(values, dtype=np.float64)


def parse_mask(text: str | None, length: int, name: str = "pad mask") -> np.ndarray:
    """Parse a key mask of 1 (keep) / 0 (padding): "1,1,0" gives shape [S]; "1,1,0;1,0,0" gives [B, S].

    ``length`` is the sequence length S the mask must match. Returns a bool array (True = a real token).
    """
    import numpy as np

    if text is None or not str(text).strip():
        message = _('{name}: empty mask; write one 1 (keep) or 0 (padding) per token, e.g. "1,1,0"')
        raise InputError(message.format(name=name))
    matrix = parse_matrix(text, name)
    bad = ~np.isin(matrix, (0.0, 1.0))
    if bad.any():
        r, c = (int(i) + 1 for i in np.argwhere(bad)[0])
        message = _("{name} {shape}, row {r}, column {c} is {value:g}; use 1 (keep) or 0 (padding)")
        raise InputError(
            message.format(name=name, shape=shape_str(matrix), r=r, c=c, value=matrix[r - 1, c - 1])
        )
    if matrix.shape[1] != length:
        message = _(
            "{name} has {count} values per row but the sequence has {length} tokens "
            "(the mask must be [S] or [B, S] with S = {length})"
        )
        raise InputError(message.format(name=name, count=matrix.shape[1], length=length))
    mask = matrix.astype(bool)
    return mask[0] if mask.shape[0] == 1 else mask


def shape_str(array) -> str:
    """ "[3, 2]" for an array of that shape (used in error messages)."""
    import numpy as np

    return "[" + ", ".join(str(d) for d in np.shape(array)) + "]"
