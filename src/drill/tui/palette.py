"""Command palette provider: offers the active screen's actions (the same ones its keys run).

A screen takes part by defining ``PALETTE_GROUP``; its rows come from its ``BINDINGS`` (`drill.tui.keys`), and
the action string is run on the screen, exactly as its key binding would run it. `Palette` is Textual's
palette in the UI language, and `system_commands` Textual's own commands (theme, quit, ...) translated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from rich.align import Align
from rich.text import Text
from textual.app import SystemCommand
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen
from textual.widgets.option_list import Option

from drill.i18n import N_, _
from drill.tui.keys import palette_rows


class ScreenCommands(Provider):
    _target: Screen

    def _actions(self) -> list[tuple[str, str, str]]:
        # The palette is itself a screen; the screen underneath it is the one whose actions we offer.
        for screen in reversed(self.app.screen_stack):
            if getattr(screen, "PALETTE_GROUP", None):
                self._target = screen
                return palette_rows(screen)
        return []

    def _run(self, action: str) -> None:
        self.app.call_later(self._target.run_action, action)

    async def discover(self) -> Hits:
        for title, help_text, action in self._actions():
            yield DiscoveryHit(title, partial(self._run, action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action in self._actions():
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(title), partial(self._run, action), text=title, help=help_text
                )


# Textual's own palette commands in drill's words (title, help); the ones not listed are left out: "Keys"
# opens Textual's help panel, whose widget help is Textual's English (drill's own help is ?).
SYSTEM_COMMANDS = {
    "Theme": (N_("Theme"), N_("Change the current theme")),
    "Quit": (N_("Quit"), N_("Quit the application as soon as possible")),
    "Maximize": (N_("Maximize"), N_("Maximize the focused widget")),
    "Minimize": (N_("Minimize"), N_("Minimize the widget and restore to normal size")),
    "Screenshot": (N_("Screenshot"), N_("Save an SVG screenshot of the current screen")),
}


def system_commands(
    commands: Iterable[SystemCommand], screenshot: Callable[[], object]
) -> Iterable[SystemCommand]:
    """Textual's system commands translated (``SYSTEM_COMMANDS``); the screenshot one saves through
    ``screenshot``, which says where in drill's words."""
    for command in commands:
        words = SYSTEM_COMMANDS.get(command.title)
        if words is None:
            continue
        callback = screenshot if command.title == "Screenshot" else command.callback
        yield SystemCommand(_(words[0]), _(words[1]), callback, command.discover)


class Palette(CommandPalette):
    """Textual's command palette with its own words (the search prompt, "No matches found") translated."""

    def __init__(self, placeholder: str = N_("Search for commands…"), **kwargs) -> None:
        super().__init__(placeholder=_(placeholder), **kwargs)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        # Textual 8.2.8's method (textual is pinned exactly), its message through the catalog.
        self._stop_no_matches_countdown()

        def _show_no_matches() -> None:
            if search_value:
                command_list = self.query_one(CommandList)
                command_list.add_option(
                    Option(
                        Align.center(Text(_("No matches found"), style="not bold")),
                        disabled=True,
                        id=self._NO_MATCHES,
                    )
                )
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, _show_no_matches)
