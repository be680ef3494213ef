"""Snapshots of a generated hand calculation on the quiz screen (pytest-textual-snapshot), in English and in
Chinese at 80×24: the meta line names the kind of work and the countdown starts from that kind's limit (the
default, 300 s). Regenerate with ``pytest tests/quiz/test_snapshots.py --snapshot-update`` and look at the SVGs."""

from __future__ import annotations

import pytest

import drill.i18n
from drill.tui.app import make_app
from tests.tui.conftest import frozen_clock, frozen_timer, library_of
from tests.tui.test_snapshots_quiz_calc import _question


@pytest.fixture(params=["en", "zh"])
def language(request):
    drill.i18n.set_language(request.param)
    yield request.param
    drill.i18n.set_language("en")


def test_a_hand_calculation_with_its_kind_and_limit(snap_compare, library, store, language):
    app = make_app(
        "quiz",
        library=library_of([], library),
        store=store,
        clock=frozen_clock,
        timer=frozen_timer,
        section="7.6",  # the raw score S[i,j] from X, W_Q, W_K
        generated=1,
        seed=4,
        seconds=30,
    )

    async def run_before(pilot) -> None:
        await _question(pilot)
        assert pilot.app.mode_screen.item.work == "hand"

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
