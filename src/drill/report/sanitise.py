"""The one output sanitiser: every string drill writes — terminal, Markdown, HTML, CSV, JSON, the Anki
package — passes through here on its way out.

Content is checked when it is loaded, but a string can reach a report some other way: a user name or a card's
section planted in a shared database by anyone with SQL access, a tampered content cache, a card built in code.
So the renderers never trust a value: each one shows every character of drill's one rule
(``drill.content.control``: Unicode Cc less TAB and LF, and every Cf format character, bidi controls included)
as a visible stand-in (ESC -> ␛, U+202E -> ``<U+202E>``), and then applies its own format's escaping on top:

- ``text``: the stand-ins only (terminal via Rich ``Text``, JSON values, Markdown before its own escaping).
- ``html``: stand-ins, then HTML-escaped (quotes included). The HTML report's jinja environment runs ``text`` on
  every ``{{ … }}`` value (its ``finalize``) before autoescape.
- ``cell``: stand-ins, then a CSV cell a spreadsheet will not run as a formula (a leading ``=``, ``+``, ``-``,
  ``@``, TAB or CR gets a ``'`` prefix, OWASP's advice).
- ``clean``: a whole figure (a ReportData, a list, a dict) with every string in it passed through ``text``; the
  same object back when nothing needed it.
"""

from __future__ import annotations

import html as _html
from dataclasses import fields, is_dataclass, replace
from typing import Any

from drill.content import control

# A cell starting with one of these is a formula (or becomes one) in Excel, LibreOffice and Google Sheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text(value: str) -> str:
    """``value`` with every character of drill's rule shown as a visible stand-in."""
    return value if control.find(value) is None else control.visible(value)


def texts(values: list[str]) -> list[str]:
    """``text`` over a column of strings (100k card ids: one search over the lot when all are clean)."""
    if control.find("\n".join(values)) is None:
        return values
    return [text(v) for v in values]


def html(value: str) -> str:
    """``value`` for HTML: stand-ins, then escaped (``<``, ``>``, ``&`` and both quotes)."""
    return _html.escape(text(value), quote=True)


def neutralise(value: str) -> str:
    """A ``'`` before text a spreadsheet would evaluate (the value is otherwise as it is)."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def cell(value: str) -> str:
    """``value`` as a CSV cell: stand-ins, then neutralised."""
    return neutralise(text(value))


def clean(value: Any) -> Any:
    """``value`` with every string inside it (dataclass fields, lists, tuples, dict keys and values) passed
    through ``text``; the same object when none changed. Objects with a ``sanitised()`` method (the report's
    card columns) clean themselves."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, list | tuple):
        items = [clean(v) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(items) if isinstance(value, tuple) else items
    if isinstance(value, dict):
        cleaned = {clean(k): clean(v) for k, v in value.items()}
        if all(k in value and cleaned[k] is value[k] for k in cleaned) and len(cleaned) == len(value):
            return value
        return cleaned
    sanitised = getattr(value, "sanitised", None)
    if callable(sanitised):
        return sanitised()
    if is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in fields(value):
            old = getattr(value, f.name)
            new = clean(old)
            if new is not old:
                changes[f.name] = new
        return replace(value, **changes) if changes else value
    return value


__all__ = ["FORMULA_STARTS", "cell", "clean", "html", "neutralise", "text", "texts"]
