"""Environments: matrices (aligned tables), cases (a tall brace), aligned rows (lined up on `&`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import _symbols as sym
from ._box import EMPTY, Box, hconcat, pad_box, vstack, wrap
from ._parse import arg_tokens, is_space, last_arg, node_args, split_tokens, tokenize
from ._pieces import NUMERIC, Piece, no_commands

if TYPE_CHECKING:
    from ._render import Renderer


def environment(renderer: Renderer, node, script: bool) -> Piece:
    name = node.environmentname
    verbatim = getattr(node.nodeargd, "verbatim_text", None)
    if verbatim is not None:
        return Piece("text", Box.text(no_commands(verbatim)))
    tokens = tokenize(node.nodelist)
    if name in sym.MATRIX_DELIMITERS:
        left, right = sym.MATRIX_DELIMITERS[name]
        spec = ""
        if name in ("array", "subarray") and node_args(node):
            spec = re.sub(r"[^lcr]", "", renderer.block(arg_tokens(last_arg(node)), True).str)
        return Piece("delim" if left else "ord", matrix(renderer, tokens, left, right, spec))
    if name in sym.CASES_ENVIRONMENTS:
        left, right = sym.CASES_ENVIRONMENTS[name]
        return Piece("delim", cases(renderer, tokens, left, right))
    if name in sym.ALIGN_ENVIRONMENTS or name in sym.GATHER_ENVIRONMENTS:
        return Piece("ord", align(renderer, tokens, script, gather=name in sym.GATHER_ENVIRONMENTS))
    renderer.unknown.add(f"begin{{{name}}}")
    return Piece("ord", align(renderer, tokens, script, gather=True))


def _grid(renderer: Renderer, tokens, keep_edges: bool = False) -> list[list[Box]]:
    rows = split_tokens(tokens, "nl")
    while rows and not any(not is_space(t) for t in rows[-1]):  # trailing \\ or blank line
        rows.pop()
    return [[renderer.row(cell, keep_edges=keep_edges).box for cell in split_tokens(r, "amp")] for r in rows]


def matrix(renderer: Renderer, tokens, left: str, right: str, spec: str = "") -> Box:
    grid = _grid(renderer, tokens)
    if not grid:
        return Box.text(left + right)
    if renderer.oneline:
        body = "; ".join(", ".join(cell.str for cell in row) for row in grid)
        return Box.text(left + body + right)
    ncols = max(len(r) for r in grid)
    for r in grid:
        r.extend([EMPTY] * (ncols - len(r)))
    aligns = []
    for c in range(ncols):
        if c < len(spec):
            aligns.append(spec[c])
        else:
            column = [r[c].str for r in grid if r[c].str]
            aligns.append("r" if column and all(NUMERIC.match(t) for t in column) else "c")
    widths = [max(r[c].width for r in grid) for c in range(ncols)]
    lines = []
    for r in grid:
        cells = []
        for c in range(ncols):
            if c:
                cells.append(Box.text("  "))
            cells.append(pad_box(r[c], widths[c], aligns[c]))
        lines.append(hconcat(cells))
    body = vstack(lines)
    if len(grid) == 1 and body.is_line:
        return Box.text(left + body.lines[0] + right)
    return wrap(body, left, right)


def cases(renderer: Renderer, tokens, left: str, right: str) -> Box:
    grid = _grid(renderer, tokens)
    if not grid:
        return Box.text(left + right)
    if renderer.oneline:
        close = right or {"{": "}", "": ""}[left]
        return Box.text(left + "; ".join(" ".join(c.str for c in r if c.str) for r in grid) + close)
    ncols = max(len(r) for r in grid)
    widths = [max((r[c].width for r in grid if c < len(r)), default=0) for c in range(ncols)]
    lines = []
    for r in grid:
        cells = []
        for c, cell in enumerate(r):
            if c:
                cells.append(Box.text("  "))
            cells.append(pad_box(cell, widths[c], "l"))
        lines.append(hconcat(cells))
    if len(lines) % 2 == 0:  # an odd height gives the brace a middle (⎨) for the text beside it
        lines.insert(len(lines) // 2, EMPTY)
    body = vstack(lines)
    pad = Box((" ",) * body.height, body.baseline)
    parts = [body] if not left else [pad, body]
    if right:
        parts.append(pad)
    inner = hconcat(parts)
    if body.height == 1:
        return Box.text((left or "") + inner.lines[0] + (right or ""))
    return wrap(inner, left, right)


def align(renderer: Renderer, tokens, script: bool, gather: bool = False) -> Box:
    """Rows separated by \\\\; columns by & (right/left pairs as in align)."""
    grid = _grid(renderer, tokens, keep_edges=True)
    if not grid:
        return EMPTY
    if renderer.oneline or script:
        return Box.text(
            "; ".join("".join(c.str if not c.is_line else c.lines[0] for c in r).strip() for r in grid)
        )
    if gather or all(len(r) == 1 for r in grid):
        boxes = [hconcat(r) for r in grid]
        width = max(b.width for b in boxes)
        return vstack([pad_box(b, width, "c") for b in boxes], "l")
    ncols = max(len(r) for r in grid)
    widths = [max((r[c].width for r in grid if c < len(r)), default=0) for c in range(ncols)]
    lines = []
    for r in grid:
        cells = []
        for c in range(ncols):
            cell = r[c] if c < len(r) else EMPTY
            if c and c % 2 == 0:
                cells.append(Box.text("    "))
            cells.append(pad_box(cell, widths[c], "r" if c % 2 == 0 else "l"))
        lines.append(hconcat(cells))
    return vstack(lines, "l")


# -- joining ------------------------------------------------------------------------------------
