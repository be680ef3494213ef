"""What keeps grade -> next card and reveal light (issue 10 §2, issue 13 §2): grades written by one writer
thread, each on disk before the next card; the side pane's first step of later cards laid out ahead, so a
grade only copies its lines; the answer laid out once the question is painted."""

from __future__ import annotations

import threading

from drill.tui.steps import load_steps
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.step_pane import PRIME_AHEAD, StepPane
from tests.tui.conftest import card_shown, wait_until


async def test_grades_are_written_by_one_writer_thread_each_before_the_next_card(study_app, store):
    app = study_app()
    writers: list[int] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        grade = screen.session.grade

        def recorded(card_id, rating, duration_ms):
            writers.append(threading.get_ident())
            return grade(card_id, rating, duration_ms)

        screen.session.grade = recorded
        for n in range(1, 5):
            shown = screen.card
            await pilot.press("space")
            await wait_until(pilot, lambda: screen.query_one(CardView).revealed)
            await pilot.press("3")
            await wait_until(pilot, lambda shown=shown: screen.card is not shown)
            # The next card is on screen only once the grade before it is on disk.
            assert len(store.review_logs()) == n
    assert len(writers) == 4
    assert len(set(writers)) == 1 and writers[0] != threading.main_thread().ident


async def test_the_panes_first_step_of_the_coming_cards_is_laid_out_ahead(study_app, library):
    app = study_app()
    # The cards that name steps, in the order they come (the warm-up's order: the pack's).
    coming = [tuple(card.steps) for card in library.cards.values() if card.steps]
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        pane = screen.query_one(StepPane)
        # Until the pane has been shown its width is unknown: show a card that names steps.
        with_steps = next(card for card in library.cards.values() if card.steps)
        screen.show_card(with_steps)
        await wait_until(pilot, lambda: pane.options is not None)
        width = pane.options.max_width
        window = coming[1 : 1 + PRIME_AHEAD]
        later = [
            refs
            for refs in dict.fromkeys(window)
            if refs != tuple(with_steps.steps)
            and load_steps(refs)[0].step is not None  # one the engine shows
        ]
        assert later

        def laid_out_ahead() -> bool:
            return all(
                (refs, 0, False) in pane.bodies
                and any(key[0] == width for key in pane.bodies[(refs, 0, False)]._lines)
                for refs in later
            )

        await wait_until(pilot, laid_out_ahead)
        for refs in later:
            body = pane.bodies.get((refs, 0, False))
            assert body is not None, refs
            assert any(key[0] == width for key in body._lines), refs  # laid out at the pane's width
        # Only the shown card's and the window's bodies are kept: memory follows the window, not the session.
        assert {key[0] for key in pane.bodies} <= {*window, tuple(with_steps.steps)}
        # Showing such a card uses those lines: no new layout of its tables.
        refs = later[-1]
        card = next(card for card in library.cards.values() if tuple(card.steps) == refs)
        body = pane.bodies[(refs, 0, False)]
        laid_out = dict(body._lines)
        screen.show_card(card)
        await pilot.pause()
        await pilot.pause()
        assert pane.bodies[(refs, 0, False)] is body
        assert body._lines == laid_out
        # Further on, the window moves: the cards left behind let their bodies go, the next ones are laid out.
        far = next(
            i
            for i in range(len(coming) - 1, 0, -1)
            if coming.count(coming[i]) == 1 and load_steps(coming[i])[0].step is not None
        )
        card = next(card for card in library.cards.values() if tuple(card.steps) == coming[far])
        screen.show_card(card)
        await wait_until(pilot, lambda: (coming[far], 0, False) in pane.bodies)
        await wait_until(
            pilot, lambda: not any(w.group == "prime-steps" and w.is_running for w in app.workers)
        )
        await pilot.pause()
        kept = {key[0] for key in pane.bodies}
        assert kept <= {*coming[far : far + PRIME_AHEAD + 1]}
        assert (refs, 0, False) not in pane.bodies or refs in coming[far:]


async def test_the_answer_is_laid_out_once_the_question_is_painted(study_app):
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        view = app.mode_screen.query_one(CardView)
        await wait_until(pilot, lambda: view._prepared is not None)
        card, source, rendered = view._prepared
        assert card is view.card and not view.revealed
        assert rendered._lines  # its lines are made before the reveal
        await pilot.press("space")
        await wait_until(pilot, lambda: view.revealed)
        assert app.mode_screen.query_one("#answer-md").source == source
