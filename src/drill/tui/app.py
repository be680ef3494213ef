"""The one Textual app behind `drill study`, `drill quiz` and `drill calc`, and behind the tests.

`make_app(mode, ...)` builds a `DrillApp` whose default screen is the mode's screen (`get_default_screen`), and
installs the CJK line breaking (`drill.tui.cjk`). Screens are looked up lazily in `MODES`, so a new mode plugs in by
adding one entry and one module under `tui/screens/`.
The first paint needs only textual and this package: content, the store (sqlalchemy) and the engine (numpy)
load afterwards in thread workers started by the screen.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from drill.i18n import N_, _
from drill.tui import cjk
from drill.tui.keys import translate_bindings
from drill.tui.options import AppOptions
from drill.tui.palette import Palette, ScreenCommands, system_commands

if TYPE_CHECKING:
    from drill.store.interviews import InterviewAnswerRecord
    from drill.tui.models.quiz import QuizRun
    from drill.tui.models.study import SessionStats

# mode -> "module:ScreenClass"; each screen class takes (options: AppOptions).
MODES: dict[str, str] = {
    "study": "drill.tui.screens.study:StudyScreen",
    "quiz": "drill.tui.screens.quiz:QuizScreen",
    "interview": "drill.tui.screens.interview:InterviewScreen",
    "calc": "drill.tui.screens.calc:CalcScreen",
    "code": "drill.tui.screens.code:CodeScreen",
    "demo": "drill.tui.screens.demo:DemoListScreen",
}


class DrillApp(App[None]):
    """Holds the options, the error (if any) that ended the run and what the CLI prints afterwards (a study
    session's stats, a quiz run); screens do the work."""

    TITLE = "drill"
    CSS_PATH = ["styles/app.tcss"]
    COMMANDS = App.COMMANDS | {ScreenCommands}
    BINDINGS = [
        Binding("ctrl+c", "quit", N_("Quit"), show=False, priority=True),
    ]

    def __init__(self, mode: str, options: AppOptions) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
        super().__init__()
        self.mode_name = mode
        self.options = options
        # A DrillError raised while loading; the CLI re-raises it once the terminal is restored.
        self.error: Exception | None = None
        # The mode's screen (tests and benchmarks look at it); made by get_default_screen.
        self.mode_screen: Screen | None = None
        # Set by the study / quiz screen once they have them; the CLI prints a line from them on exit.
        self.study_stats: SessionStats | None = None
        self.quiz_run: QuizRun | None = None
        self.interview_answers: list[InterviewAnswerRecord] | None = None  # the interview's graded questions
        self._fitting_screenshot = False  # inside save_screenshot / deliver_screenshot
        translate_bindings(self)

    def get_default_screen(self) -> Screen:
        """The mode's screen; it starts its own loading once its shell is on screen."""
        module_name, class_name = MODES[self.mode_name].split(":")
        screen_class = getattr(importlib.import_module(module_name), class_name)
        screen = self.mode_screen = screen_class(self.options)
        translate_bindings(screen)
        # Textual reads a pushed screen's CSS_PATH, but not the default screen's (textual is pinned exactly).
        self._load_screen_css(screen)
        return screen

    def push_screen(self, screen, *args, **kwargs):
        """Every pushed screen's footer and bindings in the UI language (drill.tui.keys.translate_bindings)."""
        if isinstance(screen, Screen):
            translate_bindings(screen)
        return super().push_screen(screen, *args, **kwargs)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Textual's run, with SIGTERM / SIGHUP giving the terminal back before drill dies (drill.tui.hangup).

        What the process holds by now (textual's and drill's modules, some 65k objects) lives as long as it
        does: frozen out of the cyclic collector's passes (``gc.freeze``), so the rest of the start (the
        content, numpy, the first screen) stays below the collector's first pass (drill.entry) and no later pass
        walks them again. Only here, where the app is the process: tests make many apps in one process, and a
        freeze would keep the garbage of the ones before for good."""
        import gc

        from drill.tui.hangup import terminal_given_back

        gc.freeze()

        with terminal_given_back():
            return super().run(*args, **kwargs)

    async def action_quit(self) -> None:
        """ctrl+q / ctrl+c: a screen holding what is not saved yet (a code card's proposed grade) asks first."""
        blocked = getattr(self.screen, "quit_blocked", None)
        if blocked is not None and blocked():
            return
        self.exit()

    def action_command_palette(self) -> None:
        """Textual's palette (ctrl+p), its own words in the UI language."""
        if self.use_command_palette and not Palette.is_open(self):
            self.push_screen(Palette(id="--command-palette"))

    def search_themes(self) -> None:
        """The palette's theme command: the themes' names (identifiers), the prompt in the UI language."""
        from textual.theme import ThemeProvider

        self.push_screen(Palette(providers=[ThemeProvider], placeholder=N_("Search for themes…")))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        return system_commands(super().get_system_commands(screen), self._save_screenshot_command)

    def _save_screenshot_command(self) -> None:
        """The palette's Screenshot: saved in the working directory, where, said in the UI language."""
        try:
            path = self.save_screenshot()
        except OSError as err:
            self.notify(_("The screenshot was not saved: {error}").format(error=err), severity="error")
            return
        self.notify(_("Screenshot saved: {path}").format(path=path))

    def export_screenshot(self, *, title: str | None = None, simplify: bool = False) -> str:
        """Textual's SVG; for a screenshot drill saves, with Chinese in its two cells (drill.tui.screenshot).
        The snapshot tests compare Textual's own."""
        svg = super().export_screenshot(title=title, simplify=simplify)
        if not self._fitting_screenshot:
            return svg
        from drill.tui.screenshot import fit_wide_characters

        return fit_wide_characters(svg)

    def save_screenshot(self, *args: Any, **kwargs: Any) -> str:
        with self._fitted_screenshot():
            return super().save_screenshot(*args, **kwargs)

    def deliver_screenshot(self, *args: Any, **kwargs: Any) -> str | None:
        """Textual's screenshot action (the palette's Screenshot command saves through save_screenshot)."""
        with self._fitted_screenshot():
            return super().deliver_screenshot(*args, **kwargs)

    @contextmanager
    def _fitted_screenshot(self) -> Iterator[None]:
        self._fitting_screenshot = True
        try:
            yield
        finally:
            self._fitting_screenshot = False

    def fail(self, error: Exception) -> None:
        """End the run with a user-facing error (called from the UI thread)."""
        self.error = error
        self.exit()


def make_app(mode: str = "study", **kwargs: Any) -> DrillApp:
    """Build the app for ``mode`` ("study", "quiz", "calc").

    Known keyword arguments fill `AppOptions`; any others (a quiz's seconds, calc's inputs) go to
    ``options.extra`` for the mode's screen.
    """
    fields = set(AppOptions.__dataclass_fields__)
    known = {k: v for k, v in kwargs.items() if k in fields}
    extra = {k: v for k, v in kwargs.items() if k not in fields}
    options = AppOptions(**known)
    options.extra.update(extra)
    cjk.install()  # Chinese wraps between characters, not only at spaces (patches Rich: see cjk.py)
    return DrillApp(mode, options)
