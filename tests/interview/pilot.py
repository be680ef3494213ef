"""Driving `drill interview` in tests: a timer the test moves, the app built on the real store, waits on
conditions (never sleeps)."""

from __future__ import annotations

from drill.tui.app import DrillApp, make_app
from tests.tui.conftest import frozen_clock, wait_until


class ManualTimer:
    """A monotonic clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def interview_app(library, store, timer=None, **overrides) -> DrillApp:
    options = dict(
        library=library,
        store=store,
        clock=frozen_clock,
        timer=timer or ManualTimer(),
        seed=3,
        questions=2,
        minutes=1,
        follow_up=0.0,
    )
    options.update(overrides)
    return make_app("interview", **options)


async def phase(pilot, name: str) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: app.error is not None or getattr(app.mode_screen, "phase", None) == name)
    assert app.error is None, app.error
    await pilot.pause()
