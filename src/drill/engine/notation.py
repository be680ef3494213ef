"""How the engine's values are written for a reader: a matrix's numbers and its shape.

One rule for every surface that shows the engine's matrices: `drill calc --plain`, the calc screen, the study
side pane and the demos. A matrix is written by its own numbers: all integers -> integers (``1``, ``−2``);
all tiny (below 10^-min(decimals, 3) in magnitude, not all zero) -> scientific (``1.2e−05``); otherwise fixed
with ``decimals`` digits (``0.198``, ``−0.500``). Minus is the typographic ``−`` (U+2212), a rounded negative
zero is ``0.000``, infinities are ``∞`` / ``−∞`` (a mask), NaN is ``nan``.

Takes anything array-like (numpy arrays, nested lists, one number); numpy is not imported here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, SupportsFloat

DECIMALS = 3  # the chapter writes its worked numbers to 3 decimals (0.198, 0.599)
MINUS = "−"


def _flat(values: Any) -> list[float]:
    data = values.tolist() if hasattr(values, "tolist") else values
    out: list[float] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list | tuple):
            stack.extend(item)
        else:
            out.append(float(item))
    return out


def _minus(text: str) -> str:
    return text.replace("-", MINUS)


def format_number(value: SupportsFloat, decimals: int = DECIMALS) -> str:
    """One number, fixed to ``decimals`` digits (``0.500``, ``−0.500``; ``−0.0004`` at 3 digits is ``0.000``):
    a number the chapter states to so many decimals, or a matrix that is neither integral nor tiny."""
    number = float(value)
    if math.isnan(number):
        return "nan"
    if math.isinf(number):
        return MINUS + "∞" if number < 0 else "∞"
    text = f"{number:.{decimals}f}"
    if text.startswith("-") and float(text[1:]) == 0:
        text = text[1:]
    return _minus(text)


def number_format(values: Any, decimals: int = DECIMALS) -> Callable[[SupportsFloat], str]:
    """How the numbers of ``values`` (a matrix, a vector or one number) are written: a function of one number."""
    finite = [v for v in _flat(values) if math.isfinite(v)]
    biggest = max((abs(v) for v in finite), default=0.0)
    integral = bool(finite) and biggest < 1e15 and all(v == round(v) for v in finite)
    tiny = not integral and 0 < biggest < 10.0 ** (-min(decimals, 3))

    def fmt(value: SupportsFloat) -> str:
        number = float(value)
        if not math.isfinite(number):
            return format_number(number, decimals)
        if integral:
            return _minus(str(int(number)))
        if tiny:
            return _minus(f"{number:.{max(decimals - 1, 1)}e}")
        return format_number(number, decimals)

    return fmt


def dims(value: Any) -> str:
    """A value's shape in numbers, as the chapter writes shapes: ``[3, 2]``; ``""`` for None or a plain number."""
    shape = getattr(value, "shape", None)
    if shape is None:
        return ""
    return "[" + ", ".join(str(d) for d in shape) + "]"
