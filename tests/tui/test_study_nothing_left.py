"""When a session has nothing to show, the end screen says why and what to press (custom study, the daily
new limit)."""

from __future__ import annotations

from dataclasses import replace

from drill.tui.models.custom_study import StudyFilter
from drill.tui.screens.study import StudyScreen
from tests.helpers import plain
from tests.tui.conftest import NOW, card_shown, library_of, wait_until


async def _ended_text(app, pilot) -> str:
    await card_shown(pilot)
    screen = app.mode_screen
    assert isinstance(screen, StudyScreen)
    await wait_until(pilot, lambda: screen.ended)
    return plain(screen.query_one("#question"))


async def test_review_ahead_with_nothing_due_says_so_and_what_to_press(study_app):
    app = study_app(study=StudyFilter(mode="ahead", ahead_days=3))  # a fresh store: every card is new
    async with app.run_test(size=(120, 40)) as pilot:
        text = await _ended_text(app, pilot)
    assert "No card is due within the next 3 days" in text and "press c" in text


async def test_todays_new_cards_done_names_the_limit_and_the_setting(study_app, store, library):
    only = library_of([library.cards["q07"], library.cards["q01"]], library)
    store.config = replace(store.config, new_per_day=1)
    store.sync_content(only)
    first = store.next_card(NOW)
    store.grade(first.card_id, 4, NOW)  # Easy: graduates, not due today; the day's one new card is used
    assert store.next_card(NOW) is None
    app = study_app(library=only)
    async with app.run_test(size=(120, 40)) as pilot:
        text = await _ended_text(app, pilot)
    assert "Today's new cards are done (1 a day, 0 added today)" in text and "new_per_day" in text
    assert "press +" in text and "drill study --more N" in text  # the key and the option that add more
