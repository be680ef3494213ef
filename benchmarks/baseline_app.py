"""The benchmarks' baseline: a plain Textual app that shows the same text as drill and reacts to the same keys.

    python benchmarks/baseline_app.py FRAMES.json

FRAMES.json (written by `write_frames`, from what drill itself drew on the same terminal) holds ``first``, the
text of drill's first screen, and ``steps``, a list of ``[key, text]``: the next key of the list, when it is
pressed (a character or a Textual key name such as "right"), shows its text (the list starts over at its end; ``q`` and ctrl+q quit). The text is shown as it is
(a `Static` holding a `Text`: no markup, no styles), one widget for the screen, the way a plain Textual app
would show it. The terminal reader (ptyrun) times it exactly as it times drill: first bytes of the awaited text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

QUIT = {"q", "ctrl+q"}


def write_frames(path: Path, first: str, steps: list[tuple[str, str]]) -> Path:
    path.write_text(json.dumps({"first": first, "steps": steps}, ensure_ascii=False), encoding="utf-8")
    return path


def main() -> None:
    from rich.text import Text
    from textual import events
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    frames = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    steps: list[tuple[str, str]] = [tuple(step) for step in frames["steps"]]

    class Baseline(App[None]):
        CSS = "Screen { overflow: hidden; } Static { width: 100%; }"

        def __init__(self) -> None:
            super().__init__()
            self.at = 0

        def compose(self) -> ComposeResult:
            yield Static(Text(frames["first"]), id="screen")

        def on_key(self, event: events.Key) -> None:
            if event.key in QUIT:
                self.exit()
                return
            if not steps:
                return
            key, text = steps[self.at]
            if key in (event.key, event.character):
                self.at = (self.at + 1) % len(steps)
                self.query_one("#screen", Static).update(Text(text))

    Baseline().run()


if __name__ == "__main__":
    main()
