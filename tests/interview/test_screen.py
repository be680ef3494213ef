"""`drill interview` driven by the pilot: ask, type, time out, rubric, grade, scorecard — and what is on disk."""

from __future__ import annotations

from textual.widgets import Static, TextArea

from drill.tui.models.interview import AGAIN, EASY, GOOD, HARD, propose_grade
from drill.tui.widgets.checklist import Checklist
from drill.tui.widgets.countdown import Countdown
from drill.tui.widgets.rubric_views import RubricProposal
from tests.helpers import plain
from tests.interview.pilot import ManualTimer, interview_app, phase
from tests.tui.conftest import NOW, wait_until


async def test_a_whole_interview_ask_type_rubric_grade_time_out_scorecard(library, store):
    timer = ManualTimer()
    app = interview_app(library, store, timer)
    async with app.run_test(size=(120, 40)) as pilot:
        await phase(pilot, "asking")
        screen = app.mode_screen
        first = screen.asked.card
        assert first.bank is not None and first.points
        assert plain(screen.query_one("#iv-question", Static)).strip().startswith(first.front[:8])
        editor = screen.query_one("#iv-answer", TextArea)
        assert editor.has_focus
        for key in ("a", "space", "b"):  # space types a space in the editor: it does not end the answer
            await pilot.press(key)
        assert screen.phase == "asking" and editor.text == "a b"
        timer.now = 42.5
        await pilot.press("ctrl+d")
        await phase(pilot, "rubric")
        assert screen.answer_text == "a b" and screen.duration_ms == 42_500 and not screen.timed_out
        points = screen.query_one("#iv-points", Checklist)
        assert points.has_focus and len(points.items) == len(first.points)
        assert screen.proposed == AGAIN
        await pilot.press("space")  # tick the first point
        await wait_until(pilot, lambda: screen.rubric.covered == {0})
        expected = propose_grade(1 / len(first.points), 0, screen.settings.thresholds)
        assert screen.proposed == expected
        assert f"proposed grade {('Again', 'Hard', 'Good', 'Easy')[expected - 1]}" in plain(
            screen.query_one("#iv-proposal", RubricProposal)
        )
        await pilot.press("enter")  # confirm the proposal: FSRS schedules the card
        await wait_until(pilot, lambda: len(screen.answers) == 1)
        info = store.card_info(first.id, NOW)
        assert info.reps == 1 and info.history[-1].rating == expected

        # The second question: nothing typed, the clock runs out.
        await phase(pilot, "asking")
        second = screen.asked.card
        assert second.id != first.id
        timer.now += 61
        screen.query_one(Countdown).check()
        await phase(pilot, "rubric")
        assert screen.timed_out and screen.duration_ms == 60_000 and screen.answer_text == ""
        for i in range(len(second.points)):  # every point covered ...
            screen.query_one("#iv-points", Checklist).select(i)
        await wait_until(pilot, lambda: screen.proposed == EASY)
        await pilot.press("2")  # ... but the learner grades Hard
        await wait_until(pilot, lambda: screen.chosen == HARD)
        await pilot.press("enter")
        await phase(pilot, "done")
        card = plain(screen.query_one("#iv-scorecard", Static))
        assert "Scorecard" in card and "1:00+" in card and "0:42" in card and "Hard" in card
        assert "Points missed most often (the model answer's words):" in card

    history = store.interview_history()
    assert len(history) == 1 and history[0].finished_at == NOW
    rows = history[0].answers
    assert [a.card_id for a in rows] == [first.id, second.id]
    assert rows[0].answer == "a b" and rows[0].mode == "typed" and rows[0].points_covered == (0,)
    assert rows[0].points_missed == tuple(first.points[1:]) and rows[0].rating == expected
    assert (
        rows[1].timed_out and rows[1].coverage == 1.0 and rows[1].proposed == EASY and rows[1].rating == HARD
    )
    assert store.card_info(second.id, NOW).history[-1].rating == HARD
    assert app.interview_answers == list(rows)


async def test_aloud_space_ends_the_answer_and_nothing_is_typed(library, store):
    timer = ManualTimer()
    app = interview_app(library, store, timer, aloud=True, questions=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await phase(pilot, "asking")
        screen = app.mode_screen
        assert not screen.query_one("#iv-answer", TextArea).display
        timer.now = 12
        await pilot.press("space")
        await phase(pilot, "rubric")
        assert screen.answer_text is None and screen.duration_ms == 12_000
        await pilot.press("enter")
        await phase(pilot, "done")
    (row,) = store.interview_history()[0].answers
    assert row.mode == "aloud" and row.answer is None and row.rating == AGAIN


async def test_ctrl_t_switches_between_typing_and_aloud(library, store):
    app = interview_app(library, store, questions=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await phase(pilot, "asking")
        screen = app.mode_screen
        editor = screen.query_one("#iv-answer", TextArea)
        assert editor.display
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: not editor.display)
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: editor.display and editor.has_focus)


async def test_a_trap_lowers_the_proposal_and_a_quit_keeps_the_graded_question(library, store):
    app = interview_app(library, store, questions=3, section="7.9")
    async with app.run_test(size=(120, 40)) as pilot:
        await phase(pilot, "asking")
        screen = app.mode_screen
        card = screen.asked.card
        assert card.section == "7.9"
        await pilot.press("ctrl+d")
        await phase(pilot, "rubric")
        for i in range(len(card.points)):
            screen.query_one("#iv-points", Checklist).select(i)
        traps = screen.rubric.trap_ids  # the misconceptions this card's rubric lists (7.9: divide-by-dk, ...)
        assert traps
        if traps:
            screen.query_one("#iv-traps", Checklist).select(0)
            await wait_until(pilot, lambda: screen.rubric.hit == {0})
            assert screen.proposed == GOOD
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(screen.answers) == 1)
        await phase(pilot, "asking")
        await pilot.press("ctrl+q")
    (interview,) = store.interview_history()
    assert interview.finished_at is None and len(interview.answers) == 1
    assert interview.answers[0].traps_hit == traps[:1]  # stored by id


async def test_a_section_without_bank_questions_is_an_error(library, store):
    app = interview_app(library, store, section="9.99")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.error is not None)
        await pilot.pause()
    assert "no bank question with key points in section 9.99" in str(app.error)
