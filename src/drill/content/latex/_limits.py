"""How deep a formula nests, in one linear scan: the bound that keeps rendering cheap.

The renderer (and pylatexenc under it) recurses once per level of ``{…}``, ``\\left…\\right`` and
``\\begin…\\end``; a hostile formula nested hundreds deep made it recurse past Python's limit and retry
position by position (``\\frac`` 1,000 deep: minutes). The chapter nests at most 3 deep, so a formula deeper
than `MAX_NESTING` is refused by the content loader (file, line, field) and shown as plain text by the
renderer. Below the bound the renderer's work grows linearly with the length of the formula.
"""

from __future__ import annotations

import re

MAX_NESTING = 16  # levels of {…} / \left…\right / \begin…\end in one text (the chapter's deepest: 3)

# An escaped brace (\{ \}) is a character, not a group; \leftarrow is a symbol, not \left; the braces of
# \begin{name} are part of the one level the environment opens.
_TOKEN = re.compile(
    r"\\(?:(left(?![A-Za-z])|begin(?![A-Za-z])\s*(?:\{[A-Za-z*]*\})?)"
    r"|(right(?![A-Za-z])|end(?![A-Za-z])\s*(?:\{[A-Za-z*]*\})?)"
    r"|[A-Za-z]+|.)|([{])|([}])",
    re.S,
)


def nesting(text: str) -> tuple[int, int]:
    """(deepest level, offset where it is first reached) of ``{``, ``\\left`` and ``\\begin`` in `text`.

    Unbalanced closers are ignored (the level never goes below 0), so the scan is one pass whatever the text.
    """
    level = deepest = 0
    where = 0
    for match in _TOKEN.finditer(text):
        opens, closes, brace_open, brace_close = match.groups()
        if opens or brace_open:
            level += 1
            if level > deepest:
                deepest, where = level, match.start()
        elif (closes or brace_close) and level:
            level -= 1
    return deepest, where


def too_deep(text: str) -> str | None:
    """A one-line problem when `text` nests deeper than `MAX_NESTING`, else None."""
    if "{" not in text and "\\" not in text:
        return None
    deepest, where = nesting(text)
    if deepest <= MAX_NESTING:
        return None
    line = text.count("\n", 0, where) + 1
    at = f" (line {line} of the text)" if "\n" in text else ""
    return (
        f"a formula nests {deepest} levels deep{at}; at most {MAX_NESTING} levels of {{…}}, "
        f"\\left…\\right and \\begin…\\end are allowed"
    )
