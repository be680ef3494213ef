"""Find the formulas in Markdown text (skipping code) and put their renderings in place."""

from __future__ import annotations

import re
from collections.abc import Callable

from ._box import Box, hconcat

_CONTAINER = re.compile(r"([ \t>]*)((?:[-*+]|\d+[.)])[ \t]+)?")
_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")

# Segments: ("text", s) | ("inline", latex) | ("display", latex)
Segment = tuple[str, str]


def split_math(text: str) -> list[Segment]:
    """Split Markdown into text and formulas. Code blocks, code spans and \\$ stay text."""
    out: list[Segment] = []
    buf: list[str] = []
    i, n = 0, len(text)
    at_line_start = True

    def flush():
        if buf:
            out.append(("text", "".join(buf)))
            buf.clear()

    while i < n:
        if at_line_start:
            m = _FENCE.match(text, i)
            if m:  # fenced code block: verbatim up to the closing fence (or the end)
                fence = m.group(1)
                end = _closing_fence(text, text.find("\n", i), fence)
                buf.append(text[i:end])
                i = end
                at_line_start = False  # text[end] is the fence line's newline (or the end)
                continue
        ch = text[i]
        at_line_start = ch == "\n"
        if ch == "\\" and i + 1 < n and text[i + 1] in "$`\\":
            buf.append(text[i : i + 2])
            i += 2
            continue
        if ch == "`":
            run = len(text[i:]) - len(text[i:].lstrip("`"))
            close = _find_run(text, i + run, "`" * run)
            end = close + run if close >= 0 else i + run
            buf.append(text[i:end])
            i = end
            continue
        if text.startswith("$$", i):
            close = _display_close(text, i + 2)
            if close >= 0 and text[i + 2 : close].strip():
                flush()
                out.append(("display", text[i + 2 : close]))
                i = close + 2
                continue
        if ch == "$":
            close = _inline_close(text, i)
            if close >= 0:
                flush()
                out.append(("inline", text[i + 1 : close]))
                i = close + 1
                continue
        buf.append(ch)
        i += 1
    flush()
    return out


def _closing_fence(text: str, newline: int, fence: str) -> int:
    if newline < 0:
        return len(text)
    pattern = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.M)
    m = pattern.search(text, newline + 1)
    return m.end() if m else len(text)


def _find_run(text: str, start: int, run: str) -> int:
    """Next backtick run of exactly len(run) characters."""
    i = start
    while True:
        i = text.find(run, i)
        if i < 0:
            return -1
        j = i + len(run)
        if (i == 0 or text[i - 1] != "`") and (j >= len(text) or text[j] != "`"):
            return i
        while i < len(text) and text[i] == "`":
            i += 1


def _opens_code_span(text: str, i: int) -> bool:
    """True when the backtick run at `i` has a closing run: a code span starts here."""
    run = len(text[i:]) - len(text[i:].lstrip("`"))
    return _find_run(text, i + run, "`" * run) >= 0


def _display_close(text: str, start: int) -> int:
    """The closing $$ of a display formula whose body starts at `start`, or -1 (none before a code span)."""
    i = start
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "`" and _opens_code_span(text, i):  # nothing inside a code span is maths
            return -1
        if text.startswith("$$", i):
            return i
        i += 1
    return -1


def _inline_close(text: str, start: int) -> int:
    """Closing $ of an inline formula opened at `start` (pandoc's rules), or -1.

    Not a formula: a `$` followed by a space or another `$`, a closing `$` after a space or before a digit
    (currency: "$5 and $6"), and anything that would reach into a code span ("$6 … `$x$`").
    """
    if start + 1 >= len(text) or text[start + 1].isspace() or text[start + 1] == "$":
        return -1
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "`" and _opens_code_span(text, i):
            return -1
        if ch == "\n" and text[i + 1 : i + 2] == "\n":  # a formula never spans a blank line
            return -1
        if ch == "$":
            if text[i - 1].isspace() or (i + 1 < len(text) and text[i + 1].isdigit()):
                return -1
            return i
        i += 1
    return -1


def render_markdown(
    text: str, render: Callable[[str, bool], Box], indent: str = "  ", markdown: bool = False
) -> str:
    """Replace every formula of `text` by its rendering.

    For a terminal (markdown=False): a line whose inline formulas render over several rows (matrices) is
    laid out as one 2-D row, text on the formulas' baseline; display formulas go on their own lines,
    indented by `indent` past the line they opened on. Lines of Markdown tables and headings get one-line
    renderings so they stay intact.

    For a Markdown renderer (markdown=True), which would reflow a 2-D layout: inline formulas are one line
    with Markdown's special characters escaped (W\\_Q), display formulas become fenced ```text blocks so
    matrices keep their rows and columns.
    """
    lines: list[str] = []
    current: list[Box] = []
    current_text: list[str] = []  # the line's text so far (to know if it is a table row/heading)
    after_display = False  # the rest of a closing $$ line is not a line of its own unless it has text

    def flush_line():
        nonlocal after_display
        if not (after_display and not current):
            lines.extend(_line(current))
        after_display = False
        current.clear()
        current_text.clear()

    def add_text(s: str):
        nonlocal after_display
        for k, part in enumerate(s.split("\n")):
            if k:
                flush_line()
            if part:
                if after_display and not current:
                    part = part.lstrip()  # "$$…$$ text": the text starts a new line
                    if not part:
                        continue
                after_display = False
                current.append(Box.text(part))
                current_text.append(part)

    for kind, value in split_math(text):
        if kind == "text":
            add_text(value)
        elif kind == "inline" or (markdown and "".join(current_text).lstrip().startswith(("|", "#"))):
            head = "".join(current_text).lstrip()
            if markdown:
                current.append(Box.text(markdown_escape(render(value, True).str)))
            else:
                current.append(render(value, head.startswith(("|", "#"))))
            current_text.append("$")
            after_display = False
        else:  # display: on its own lines, indented past the line it opened on
            prefix = "".join(current_text)
            container = _CONTAINER.fullmatch(prefix)
            if container:  # only indentation, quote marks (>) and a list marker before the $$
                first = prefix
                lead = container.group(1) + " " * len(container.group(2) or "")
                current.clear()
                current_text.clear()
            else:  # "text $$…$$": the text ends its line (its trailing spaces go)
                if current and current[-1].is_line:
                    current[-1] = Box.text(current[-1].lines[0].rstrip())
                flush_line()
                first = lead = re.match(r"[ \t>]*", prefix).group(0)
            if ">" in lead:  # a formula inside a block quote carries the quote marks on its lines
                value = re.sub(r"(?m)^[ \t]*(?:>[ \t]?)+", "", value)
            box = render(value, prefix.lstrip().startswith(("|", "#")))
            body = box.render().split("\n")
            if markdown:
                fence = "`" * max(
                    3, 1 + max((len(run) for run in re.findall(r"`+", box.render())), default=0)
                )
                lines.append((first + fence + "text").rstrip())
                lines.extend((lead + line).rstrip() for line in body)
                lines.append(lead + fence)
            else:
                for k, line in enumerate(body):
                    lines.append(((first if k == 0 else lead) + indent + line).rstrip())
            after_display = True
    flush_line()
    return "\n".join(lines)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def markdown_escape(text: str) -> str:
    """Backslash-escape the characters Markdown would read as emphasis, code, links, HTML or table cells."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def _line(boxes: list[Box]) -> list[str]:
    if not boxes:
        return [""]
    if all(b.is_line for b in boxes):
        return ["".join(b.lines[0] for b in boxes)]
    return [line.rstrip() for line in hconcat(boxes).lines]
