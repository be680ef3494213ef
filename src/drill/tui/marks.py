"""How a card's Anki flag and mark look on screen (the study header, the browser's column): one place."""

from __future__ import annotations

from rich.text import Text

from drill.i18n import _
from drill.store.types import FLAG_NAMES, NO_FLAG

# Anki's flag colours, in drill.store.types.FLAGS order (0: no flag).
FLAG_STYLES = ("", "red", "dark_orange", "green", "blue", "hot_pink", "dark_turquoise", "medium_purple")
FLAG_SIGN = "⚑"
MARK_SIGN = "★"


def flag_name(flag: int) -> str:
    return _(FLAG_NAMES[flag])


def marks_text(flag: int, marked: bool, *, short: bool = False) -> Text:
    """``⚑ red  ★ marked`` (``short``: the signs and colour only, ``⚑★``); empty for neither."""
    text = Text(no_wrap=True)
    if flag != NO_FLAG:
        text.append(
            FLAG_SIGN if short else f"{FLAG_SIGN} {flag_name(flag)}", style=f"bold {FLAG_STYLES[flag]}"
        )
    if marked:
        if text and not short:
            text.append(" ")
        text.append(MARK_SIGN if short else f"{MARK_SIGN} {_('marked')}", style="bold yellow")
    return text
