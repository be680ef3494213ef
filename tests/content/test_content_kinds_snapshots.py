"""Snapshots (pytest-textual-snapshot) of the new kinds' layout: a table cloze card's front at 80×24 and 120×40
(a Chinese table laid out in columns, CJK counted double), and the hand-calculation answer screen after a typed
answer (the step with the element highlighted, the erratum). Clock, timer and database are fixed.

Regenerate with ``pytest tests/content/test_content_kinds_snapshots.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

import pytest

from drill.content import load_content
from drill.store import open_store
from drill.tui.app import make_app
from drill.tui.screens.calc_card import CalcCardScreen
from tests.tui.conftest import frozen_clock, frozen_timer, library_of, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def library():
    return load_content()


@pytest.fixture
def app_of(library, tmp_path):
    stores = []

    def build(card_id: str):
        store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}", "tester")
        stores.append(store)
        return make_app(
            "study",
            library=library_of([library.cards[card_id]], library),
            store=store,
            clock=frozen_clock,
            timer=frozen_timer,
        )

    yield build
    for store in stores:
        store.close()


async def _card_on_screen(pilot) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: getattr(app.mode_screen, "session", None) is not None)
    await app.workers.wait_for_complete()
    await wait_until(pilot, lambda: bool(app.mode_screen.query("StudyFooter")))
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_cloze_front(snap_compare, app_of, size):
    assert snap_compare(app_of("t7.1-1.r1"), terminal_size=size, run_before=_card_on_screen)


def test_calc_answer_screen(snap_compare, app_of):
    async def run_before(pilot) -> None:
        await _card_on_screen(pilot)
        await pilot.press("space")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, CalcCardScreen))
        await pilot.press("0", "full_stop", "5", "0", "4", "enter")
        await wait_until(pilot, lambda: pilot.app.screen.proposed is not None)
        await pilot.pause()

    assert snap_compare(app_of("c7.12-a23"), terminal_size=(120, 40), run_before=run_before)
