"""Matrices and masks typed by a user ("1,0;0,1;1,1"), shared by `drill calc` flags and the calc screen.

Rows are separated by ";" or new lines, values by "," or spaces. Every problem raises InputError naming the
matrix, the row and column, and the shape seen so far, so the user can fix the text without guessing.
"""

from __future__ import annotations

import math
import re

import numpy as np

from drill.errors import InputError

_VALUE_SPLIT = re.compile(r"[,\s]+")
_EMPTY_VALUE = re.compile(r"(?:^|,)\s*(?:,|$)")  # ",," or a leading/trailing comma: a value left out


def _rows(text: str) -> list[str]:
    return [row.strip() for row in re.split(r"[;\n]", text) if row.strip()]


def _number(token: str, where: str) -> float:
    try:
        value = float(token)
    except ValueError:
        raise InputError(f"{where}: {token!r} is not a number") from None
    if not math.isfinite(value):
        raise InputError(f"{where} is {token!r}; values must be finite numbers")
    return value


def parse_matrix(text: str | None, name: str) -> np.ndarray:
    """Parse "1,0;0,1;1,1" into a float64 array of shape [rows, columns]."""
    if text is None or not str(text).strip():
        raise InputError(
            f"{name}: empty matrix; write rows separated by ';' and values by ',' (e.g. \"1,0;0,1\")"
        )
    lines = _rows(str(text))
    if not lines:  # only separators, e.g. " ; "
        raise InputError(f"{name}: no values between the separators in {str(text).strip()!r}")
    for r, line in enumerate(lines, start=1):
        if _EMPTY_VALUE.search(line):
            raise InputError(f"{name}, row {r} ({line!r}): a value is missing between commas")
    rows = [[t for t in _VALUE_SPLIT.split(line) if t] for line in lines]
    width = len(rows[0])
    for r, tokens in enumerate(rows, start=1):
        if len(tokens) != width:
            raise InputError(
                f"{name} is ragged: row {r} has {len(tokens)} values but row 1 has {width} "
                f"(a [{len(rows)}, {width}] matrix needs {width} values in every row)"
            )
    shape = f"[{len(rows)}, {width}]"
    values = [
        [_number(t, f"{name} {shape}, row {r}, column {c}") for c, t in enumerate(tokens, start=1)]
        for r, tokens in enumerate(rows, start=1)
    ]
    return np.asarray(values, dtype=np.float64)


def parse_mask(text: str | None, length: int, name: str = "pad mask") -> np.ndarray:
    """Parse a key mask of 1 (keep) / 0 (padding): "1,1,0" gives shape [S]; "1,1,0;1,0,0" gives [B, S].

    ``length`` is the sequence length S the mask must match. Returns a bool array (True = a real token).
    """
    if text is None or not str(text).strip():
        raise InputError(f'{name}: empty mask; write one 1 (keep) or 0 (padding) per token, e.g. "1,1,0"')
    matrix = parse_matrix(text, name)
    bad = ~np.isin(matrix, (0.0, 1.0))
    if bad.any():
        r, c = (int(i) + 1 for i in np.argwhere(bad)[0])
        raise InputError(
            f"{name} {shape_str(matrix)}, row {r}, column {c} is {matrix[r - 1, c - 1]:g}; use 1 (keep) or 0 (padding)"
        )
    if matrix.shape[1] != length:
        raise InputError(
            f"{name} has {matrix.shape[1]} values per row but the sequence has {length} tokens "
            f"(the mask must be [S] or [B, S] with S = {length})"
        )
    mask = matrix.astype(bool)
    return mask[0] if mask.shape[0] == 1 else mask


def shape_str(array) -> str:
    """ "[3, 2]" for an array of that shape (used in error messages)."""
    return "[" + ", ".join(str(d) for d in np.shape(array)) + "]"
