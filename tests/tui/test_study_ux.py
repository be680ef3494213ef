"""The study screen explains itself (issue 13 §2): what the footer offers now, ? and q at every width from 60
columns, grade buttons muted before the answer, the header's counts and progress bar."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from drill.i18n import set_language
from drill.store.types import BrowseRow
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.grade_bar import GradeBar
from drill.tui.widgets.header import StudyHeader
from tests.helpers import plain
from tests.tui.conftest import NOW, card_shown, wait_until


def footer_keys(app) -> dict[str, FooterKey]:
    """The footer's keys a learner can see: action -> key (visible, wholly inside the terminal)."""
    width = app.size.width
    keys = {}
    for key in app.screen.query(FooterKey):
        region = key.region
        if key.visible and region.width and region.x >= 0 and region.right <= width:
            keys[key.action] = key
    return keys


async def footer_ready(pilot) -> None:
    await wait_until(pilot, lambda: len(pilot.app.screen.query(FooterKey)) > 0)
    await pilot.pause()
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


@pytest.mark.parametrize("width", [60, 80])
async def test_no_footer_key_is_shown_cut_off(study_app, width):
    app = study_app()
    async with app.run_test(size=(width, 24)) as pilot:
        await card_shown(pilot)
        await footer_ready(pilot)
        pinned = app.screen.query_one("#pinned").region
        for key in app.screen.query(FooterKey):
            if key.visible and key.parent is not app.screen.query_one("#pinned"):
                assert key.region.right <= pinned.x, key.action  # never drawn under the pinned keys


async def test_footer_offers_the_reveal_before_and_the_grades_after(study_app):
    app = study_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        await footer_ready(pilot)
        before = footer_keys(app)
        assert "reveal" in before
        assert not any(action.startswith("grade") for action in before)
        await pilot.press("space")
        await wait_until(pilot, lambda: "reveal" not in footer_keys(app))
        after = footer_keys(app)
        assert [after[f"grade({n})"].key for n in (1, 2, 3, 4)] == ["1", "2", "3", "4"]


async def test_grade_buttons_are_muted_until_the_answer_shows(study_app, store):
    app = study_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        bar = app.screen.query_one(GradeBar)
        assert not bar.enabled and bar.has_class("-locked")
        first = app.mode_screen.card.id
        await pilot.press("3")  # before the answer: a toast, nothing saved
        await wait_until(pilot, lambda: any("Show the answer first" in n.message for n in app._notifications))
        assert store.review_logs() == [] and app.mode_screen.card.id == first
        await pilot.click("#grade-2")
        await pilot.pause()
        assert store.review_logs() == []
        await pilot.press("space")
        await wait_until(pilot, lambda: bar.enabled)
        await pilot.press("3")
        await wait_until(pilot, lambda: len(store.review_logs()) == 1)
        await wait_until(pilot, lambda: not bar.enabled)  # the next card's question: muted again


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
