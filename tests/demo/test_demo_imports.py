"""What `drill demo` imports: the list of demos needs neither the demos' code, numpy nor the plotting library;
a demo without a plot never imports textual-plot; a plot demo does. Each case runs in a new interpreter (this
one has imported everything)."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import asyncio, sys
from drill.tui.app import make_app
from drill.tui.screens.demo import DemoListScreen, DemoScreen

async def main(name):
    app = make_app("demo", demo=name or None)
    wanted = DemoScreen if name else DemoListScreen
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(500):
            if isinstance(app.screen, wanted):
                break
            await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, wanted), app.screen
    heavy = ("textual_plot", "textual_hires_canvas", "numpy")
    print(",".join(m for m in heavy if m in sys.modules) or "-")

asyncio.run(main(sys.argv[1]))
"""


@pytest.mark.parametrize(
    ("name", "loaded"),
    [
        ("", "-"),
        ("mha", "numpy"),
        ("causal-mask", "numpy"),
        ("softmax", "textual_plot,textual_hires_canvas,numpy"),
    ],
)
def test_what_opening_imports(name, loaded):
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, name], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == loaded


def test_every_name_is_its_class():
    from drill.content.demos import load_demos
    from drill.tui.demos import DEMO_CLASSES

    assert {info.name for info in load_demos()} == set(DEMO_CLASSES)
    for name, cls in DEMO_CLASSES.items():
        assert cls.name == name
