"""What every mode's screen (study, quiz, calc) shares: the app's options, typed access to the `DrillApp`,
and help / quit from its ``BINDINGS``."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.screen import Screen

from drill.i18n import N_
from drill.tui.keys import show_help
from drill.tui.options import AppOptions

if TYPE_CHECKING:
    from drill.tui.app import DrillApp


class ModeScreen(Screen[None]):
    HELP_TITLE = N_("drill — keys")
    PALETTE_GROUP = N_("drill")

    def __init__(self, options: AppOptions) -> None:
        super().__init__()
        self.options = options

    @property
    def drill_app(self) -> DrillApp:
        return cast("DrillApp", self.app)  # a mode screen only ever runs in a DrillApp

    def action_help(self) -> None:
        show_help(self)

    def action_quit(self) -> None:
        self.app.exit()
