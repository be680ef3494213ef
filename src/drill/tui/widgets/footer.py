"""The study screen's footer: the keys that do something now, with ? (help), q (quit) and ctrl+p (palette)
pinned on the right at any width from 60 columns.

Textual's Footer lists a screen's keys left to right and cuts off what doesn't fit (at 80 columns the study
screen lost Help and Quit), and rebuilds its widgets each time the bindings change — on every reveal and
grade here, since the footer shows the reveal key before the answer and the four grades after it. This
footer is one line of Rich Text made from the screen's active bindings (the same ones, with `check_action`
hiding what can't be done now and dimming what is not ready yet): the other keys follow in order as long as
they fit whole before the pinned group, and a change is one text update. A screen's ``FOOTER_GIVES_WAY``
(actions) names the keys that leave first when not all fit, so a later, more needed one stays (calc's
``l Examples`` at 80 columns). A click on a key presses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widgets import Static

from drill.i18n import N_, _

PINNED = ("help", "quit")
# The command palette's key, described in drill's words (Textual's own binding says "palette", in English).
PALETTE = N_("palette")


@dataclass(frozen=True)
class ShownKey:
    key: str  # what a click presses
    display: str  # as shown ("space", "?", "^p")
    description: str
    action: str
    enabled: bool
    start: int = 0  # columns it covers on the line
    end: int = 0


class StudyFooter(Static):
    DEFAULT_CSS = """
    StudyFooter {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-description-foreground;
    }
    """
    COMPONENT_CLASSES = {"study-footer--key"}
    DEFAULT_CLASSES = ""

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.shown: list[ShownKey] = []

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.refresh_keys()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen) -> None:
        self.refresh_keys()

    def on_resize(self) -> None:
        self.refresh_keys()

    def keys(self) -> tuple[list[ShownKey], list[ShownKey]]:
        """(the screen's keys in binding order, the pinned ones), one per action, shown ones only."""
        app = self.app
        seen: set[str] = set()
        left: list[ShownKey] = []
        pinned: list[ShownKey] = []
        palette: ShownKey | None = None
        for key, (_node, binding, enabled, _tooltip) in self.screen.active_bindings.items():
            if binding.action in seen:
                continue
            if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
                palette = ShownKey(key, app.get_key_display(binding), _(PALETTE), binding.action, True)
                continue
            if not binding.show:
                continue
            seen.add(binding.action)
            shown = ShownKey(key, app.get_key_display(binding), binding.description, binding.action, enabled)
            (pinned if binding.action in PINNED else left).append(shown)
        if palette is not None:
            pinned.append(palette)
        return left, pinned

    def refresh_keys(self) -> None:
        if not self.is_mounted:
            return
        left, pinned = self.keys()
        width = self.size.width or self.app.size.width
        key_style = self.get_component_rich_style("study-footer--key")
        pinned_width = sum(_width(k) for k in pinned)
        text = Text(no_wrap=True, overflow="crop")
        shown: list[ShownKey] = []
        column = 0
        for action in getattr(self.screen, "FOOTER_GIVES_WAY", ()):  # the screen's least needed keys first
            if sum(_width(k) for k in left) <= width - pinned_width:
                break
            left = [k for k in left if k.action != action]
        for item in left:
            if column + _width(item) > width - pinned_width:
                break
            shown.append(_append(text, item, column, key_style))
            column += _width(item)
        text.append(" " * max(0, width - pinned_width - column))
        column = max(column, width - pinned_width)
        for item in pinned:
            shown.append(_append(text, item, column, key_style))
            column += _width(item)
        self.shown = shown
        self.update(text, layout=False)

    def on_click(self, event: events.Click) -> None:
        for item in self.shown:
            if item.start <= event.x < item.end and item.enabled:
                self.app.simulate_key(item.key)
                return


def _width(item: ShownKey) -> int:
    return cell_len(item.display) + 2 + cell_len(item.description) + 1


def _append(text: Text, item: ShownKey, column: int, key_style) -> ShownKey:
    dim = "" if item.enabled else " dim"
    text.append(f" {item.display} ", style=f"bold{dim}")
    text.stylize(key_style, len(text) - len(item.display) - 2, len(text))
    text.append(f"{item.description} ", style=dim.strip() or None)
    return ShownKey(
        item.key, item.display, item.description, item.action, item.enabled, column, column + _width(item)
    )
