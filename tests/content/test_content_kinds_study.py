"""Pilot: one card of each new kind (table cloze, formula ↔ code, hand calculation) through the study screen —
the front asks it, the reveal answers it in the chapter's words, the grade is on disk (FSRS)."""

from __future__ import annotations

import pytest

from drill.content import load_content
from drill.store import open_store
from drill.tui.app import make_app
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
    ("c7.12-a23", ["A₂₃", "3 decimals", "0.707"], "0.504", ["0.504", "0.50349"]),
]  # fmt: skip


@pytest.mark.parametrize(("card_id", "front", "hidden", "answer"), CASES)
async def test_a_new_kind_is_asked_revealed_and_graded(tmp_path, library, card_id, front, hidden, answer):
    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}", "tester")
    app = make_app(
        "study",
        library=library_of([library.cards[card_id]], library),
        store=store,
        clock=frozen_clock,
        timer=frozen_timer,
        exit_after=None,
    )
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
