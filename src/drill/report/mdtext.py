"""Markdown text for the report: inline escaping (web addresses as autolinks) and tables."""

from __future__ import annotations

import re

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~])")
# A web address in card text. GitHub links bare addresses itself (its "extended autolinks"), and would then
# take drill's escape backslashes into the link: an address is written as a CommonMark autolink instead,
# ``<https://…>``, whose text is taken literally (no escapes needed, none applied).
_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>\"]+")
_URL_TRAILING = ".,;:!?'*_~)"  # punctuation after an address ends the sentence, not the address


def escape(text: str) -> str:
    """Inline text for a Markdown table cell: one line, HTML entities, Markdown punctuation backslashed, web
    addresses as autolinks."""
    flat = " ".join(text.split())
    out, pos = [], 0
    for match in _URL.finditer(flat):
        url = match.group().rstrip(_URL_TRAILING)
        if url.count("(") > url.count(")") and match.group()[len(url) :].startswith(")"):
            url += ")"  # a balanced closing parenthesis belongs to the address (as in Wikipedia's)
        if match.start() < pos or len(url) <= len("www."):
            continue
        out.append(_escape_plain(flat[pos : match.start()]))
        out.append(_autolink(url))
        pos = match.start() + len(url)
    out.append(_escape_plain(flat[pos:]))
    return "".join(out)


def _escape_plain(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", text)


def _autolink(url: str) -> str:
    """``<url>`` with the characters an autolink or a table cell cannot hold percent-encoded."""
    target = url if "://" in url else "http://" + url
    for ch, code in (("|", "%7C"), ("`", "%60"), ("\\", "%5C")):
        target = target.replace(ch, code)
    return f"<{target}>"


def table(header: list[str], rows: list[list[str]], align: str | None = None) -> str:
    align = align or "l" + "r" * (len(header) - 1)
    rule = ["---" if a == "l" else "--:" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


__all__ = ["escape", "table"]
