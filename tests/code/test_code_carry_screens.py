"""Pilot, end to end: a task graded in the code screen under the old `drill-code` pack (the content then had no
code cards) is not offered as a new card when `drill study` runs on the content that has the code cards: the
study session's sync carries the grade to the main deck's card (drill.store.code_carry)."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from drill.engine.codetasks import get_task
from drill.store.code_carry import CODE_PACK
from drill.tui.app import make_app
from drill.tui.screens.code import CodeScreen
from drill.tui.screens.study import StudyScreen
from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import card_shown, frozen_clock, library_of, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def test_a_task_graded_under_the_old_pack_is_not_new_in_study(study_app, library, store):
    qa = next(card for card in library.cards.values() if card.kind == "qa")
    before = library_of([qa], library)  # the content before it had code cards
    app = make_app("code", store=store, clock=frozen_clock, task="softmax", library=before)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.mode_screen
        assert isinstance(screen, CodeScreen)
        await wait_until(pilot, lambda: store.packs == (CODE_PACK,), tries=5000)  # the old path's own pack
        screen.query_one("#code-editor", TextArea).load_text(get_task("softmax").solution())
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.runs == 1 and not screen.running, tries=5000)
        assert screen.proposed == 4  # a first try within the budget: Easy
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.graded)
    assert [h.rating for h in store.card_info("code-softmax").history] == [4]

    app = study_app(library=library_of([qa, library.cards["code-softmax"]], library))
    shown = []
    async with app.run_test(size=(140, 40)) as pilot:
        await card_shown(pilot)
        study = app.mode_screen
        assert isinstance(study, StudyScreen)
        for reviewed in range(1, 4):
            if app.screen is not study:  # the session's summary: nothing left today
                break
            card = study.query_one(CardView).card
            if card is None:
                break
            shown.append(card.id)
            if card.kind == "code":  # offered again: what the carry prevents (the assert below says so)
                break
            await pilot.press("space", "3")
            await wait_until(pilot, lambda n=reviewed: study.session.stats.reviewed == n)
            await pilot.pause()
    # the code card was learnt already: not new, and not due yet; the qa card may come back once it is in
    # its learning steps (learn-ahead shows a learning card due within 20 minutes)
    assert shown and set(shown) == {qa.id}
    assert store.packs == (qa.pack,)
    assert [h.rating for h in store.card_info("code-softmax").history] == [4]
