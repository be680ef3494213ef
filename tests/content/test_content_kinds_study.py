"""Pilot: one card of each new kind (table cloze, formula ↔ code, hand calculation) through the study screen —
the front asks it, the reveal answers it in the chapter's words (a hand calculation: the typed value checked by
the engine, the step shown), the grade is on disk (FSRS). Code cards: tests/code/test_code_study.py."""

from __future__ import annotations

import numpy as np
import pytest

from drill.content import load_content
from drill.store import open_store
from drill.tui.app import make_app
from drill.tui.screens.calc_card import CalcCardScreen
from drill.tui.screens.study import StudyScreen
from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import card_shown, frozen_clock, frozen_timer, library_of, wait_until


@pytest.fixture(scope="module")
def library():
    return load_content()


CASES = [
    # card, what the front shows, what the front must not show (the answer), what the reveal shows
    ("t7.1-1.r1", ["［？］", "CNN", "O(S/k)（要叠很多层）"], "❌ 串行", ["O(S)（要一步步传）", "❌ 串行"]),
    ("f7.13-scores.to-code", ["PyTorch", "QKᵀ"], "transpose", ["Q @ K.transpose(-2, -1)", "转置最后两维"]),
    ("f7.13-mask.to-formula", ["masked_fill(mask", "why"], "causal/padding", ["causal/padding mask", "softmax 之前"]),
]  # fmt: skip


def _app(library, store, card_id):
    return make_app(
        "study",
        library=library_of([library.cards[card_id]], library),
        store=store,
        clock=frozen_clock,
        timer=frozen_timer,
    )


@pytest.mark.parametrize(("card_id", "front", "hidden", "answer"), CASES)
async def test_a_new_kind_is_asked_revealed_and_graded(tmp_path, library, card_id, front, hidden, answer):
    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}", "tester")
    app = _app(library, store, card_id)
    try:
        async with app.run_test(size=(140, 45)) as pilot:
            await card_shown(pilot)
            view = app.screen.query_one(CardView)
            assert view.card is not None and view.card.id == card_id
            shown = str(app.screen.query_one("#question").render())
            for text in front:
                assert text in shown, (card_id, text, shown)
            assert hidden not in shown
            await pilot.press("space")
            await wait_until(pilot, lambda: view.revealed and app.screen.query_one("#answer").display)
            source = app.screen.query_one("#answer-md").source
            for text in answer:
                assert text in source, (card_id, text, source)
            await pilot.press("3")
            await wait_until(pilot, lambda: app.mode_screen.session.stats.reviewed == 1)
            await wait_until(pilot, lambda: app.mode_screen.saving is None)
        info = store.card_info(card_id)
        assert info.reps == 1 and [h.rating for h in info.history] == [3]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("typed", "right", "grade"),
    [
        ("0.503", True, 3),
        ("0.504", False, 1),
        ("", None, 1),
    ],  # 0.504: the chapter's value; the engine's is 0.503
)
async def test_a_hand_calculation_is_typed_checked_by_the_engine_and_graded(
    tmp_path, library, typed, right, grade
):
    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}", "tester")
    app = _app(library, store, "c7.12-a23")
    try:
        async with app.run_test(size=(140, 45)) as pilot:
            await card_shown(pilot)
            front = str(app.screen.query_one("#question").render())
            assert "A₂₃" in front and "3" in front and "0.707" in front and "0.504" not in front
            await pilot.press("space")
            await wait_until(pilot, lambda: isinstance(app.screen, CalcCardScreen))
            screen = app.screen
            for key in typed:
                await pilot.press("full_stop" if key == "." else key)
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.proposed is not None)
            assert screen.right is right and screen.proposed == grade
            # the engine's value, recomputed here in plain numpy from the chapter's scaled scores
            row = np.array([1, 1, 2]) / np.sqrt(2)
            want = np.exp(row)[2] / np.exp(row).sum()
            assert abs(screen.value - want) < 1e-12
            shown = str(screen.query_one("#calc-card-result").render())
            assert f"A₂₃ = {want:.3f}" in shown and "0.504" in shown  # the erratum beside it
            assert ("✓" in shown) is (right is True) and ("✗" in shown) is (right is False)
            await pilot.press("enter")  # confirm
            await wait_until(pilot, lambda: isinstance(app.screen, StudyScreen) or app.screen is not screen)
            await wait_until(pilot, lambda: app.mode_screen.session.stats.reviewed == 1)
            await wait_until(pilot, lambda: app.mode_screen.saving is None)
        info = store.card_info("c7.12-a23")
        assert info.reps == 1 and [h.rating for h in info.history] == [grade]
    finally:
        store.close()


async def test_escape_leaves_a_hand_calculation_ungraded(tmp_path, library):
    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}", "tester")
    app = _app(library, store, "c7.12-s23")
    try:
        async with app.run_test(size=(140, 45)) as pilot:
            await card_shown(pilot)
            await pilot.press("space")
            await wait_until(pilot, lambda: isinstance(app.screen, CalcCardScreen))
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, StudyScreen))
        assert store.card_info("c7.12-s23").reps == 0
    finally:
        store.close()
