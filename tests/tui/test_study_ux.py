"""The study screen explains itself (issue 13 §2): what the footer offers now, ? and q at every width from 60
columns, grade buttons muted before the answer, the header's counts and progress bar."""

from __future__ import annotations

import pytest

from drill.i18n import set_language
from drill.store.types import BrowseRow
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.footer import ShownKey, StudyFooter
from drill.tui.widgets.grade_bar import GradeBar, GradeButton, RevealButton
from drill.tui.widgets.header import StudyHeader
from tests.helpers import plain
from tests.notified import notified
from tests.tui.conftest import NOW, card_shown, wait_until
from tests.tui.test_text_is_text import screen_text


def footer_keys(app) -> dict[str, ShownKey]:
    """The footer's keys a learner can see: action -> key (wholly inside the terminal, not overlapping)."""
    footer = app.screen.query_one(StudyFooter)
    width = app.size.width
    keys = {}
    last_end = 0
    for key in footer.shown:
        assert key.start >= last_end and key.end <= width, key  # drawn whole, one after another
        last_end = key.end
        keys[key.action] = key
    text = plain(footer)
    for key in footer.shown:  # what the footer says is what it drew
        assert f" {key.display} {key.description}" in text, key
    return keys


async def footer_ready(pilot) -> None:
    await wait_until(
        pilot,
        lambda: bool(pilot.app.screen.query(StudyFooter)) and pilot.app.screen.query_one(StudyFooter).shown,
    )
    await pilot.pause()


@pytest.mark.parametrize("width", [60, 80, 100, 120])
async def test_help_and_quit_are_visible_at_every_width_from_60(study_app, width):
    app = study_app()
    async with app.run_test(size=(width, 24)) as pilot:
        await card_shown(pilot)
        await footer_ready(pilot)
        assert {"help", "quit"} <= set(footer_keys(app))
        await pilot.press("space")
        await wait_until(pilot, lambda: app.screen.query_one(CardView).revealed)
        await footer_ready(pilot)
        assert {"help", "quit"} <= set(footer_keys(app))
        assert footer_keys(app)["quit"].end <= width


async def test_a_click_on_a_footer_key_presses_it(study_app, store):
    app = study_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await card_shown(pilot)
        await footer_ready(pilot)
        await pilot.press("space")
        await wait_until(pilot, lambda: "grade(3)" in footer_keys(app))
        good = footer_keys(app)["grade(3)"]
        await pilot.click(StudyFooter, offset=(good.start + 1, 0))
        await wait_until(pilot, lambda: len(store.review_logs()) == 1)
        assert store.review_logs()[0].rating == 3


async def test_footer_offers_the_reveal_before_and_the_grades_after(study_app):
    app = study_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        await footer_ready(pilot)
        before = footer_keys(app)
        # the reveal is the bar's button (and the card's hint); the footer does not repeat it a third time
        assert "reveal" not in before
        assert not any(action.startswith("grade") for action in before)
        assert "Show answer" in plain(app.screen.query_one(RevealButton))
        await pilot.press("space")
        await wait_until(pilot, lambda: "reveal" not in footer_keys(app))
        after = footer_keys(app)
        assert [after[f"grade({n})"].key for n in (1, 2, 3, 4)] == ["1", "2", "3", "4"]


async def test_grade_buttons_are_not_drawn_until_the_answer_shows(study_app, store):
    app = study_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        bar = app.screen.query_one(GradeBar)
        buttons = list(bar.query(GradeButton))
        reveal = bar.query_one(RevealButton)
        # before the answer: one "space  Show answer" button, no grade and no interval on screen
        assert not bar.enabled and reveal.display and not any(b.display for b in buttons)
        assert "Show answer" in plain(reveal)
        screen = "\n".join(screen_text(app))
        assert "Again ·" not in screen and "Good ·" not in screen
        first = app.mode_screen.card.id
        await pilot.press("3")  # before the answer: a toast, nothing saved
        await wait_until(pilot, lambda: any("Show the answer first" in n for n in notified(app)))
        assert store.review_logs() == [] and app.mode_screen.card.id == first
        await pilot.click("#reveal-button")  # a click on it shows the answer
        await wait_until(pilot, lambda: bar.enabled)
        assert not reveal.display and all(b.display for b in buttons)
        assert [plain(b).split(" · ")[0] for b in buttons] == ["1 Again", "2 Hard", "3 Good", "4 Easy"]
        await pilot.press("3")
        await wait_until(pilot, lambda: len(store.review_logs()) == 1)
        await wait_until(pilot, lambda: not bar.enabled)  # the next card's question: the reveal again
        assert reveal.display and not any(b.display for b in buttons)


def left_today(rows: list[BrowseRow]) -> tuple[int, int]:
    """(learning, review) cards due at NOW, recomputed from the browse rows (the header's oracle)."""
    due = [r for r in rows if r.kind.value != "new" and not r.suspended and not r.buried and r.due <= NOW]
    learning = sum(1 for r in due if r.kind.value in ("learning", "relearning"))
    return learning, len(due) - learning


async def test_header_counts_new_learning_review_and_the_progress(study_app, store, library):
    set_language("en")
    ids = list(library.cards)
    store.sync_content(library)
    store.grade(ids[0], 1, NOW)  # Again: learning, due in a minute -> not due at NOW yet
    store.grade(ids[1], 3, NOW.replace(hour=8))  # graded an hour ago: a learning step, due by now
    app = study_app()
    async with app.run_test(size=(160, 30)) as pilot:
        await card_shown(pilot)
        header = app.screen.query_one(StudyHeader)
        counts = store.counts(NOW)
        learning, review = left_today(store.browse(now=NOW))
        assert (header.new, header.learning, header.review) == (counts.new, learning, review)
        assert header.done == 2
        text = plain(header)
        assert f"new {counts.new}" in text and f"learning {learning}" in text and f"review {review}" in text
        total = 2 + counts.new + learning + review
        assert f"2/{total}" in text
        assert "▕" in text and "▏" in text
