"""How a card's Anki flag and mark look on screen (the study header, the browser's column): one place."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding

from drill.i18n import N_, _, deferred
from drill.store.types import FLAG_NAMES, FLAGS, NO_FLAG

# Anki's flag colours, in drill.store.types.FLAGS order (0: no flag).
FLAG_STYLES = ("", "red", "dark_orange", "green", "blue", "hot_pink", "dark_turquoise", "medium_purple")
FLAG_SIGN = "⚑"
MARK_SIGN = "★"


def flag_bindings() -> list[Binding]:
    """Anki's keys, for study and the browser: ctrl+1 … ctrl+7 flag (the same key again removes it), ctrl+0
    removes the flag, * marks or unmarks (actions ``flag(n)`` and ``toggle_mark``; not in the footer)."""
    return [
        *(
            Binding(
                f"ctrl+{n}",
                f"flag({n})",
                N_("Flag {colour}", colour=deferred(FLAG_NAMES[n])),
                key_display=f"ctrl+{n}",
                show=False,
                tooltip=N_("the same key again removes the flag"),
            )
            for n in FLAGS
            if n != NO_FLAG
        ),
        Binding("ctrl+0", "flag(0)", N_("Remove the flag"), key_display="ctrl+0", show=False),
        Binding(
            "asterisk",
            "toggle_mark",
            N_("Mark"),
            key_display="*",
            show=False,
            tooltip=N_("mark or unmark the card (Anki's marked tag)"),
        ),
    ]


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
