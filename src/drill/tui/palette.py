"""Command palette provider: offers the active screen's actions (the same ones its keys run).

A screen takes part by defining ``PALETTE_GROUP``; its rows come from its ``BINDINGS`` (`drill.tui.keys`), and
the action string is run on the screen, exactly as its key binding would run it.
"""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen

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
