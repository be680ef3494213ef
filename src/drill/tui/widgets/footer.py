"""A footer whose help and quit keys never scroll out of sight.

Textual's Footer lists a screen's keys left to right and cuts off what doesn't fit: at 80 columns the study
screen lost Help and Quit. Here the keys whose actions are in ``PINNED`` (and the command palette's key) sit
in one group docked on the right, so they show at any width from 60 columns; the others fill what is left,
and a key that would be cut by the pinned group is hidden whole rather than shown in part.
The keys themselves are Textual's FooterKeys (clickable, from the screen's bindings and `check_action`).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PINNED = ("help", "quit")


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
        for widget in super().compose():
            if isinstance(widget, FooterKey) and (
                widget.action in PINNED or widget.has_class("-command-palette")
            ):
                pinned.append(widget)
            else:
                yield widget
        if pinned:
            with HorizontalGroup(id="pinned"):
                yield from pinned
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Hide (without a new layout) the left-hand keys that don't end before the pinned group begins."""
        groups = self.query("#pinned")
        limit = groups.first().region.x if groups else self.region.right
        for key in self.query(FooterKey):
            if key.parent is self:
                key.visible = key.region.right <= limit
