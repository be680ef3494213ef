"""Pilot: a bank card is asked in the bank's (7.24) words; the reveal answers that, then the section's question."""

from __future__ import annotations

from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import card_shown, library_of, wait_until


def _text(widget) -> str:
    return str(widget.render())


async def test_a_bank_card_shows_the_banks_wording_first_and_the_sections_on_reveal(study_app, library):
    q03 = library.cards["q03"]
    app = study_app(library=library_of([q03], library))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        view = app.screen.query_one(CardView)
        assert view.card is not None and view.card.id == "q03"
        front = _text(app.screen.query_one("#question"))
        assert "为什么需要三套不同的投影矩阵？" in front
        assert "独立的 Q/K 投影" not in front
        await pilot.press("space")
        await wait_until(pilot, lambda: view.revealed and app.screen.query_one("#answer").display)
        source = app.screen.query_one("#answer-md").source
        bank_answer_at = source.index("三套投影让模型分别学习")
        section_question_at = source.index("为什么标准 Transformer 使用独立的 Q/K 投影？")
        section_answer_at = source.index("可以共享 Q/K 投影")
        assert bank_answer_at < section_question_at < section_answer_at


async def test_q08_shows_the_fp16_erratum_beside_the_chapters_pitfall(study_app, library):
    q08 = library.cards["q08"]
    app = study_app(library=library_of([q08], library))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        view = app.screen.query_one(CardView)
        await pilot.press("space")
        await wait_until(pilot, lambda: view.revealed and app.screen.query_one("#answer").display)
        source = app.screen.query_one("#answer-md").source
        pitfall_at = source.index("FP16 下")
        erratum_at = source.index("e^11.09")  # the note in the UI language (English here)
        assert pitfall_at < erratum_at
