"""Help and command-palette rows, derived from a screen's ``BINDINGS`` (one source: the keys it really has).

A binding the screen's ``check_action`` hides now (returns False) is in neither, as in the footer.
Bindings that run the same action are one row (``space / enter  Show answer``). A binding's ``description``
is its short name (the footer's); its ``tooltip``, when set, is the longer explanation the help screen adds.
A screen takes part by defining ``HELP_TITLE`` and ``PALETTE_GROUP``; ``HELP_NOTES`` adds rows for input
that is not a key binding (typing a numeric answer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.actions import parse
from textual.binding import Binding
from textual.reactive import ReactiveError

from drill.i18n import N_, _

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.screen import Screen

# Keys every drill screen has through the app (the palette's own key and the app's quit).
APP_ROWS = (("ctrl+p", N_("Command palette (every action above)")), ("ctrl+c", N_("Quit (nothing is lost)")))


@dataclass(frozen=True)
class KeyRow:
    keys: str  # as shown: "space / enter"
    action: str
    description: str
    tooltip: str


def binding_key(binding: Binding) -> str:
    return binding.key_display or binding.key


def key_rows(bindings: list[Binding]) -> list[KeyRow]:
    """One row per action, in the order the bindings are declared."""
    rows: dict[str, tuple[list[str], Binding]] = {}
    for binding in bindings:
        keys, first = rows.setdefault(binding.action, ([], binding))
        keys.append(binding_key(binding))
    return [
        KeyRow(" / ".join(keys), action, first.description, first.tooltip)
        for action, (keys, first) in rows.items()
    ]


def _screen_bindings(screen: Screen) -> list[Binding]:
    """The screen's bindings that its ``check_action`` offers now: one it hides (False) is left out, as the
    footer leaves it out (a slider demo's enter, which has no next step); one it greys (None) is listed."""
    return [
        b
        for b in getattr(type(screen), "BINDINGS", [])
        if isinstance(b, Binding) and _offered(screen, b.action)
    ]


def _offered(screen: Screen, action: str) -> bool:
    _namespace, name, parameters = parse(action)
    try:
        return screen.check_action(name, parameters) is not False
    except (AttributeError, ReactiveError):  # a screen not yet built (``__new__``): every key it declares
        return True


def help_rows(screen: Screen) -> list[tuple[str, str]]:
    """(keys, what they do) for the help screen: the screen's bindings, its notes, then the app's keys."""
    rows = []
    for row in key_rows(_screen_bindings(screen)):
        text = _(row.description)
        if row.tooltip:
            text += f" — {_(row.tooltip)}"
        rows.append((row.keys, text))
    rows += [(_(keys), _(text)) for keys, text in getattr(screen, "HELP_NOTES", ())]
    rows += [(keys, _(text)) for keys, text in APP_ROWS]
    return rows


def palette_rows(screen: Screen) -> list[tuple[str, str, str]]:
    """(title, help, action) for the command palette: every action the screen's keys run."""
    group = _(getattr(screen, "PALETTE_GROUP", "")) or type(screen).__name__
    return [
        (f"{group}: {_(row.description)}", _("key {keys}").format(keys=row.keys), row.action)
        for row in key_rows(_screen_bindings(screen))
    ]


def show_help(screen: Screen) -> None:
    """Open the help screen for ``screen``'s keys."""
    from drill.tui.screens.help import HelpScreen

    screen.app.push_screen(HelpScreen(_(getattr(screen, "HELP_TITLE", N_("Keys"))), help_rows(screen)))


def translate_bindings(node: DOMNode) -> None:
    """Show ``node``'s bindings in the UI language: its own copy of each (the class's stay English, so a
    process can show another language later, as tests do) with description and tooltip through ``_()``.
    The footer reads these; the help and palette rows translate the class's BINDINGS themselves."""
    from dataclasses import replace

    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            replace(b, description=_(b.description), tooltip=_(b.tooltip) if b.tooltip else b.tooltip)
            for b in bindings
        ]
