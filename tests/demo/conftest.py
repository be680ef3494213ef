"""Helpers for the demo tests: build the demo app, open a demo, read what a widget shows as plain text."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from rich.console import Console

from drill.tui.app import make_app
from tests.notified import _notifications_kept  # noqa: F401 - fixture: every notification kept


async def wait_until(pilot, condition: Callable[[], bool], *, tries: int = 500) -> None:
    for _ in range(tries):
        if condition():
            return
        await pilot.pause()
    raise AssertionError(f"condition never became true: {condition}")


def rendered_text(renderable, width: int = 200) -> str:
    """A Rich renderable (a table, a heatmap's table, Text) as plain text; tests/helpers.plain reads a Static."""
    console = Console(width=width, no_color=True, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def shown(screen) -> str:
    """The text of the demo's controls and view, as the screen holds them now (a heatmap widget read back
    through the table it draws)."""
    from textual.widgets import Static

    from drill.tui.widgets.heatmap import Heatmap

    parts = [rendered_text(screen.query_one("#demo-controls", Static).content)]
    for widget in screen.parts():
        parts.append(rendered_text(widget.renderable() if isinstance(widget, Heatmap) else widget.part))
    return "".join(parts)


@pytest.fixture
def demo_app():
    def build(name: str | None = None, **options):
        return make_app("demo", demo=name, **options)

    return build


async def opened(pilot, name: str):
    """Wait for the demo ``name`` to be the screen on top; return that screen."""
    from drill.tui.screens.demo import DemoScreen

    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, DemoScreen) and app.screen.info.name == name)
    await pilot.pause()
    return app.screen
