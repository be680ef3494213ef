"""The one Textual app behind `drill study`, `drill quiz` and `drill calc`, and behind the tests.

`make_app(mode, ...)` builds a `DrillApp` whose first screen is the mode's screen. Screens are looked up
lazily in `MODES`, so a new mode plugs in by adding one entry and one module under `tui/screens/`.
The first paint needs only textual and this package: content, the store (sqlalchemy) and the engine (numpy)
load afterwards in thread workers started by the screen.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from drill.tui.options import AppOptions
from drill.tui.palette import ScreenCommands

# mode -> "module:ScreenClass"; each screen class takes (options: AppOptions).
MODES: dict[str, str] = {
    "study": "drill.tui.screens.study:StudyScreen",
    "quiz": "drill.tui.screens.quiz:QuizScreen",
    "calc": "drill.tui.screens.calc:CalcScreen",
}

EXIT_AFTER_ENV = "DRILL_EXIT_AFTER"


class DrillApp(App[Any]):
    """Holds the options and the error (if any) that ended the run; screens do the work."""

    TITLE = "drill"
    CSS_PATH = ["styles/app.tcss"]
    COMMANDS = App.COMMANDS | {ScreenCommands}
    BINDINGS = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, mode: str, options: AppOptions) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
        super().__init__()
        self.mode_name = mode
        self.options = options
        # A DrillError raised while loading; the CLI re-raises it once the terminal is restored.
        self.error: Exception | None = None
        # The mode's screen once mounted (tests and benchmarks look at it).
        self.mode_screen: Screen | None = None

    def first_screen(self) -> Screen:
        module_name, class_name = MODES[self.mode_name].split(":")
        screen_class = getattr(importlib.import_module(module_name), class_name)
        return screen_class(self.options)

    def on_mount(self) -> None:
        self.mode_screen = self.first_screen()
        self.push_screen(self.mode_screen)
        if self.options.exit_after == "paint":
            self.call_after_refresh(self.exit)

    def fail(self, error: Exception) -> None:
        """End the run with a user-facing error (called from the UI thread)."""
        self.error = error
        self.exit()

    def reached(self, milestone: str) -> None:
        """Screens report milestones ("question"); a benchmark run may exit on one."""
        if self.options.exit_after == milestone:
            self.call_after_refresh(self.exit)


def make_app(mode: str = "study", **kwargs: Any) -> DrillApp:
    """Build the app for ``mode`` ("study", "quiz", "calc").

    Known keyword arguments fill `AppOptions`; any others (a quiz's seconds, calc's inputs) go to
    ``options.extra`` for the mode's screen. ``exit_after`` defaults to $DRILL_EXIT_AFTER (benchmarks).
    """
    fields = set(AppOptions.__dataclass_fields__)
    known = {k: v for k, v in kwargs.items() if k in fields}
    extra = {k: v for k, v in kwargs.items() if k not in fields}
    known.setdefault("exit_after", os.environ.get(EXIT_AFTER_ENV) or None)
    options = AppOptions(**known)
    options.extra.update(extra)
    return DrillApp(mode, options)
