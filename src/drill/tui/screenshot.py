"""SVG screenshots whose Chinese sits in its cells, as the terminal drew it.

Rich's ``Console.export_svg`` (which Textual's ``export_screenshot`` calls) writes each run of same-styled text
as one ``<text x=… textLength=…>``: ``x`` counts terminal cells, but ``textLength`` is the cell width times the
run's *characters* (``len``), not its cells (``cell_len``). A Chinese character takes two cells, so a browser
that honours ``textLength`` (Chromium) squeezes each one into a single cell: the run's glyphs pile onto each
other and the second half of its cells stays empty. The font stack (``Fira Code, monospace``) has no CJK font
either, so the fallback glyph is whatever the browser picks.

`fit_wide_characters` rewrites such a screenshot: every run holding a wide character is split into pieces, each
wide character a ``<text>`` of its own at its own cell and each stretch of narrow text one ``<text>`` whose
``textLength`` is its cells; runs without wide characters are left as they were. A monospace CJK font comes
before ``monospace`` in the stack, where one is installed. `DrillApp.save_screenshot` and
``deliver_screenshot`` (the command palette's screenshot) go through it; `export_screenshot` (what the snapshot
tests compare) is Textual's, unchanged.
"""

from __future__ import annotations

import html
import re

from rich.cells import cell_len, get_character_cell_size

CJK_FONTS = '"Noto Sans Mono CJK SC", "Sarasa Mono SC", "Source Han Mono SC", "Microsoft YaHei Mono"'
_TEXT = re.compile(
    r'<text (?P<head>[^>]*?)x="(?P<x>[\d.]+)"(?P<mid>[^>]*?) textLength="(?P<length>[\d.]+)"'
    r"(?P<tail>[^>]*)>(?P<body>[^<]*)</text>"
)
_MATRIX_FONT = re.compile(r"(-matrix \{\s*font-family: )Fira Code, monospace;")


def fit_wide_characters(svg: str) -> str:
    """``svg`` (Rich's export) with every wide character placed in its two cells (see the module's doc)."""
    svg = _MATRIX_FONT.sub(rf"\1Fira Code, monospace, {CJK_FONTS};", svg, count=1)
    return _TEXT.sub(_fit_run, svg)


def _fit_run(match: re.Match[str]) -> str:
    text = html.unescape(match["body"])
    if not text.strip() or all(get_character_cell_size(char) == 1 for char in text):
        return match[0]  # a cell a character (or the newline Rich draws at a line's end): right as it is
    cell = float(match["length"]) / len(text)  # Rich's cell width: textLength is cells x characters
    x = float(match["x"])
    head, mid, tail = match["head"], match["mid"], match["tail"]
    pieces = []
    for offset, piece, wide in _pieces(text):
        at = _number(x + offset * cell)
        length = "" if wide else f' textLength="{_number(cell * cell_len(piece))}"'
        pieces.append(f'<text {head}x="{at}"{mid}{length}{tail}>{_escape(piece)}</text>')
    return "".join(pieces)


def _pieces(text: str) -> list[tuple[int, str, bool]]:
    """(cell offset, text, is one wide character) for each piece of a run: a wide character (with the
    zero-width marks after it) alone, a stretch of narrow characters together."""
    pieces: list[tuple[int, str, bool]] = []
    cells, start, current, wide = 0, 0, "", False
    for char in text:
        width = get_character_cell_size(char)
        if width == 0 and current:  # a combining mark stays with its character
            current += char
            continue
        if current and (wide or width == 2):
            pieces.append((start, current, wide))
            current = ""
        if not current:
            start, wide = cells, width == 2
        current += char
        cells += width
    if current:
        pieces.append((start, current, wide))
    return pieces


def _escape(text: str) -> str:
    """As Rich escapes a run: markup characters as entities, spaces as no-break spaces."""
    return html.escape(text, quote=False).replace(" ", "&#160;").replace("\xa0", "&#160;")


def _number(value: float) -> str:
    return f"{round(value, 3):g}"
