"""The rubric after a typed answer: the judge's ticks pre-set, their evidence shown in the learner's answer, the
model answer beside it, a tick changed by the learner (the proposal follows), a misconception shown with its
correction; spoken answers keep the self-check with the model answer."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import Static, TextArea

from drill.tui.models.interview import AGAIN, propose_grade
from drill.tui.screens.interview_rubric import POINT_STYLE, TRAP_STYLE
from drill.tui.widgets.checklist import Checklist
from drill.tui.widgets.rubric_views import RubricCorrections
from tests.helpers import plain
from tests.interview.pilot import interview_app, phase
from tests.tui.conftest import wait_until

ANSWER = "q·k 是 d_k 个独立项的和，方差是 d_k，标准差 √dₖ。除以 √dₖ 把方差归一到 1。其实缩放是为了计算更快。"


async def _answered(pilot, text: str):
    await phase(pilot, "asking")
    screen = pilot.app.mode_screen
    screen.query_one("#iv-answer", TextArea).load_text(text)
    await pilot.press("ctrl+d")
    await phase(pilot, "rubric")
    return screen


async def test_the_judge_ticks_shows_evidence_and_the_learner_changes_a_tick(library, store):
    app = interview_app(library, store, questions=1, section="7.9", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await phase(pilot, "asking")
        card = app.mode_screen.asked.card
        assert card.id in ("q07", "q24")
        screen = await _answered(pilot, ANSWER)
        rubric = screen.rubric
        points = screen.query_one("#iv-points", Checklist)
        # pre-ticked: the variance point and the √d_k point, nothing else
        expected = {0, 2}  # q07 and q24 alike: point 1 (variance d_k) and point 3 (÷√d_k, variance 1)
        assert rubric.judged and rubric.covered == expected and points.selected == expected
        # the evidence: spans of the learner's own text, styled in the answer shown
        given = screen.query_one("#iv-given", Static).content
        styled = {given.plain[s.start : s.end] for s in given.spans if str(s.style) == POINT_STYLE}
        assert "√dₖ" in styled and "方差" in styled
        # the model answer: the bank's first, then the section's
        model = plain(screen.query_one("#iv-model", Static))
        assert "Model answer (bank):" in model and "Model answer (section):" in model
        assert model.index("(bank)") < model.index("(section)")
        # the misconception stated, with its correction (the chapter's bullet)
        traps = screen.query_one("#iv-traps", Checklist)
        speed = rubric.trap_ids.index("scaling-for-speed")
        assert traps.selected == {speed}
        trap_spans = {given.plain[s.start : s.end] for s in given.spans if str(s.style) == TRAP_STYLE}
        assert any("更快" in t for t in trap_spans)
        corrections = plain(screen.query_one("#iv-corrections", RubricCorrections))
        assert "Scaling is there to make the computation faster" in corrections
        assert "Correction:" in corrections and "数值稳定和梯度健康" in corrections
        before = screen.proposed
        assert before == propose_grade(2 / len(card.points), 1, screen.settings.thresholds)
        # the learner ticks a point the judge left (↓ moves within the list, space ticks)
        await pilot.press("down", "space")
        await wait_until(pilot, lambda: rubric.covered == expected | {1})
        assert screen.proposed == propose_grade(3 / len(card.points), 1, screen.settings.thresholds)
        # and unticks the misconception (tab goes to the other list)
        await pilot.press("tab")
        await wait_until(pilot, lambda: traps.has_focus)
        for _ in range(speed):
            await pilot.press("down")
        await pilot.press("space")
        await wait_until(pilot, lambda: rubric.hit == set())
        assert screen.proposed == propose_grade(3 / len(card.points), 0, screen.settings.thresholds)
        assert not screen.query_one("#iv-corrections", RubricCorrections).display
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(screen.answers) == 1)
    (interview,) = store.interview_history()
    (row,) = interview.answers
    assert row.points_covered == tuple(sorted(expected | {1})) and row.traps_hit == ()


async def test_an_unrelated_answer_ticks_nothing(library, store):
    app = interview_app(library, store, questions=1, section="7.9", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _answered(pilot, "我不太记得了，好像和 GPU 有关。")
        assert screen.rubric.covered == set() and screen.rubric.hit == set()
        assert screen.proposed == AGAIN


async def test_aloud_keeps_the_self_check_with_the_model_answer(library, store):
    app = interview_app(library, store, questions=1, section="7.9", seed=1, aloud=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await phase(pilot, "asking")
        screen = app.mode_screen
        await pilot.press("space")
        await phase(pilot, "rubric")
        assert not screen.rubric.judged and screen.rubric.covered == set()
        assert "Model answer (bank):" in plain(screen.query_one("#iv-model", Static))
        assert "tick the ones your answer covered" in plain(screen.query_one("#iv-points-head", Static))
        await pilot.press("space", "down", "space")
        await wait_until(pilot, lambda: screen.rubric.covered == {0, 1})
        assert screen.proposed == propose_grade(2 / len(screen.rubric.points), 0, screen.settings.thresholds)


async def test_a_point_restating_a_corrected_claim_carries_drills_correction(library, store):
    # The shipped points no longer restate corrected claims (the judge must not reward them; issue 25): a pack
    # whose q25 point still quotes the chapter's "PyTorch attn_mask 是 True=遮住" shows drill's correction beside it.
    q25 = library.cards["q25"]
    restated = "注意框架约定：HuggingFace 是 1=保留，PyTorch attn_mask 是 True=遮住"
    assert restated.startswith(q25.points[1]) and restated in (q25.bank_answer or "")
    card = replace(q25, points=(q25.points[0], restated, *q25.points[2:]))
    library = replace(library, cards={**library.cards, "q25": card})
    app = interview_app(library, store, questions=1, section="7.16", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _answered(pilot, "PyTorch 的 attn_mask 是 True=遮住，HuggingFace 是 1=保留。")
        assert screen.asked.card.id == "q25"
        items = [item.plain for item in screen.query_one("#iv-points", Checklist).items]
        assert "drill's correction:" in items[1] and "F.scaled_dot_product_attention" in items[1]
        assert not any("drill's correction:" in item for i, item in enumerate(items) if i != 1)
