"""Every notification an app posts, kept for the test that waits for it.

Textual drops a notification once its timeout has passed (drill's are 2-6 s), so a test that read the app's
live notifications could miss one on a loaded machine: the toast came and went between two of the test's
looks (seen in CI: the code screen's 4 s "at most Hard" under a load of 14). ``notified(app)`` is what the app
was told to show, in order, whatever has expired since; ``clear_notifications`` clears it too, as it clears
the screen. The conftests of the folders whose tests read notifications import the fixture.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _notifications_kept(monkeypatch):
    from textual.app import App

    notify, clear = App.notify, App.clear_notifications

    def kept_notify(self, message, *args, **kwargs):
        self.__dict__.setdefault("_drill_notified", []).append(str(message))
        return notify(self, message, *args, **kwargs)

    def kept_clear(self):
        self.__dict__["_drill_notified"] = []
        return clear(self)

    monkeypatch.setattr(App, "notify", kept_notify)
    monkeypatch.setattr(App, "clear_notifications", kept_clear)


def notified(app) -> list[str]:
    """The messages ``app`` was told to show since it started (or since its notifications were cleared)."""
    return list(app.__dict__.get("_drill_notified", ()))
