"""Grade -> next card on screen, against a bare Textual key -> label update round trip (goal <= 2x).

Both are driven by Textual's pilot in this process and timed the same way: press the key, wait until the
app holds the change (the label's new text / the study screen's next card), then until the screen has been
refreshed with it (a ``call_after_refresh`` callback fires). drill's round trip is the real one: the grade is committed
to a SQLite file (WAL, synchronous=FULL) before the next card is chosen and painted. Batches of each
alternate; the medians are compared.

    python benchmarks/grade_roundtrip.py [--grades 60]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from textual.app import App
from textual.widgets import Label

BATCH = 10


async def painted(screen) -> None:
    """Return once ``screen`` has been refreshed (the change is on the terminal)."""
    done = asyncio.Event()
    screen.call_after_refresh(done.set)
    await done.wait()


class Bare(App):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def compose(self):
        yield Label("0", id="label")

    def on_key(self, event) -> None:
        if event.key == "x":
            self.count += 1
            self.query_one(Label).update(str(self.count))


async def bare_batch(samples: list[float]) -> None:
    app = Bare()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(BATCH):
            expected = app.count + 1
            start = time.perf_counter()
            await pilot.press("x")
            while app.count != expected:
                await pilot.pause()
            await painted(app.screen)
            samples.append(time.perf_counter() - start)


class AdvancingClock:
    """Real study days pass between grades, so reviewed cards come due again and the daily limits reset."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def drill_batch(samples: list[float], db_url: str, library, clock: AdvancingClock) -> None:
    from drill.store import open_store
    from drill.tui.app import make_app
    from drill.tui.widgets.card_view import CardView

    store = open_store(db_url, "bench")
    app = make_app("study", library=library, store=store, clock=clock, exit_after=None)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            while getattr(app.mode_screen, "card", None) is None:
                await pilot.pause()
            await app.workers.wait_for_complete()
            screen = app.mode_screen
            for _ in range(BATCH):
                await pilot.press("space")
                while not screen.query_one(CardView).revealed:
                    await pilot.pause()
                await app.workers.wait_for_complete()
                await pilot.pause()
                before = screen.card
                clock.now += timedelta(days=3)
                start = time.perf_counter()
                await pilot.press("3")
                while screen.card is before:
                    await pilot.pause()
                await painted(screen)
                samples.append(time.perf_counter() - start)
                if screen.card is None:
                    raise SystemExit("ran out of cards; use fewer --grades")
    finally:
        store.close()


async def main(grades: int) -> None:
    from drill.content import load_content

    library = load_content()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("DRILL_DATA_DIR", str(Path(tmp) / "data"))
        os.environ.setdefault("DRILL_CONFIG_DIR", str(Path(tmp) / "config"))
        db_url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        clock = AdvancingClock()
        bare: list[float] = []
        drill: list[float] = []
        await bare_batch([])  # warm-up: imports and first-use caches
        for _ in range(max(1, grades // BATCH)):
            await bare_batch(bare)
            await drill_batch(drill, db_url, library, clock)
    bare_ms, drill_ms = statistics.median(bare) * 1000, statistics.median(drill) * 1000
    print(f"median of {len(bare)} bare key->label and {len(drill)} drill grade->next card round trips:")
    print(f"  bare Textual key -> label update   {bare_ms:7.2f} ms")
    print(f"  drill grade -> next card on screen {drill_ms:7.2f} ms")
    ratio = drill_ms / bare_ms
    print(f"ratio: {ratio:.2f}x   (goal <= 2x: {'ok' if ratio <= 2 else 'OVER GOAL'})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grades", type=int, default=60, help="round trips of each kind (batches of 10)")
    asyncio.run(main(parser.parse_args().grades))
