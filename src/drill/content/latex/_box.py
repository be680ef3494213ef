"""A tiny 2-D text layout: a box is a list of equally wide lines with a baseline row.

Formulas are mostly one line; matrices, cases and labelled arrows are several. Putting boxes side by side
aligns their baselines, which is all the layout a terminal rendering of the chapter's formulas needs.
Widths are terminal cells: CJK characters count two, combining marks zero.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


def cell_width(text: str) -> int:
    """How many terminal cells `text` takes (East Asian wide = 2, combining/zero-width = 0)."""
    width = 0
    for ch in text:
        if ch.isascii():
            width += ch.isprintable()
        elif unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            width += 2
        else:
            width += 1
    return width


@dataclass(frozen=True)
class Box:
    lines: tuple[str, ...]
    baseline: int = 0

    @classmethod
    def text(cls, s: str) -> Box:
        return cls((s,), 0)

    @property
    def height(self) -> int:
        return len(self.lines)

    @property
    def width(self) -> int:
        return max((cell_width(line) for line in self.lines), default=0)

    @property
    def is_line(self) -> bool:
        return len(self.lines) == 1

    @property
    def str(self) -> str:
        """The single line of a one-line box (joined with spaces otherwise)."""
        return " ".join(line.strip() for line in self.lines)

    def render(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines)


EMPTY = Box(("",), 0)


def pad_to(line: str, width: int, align: str = "l") -> str:
    missing = width - cell_width(line)
    if missing <= 0:
        return line
    if align == "r":
        return " " * missing + line
    if align == "c":
        left = missing // 2
        return " " * left + line + " " * (missing - left)
    return line + " " * missing


def hconcat(boxes: list[Box]) -> Box:
    """Boxes side by side, baselines aligned."""
    boxes = [b for b in boxes if b.lines != ("",)] or [EMPTY]
    if all(b.is_line for b in boxes):
        return Box(("".join(b.lines[0] for b in boxes),), 0)
    above = max(b.baseline for b in boxes)
    below = max(b.height - b.baseline - 1 for b in boxes)
    rows = [""] * (above + below + 1)
    for b in boxes:
        w = b.width
        top = above - b.baseline
        for r in range(len(rows)):
            i = r - top
            rows[r] += pad_to(b.lines[i], w) if 0 <= i < b.height else " " * w
    return Box(tuple(rows), above)


def vstack(boxes: list[Box], align: str = "l", baseline: int | None = None) -> Box:
    """Boxes one under another, each padded to the common width."""
    boxes = boxes or [EMPTY]
    width = max(b.width for b in boxes)
    lines: list[str] = []
    for b in boxes:
        lines.extend(pad_to(line, width, align) if align != "l" else pad_to(line, width) for line in b.lines)
    if baseline is None:
        baseline = (len(lines) - 1) // 2
    return Box(tuple(lines), baseline)


def pad_box(box: Box, width: int, align: str) -> Box:
    """Pad a box horizontally to `width` (all lines shifted alike so columns stay intact)."""
    missing = width - box.width
    if missing <= 0:
        return box
    left = {"l": 0, "r": missing, "c": missing // 2}[align]
    right = missing - left
    return Box(tuple(" " * left + pad_to(line, box.width) + " " * right for line in box.lines), box.baseline)


# Tall delimiters drawn from the Unicode bracket pieces (U+239B..U+23AD): (top, middle, bottom, extender).
_TALL = {
    "(": ("⎛", "⎜", "⎝", "⎜"),
    ")": ("⎞", "⎟", "⎠", "⎟"),
    "[": ("⎡", "⎢", "⎣", "⎢"),
    "]": ("⎤", "⎥", "⎦", "⎥"),
    "{": ("⎧", "⎨", "⎩", "⎪"),
    "}": ("⎫", "⎬", "⎭", "⎪"),
    "⌊": ("│", "│", "⌊", "│"),
    "⌋": ("│", "│", "⌋", "│"),
    "⌈": ("⌈", "│", "│", "│"),
    "⌉": ("⌉", "│", "│", "│"),
}


def delimiter(ch: str, height: int, baseline: int) -> Box:
    """A delimiter `height` rows tall ('' for none); one row tall it is the character itself."""
    if not ch:
        return Box(("",) * height, baseline)
    if height <= 1:
        return Box((ch,), 0)
    if ch in _TALL:
        top, mid, bottom, ext = _TALL[ch]
        lines = [ext] * height
        lines[0], lines[-1] = top, bottom
        if ch in "{}" and height >= 3:
            lines[(height - 1) // 2] = mid
        return Box(tuple(lines), baseline)
    # |, ‖, ⟨ ⟩ and anything else: repeat the character on every row
    return Box((ch,) * height, baseline)


def wrap(box: Box, left: str, right: str) -> Box:
    """Surround a box with delimiters as tall as it is."""
    parts = [delimiter(left, box.height, box.baseline), box, delimiter(right, box.height, box.baseline)]
    return hconcat([p for p in parts if p.width or p is box])
