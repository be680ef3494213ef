"""A footer whose help and quit keys never scroll out of sight.

Textual's Footer lists a screen's keys left to right and cuts off what doesn't fit: at 80 columns the study
screen lost Help and Quit. Here the keys whose actions are in ``PINNED`` (and the command palette's key) sit
in one group docked on the right, so they show at any width from 60 columns; the other keys follow in their
order as long as they fit whole before that group (a key that doesn't is left out, not drawn in part). Which
keys fit is worked out from their text when the footer is composed (again on a resize), so the first paint
is already the final one. The keys themselves are Textual's FooterKeys (clickable, from the screen's
bindings and `check_action`).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PINNED = ("help", "quit")


def key_width(key: FooterKey) -> int:
    """Columns a (non-compact) FooterKey takes: " key " then "description " (textual's FooterKey CSS; the
    command palette's key adds its left border and right padding). textual is pinned exactly."""
    width = cell_len(key.key_display)
    if key.description:
        width += 2 + cell_len(key.description) + 1
    if key.has_class("-command-palette"):
        width += 2
    return width


class StudyFooter(Footer):
    DEFAULT_CSS = """
    StudyFooter #pinned {
        dock: right;
        width: auto;
        height: 1;
        background: $footer-background;
    }
    StudyFooter #pinned FooterKey.-command-palette {
        dock: none;
    }
    """

    def compose(self) -> ComposeResult:
        pinned: list[FooterKey] = []
        others: list = []
        for widget in super().compose():
            if isinstance(widget, FooterKey) and (
                widget.action in PINNED or widget.has_class("-command-palette")
            ):
                pinned.append(widget)
            else:
                others.append(widget)
        room = self.app.size.width - sum(key_width(key) for key in pinned)
        for widget in others:
            if isinstance(widget, FooterKey):
                room -= key_width(widget)
                if room < 0:
                    break
            yield widget
        if pinned:
            with HorizontalGroup(id="pinned"):
                yield from pinned

    def on_resize(self) -> None:
        self.call_after_refresh(self.recompose)
