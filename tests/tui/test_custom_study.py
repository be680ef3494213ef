"""Custom study (issue 13 §3): several sections, tags, kinds; review ahead; today's forgotten cards; a preview
that writes nothing. Driven through the real screen on the real store; the oracle is the store's rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from drill.cli import cli as cli_main
from drill.errors import InputError
from drill.store.tables import logs_t, sessions_t, states_t
from drill.tui.models.custom_study import CustomQueue, StudyFilter, card_kind
from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import NOW, card_shown, wait_until


def shown(app) -> str | None:
    card = app.mode_screen.card
    return None if card is None else card.id


async def grade_shown(pilot, rating: int) -> str:
    app = pilot.app
    card_id = shown(app)
    await pilot.press("space")
    await wait_until(pilot, lambda: app.screen.query_one(CardView).revealed)
    await pilot.press(str(rating))
    await wait_until(pilot, lambda: shown(app) != card_id and app.mode_screen.saving is None)
    return card_id


async def session_cards(pilot, rating: int, most: int = 50) -> list[str]:
    """Grade every card the session shows until it ends; the ids in order."""
    app = pilot.app
    seen = []
    while shown(app) is not None and len(seen) < most:
        seen.append(await grade_shown(pilot, rating))
    return seen


def test_filter_matches_any_of_each_and_all_of_them(library):
    study = StudyFilter(sections=("7.9", "7.10"), tags=("softmax",))
    expected = {c.id for c in library.cards.values() if c.section in ("7.9", "7.10") and "softmax" in c.tags}
    assert expected and {c.id for c in library.cards.values() if study.matches(c)} == expected
    assert {card_kind(c) for c in library.cards.values()} >= {"qa"}


@pytest.mark.parametrize(
    "study, option",
    [
        (StudyFilter(sections=("9.99",)), "--section 9.99"),
        (StudyFilter(tags=("no-such-tag",)), "--tag no-such-tag"),
        (StudyFilter(kinds=("cloze-of-nothing",)), "--kind cloze-of-nothing"),
    ],
)
def test_a_filter_that_matches_nothing_is_refused_by_name(library, study, option):
    with pytest.raises(InputError, match=option):
        study.check(library)


async def test_several_sections_show_only_their_cards_due_then_new(study_app, store, library):
    # cards answered on the card itself (7.10 has a code card: its answer side is the editor)
    sections = ("7.6", "7.9")
    wanted = [c.id for c in library.cards.values() if c.section in sections]
    app = study_app(study=StudyFilter(sections=sections))
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        seen = await session_cards(pilot, 4)  # Easy: each graduates, none comes back today
    assert seen == wanted  # new cards in content order, each once
    assert [log.card_id for log in store.review_logs()] == wanted


async def test_review_ahead_takes_the_cards_due_within_n_days_earliest_first(study_app, store, library):
    store.sync_content(library)
    ids = list(library.cards)[:4]
    for card_id in ids:
        store.grade(card_id, 4, NOW - timedelta(days=1))  # Easy: a review due in days
    dues = {row.card_id: row.due for row in store.browse(now=NOW) if row.card_id in ids}
    horizon = 30
    ahead = sorted((cid for cid in ids if dues[cid] <= NOW + timedelta(days=horizon)), key=lambda c: dues[c])
    assert ahead and all(dues[cid] > NOW for cid in ahead)  # none due today: only review ahead shows them
    app = study_app(study=StudyFilter(mode="ahead", ahead_days=horizon))
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        first = shown(app)
        assert first == ahead[0]
        await grade_shown(pilot, 3)
    with store.engine.connect() as conn:
        row = conn.execute(
            select(logs_t.c.reviewed_at, logs_t.c.due_before).order_by(logs_t.c.id.desc()).limit(1)
        ).one()
    # recorded as an early review: graded before the due it had (FSRS got the real elapsed time)
    assert row.reviewed_at.replace(tzinfo=None) < row.due_before.replace(tzinfo=None)


async def test_forgotten_today_shows_the_cards_answered_again_today_once(study_app, store, library):
    store.sync_content(library)
    ids = list(library.cards)
    for card_id in ids[:3]:
        store.grade(card_id, 3, NOW - timedelta(days=3))
    for card_id in ids[:3]:
        store.grade(card_id, 4, NOW - timedelta(days=2))
    forgotten = [ids[2], ids[0]]
    for card_id in forgotten:
        store.grade(card_id, 1, NOW - timedelta(minutes=30))  # Again today
    app = study_app(study=StudyFilter(mode="forgotten"))
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        seen = await session_cards(pilot, 1)  # even Again again: each is shown once in this session
    assert seen == forgotten


def counts_of(store) -> tuple[int, int, int, list]:
    with store.engine.connect() as conn:
        logs = conn.execute(select(func.count()).select_from(logs_t)).scalar_one()
        sessions = conn.execute(select(func.count()).select_from(sessions_t)).scalar_one()
        states = conn.execute(select(states_t).order_by(states_t.c.card_id)).all()
    return logs, sessions, len(states), [tuple(s) for s in states]


async def test_preview_shows_new_cards_and_writes_nothing(study_app, store, library):
    store.sync_content(library)
    before = counts_of(store)
    new_ids = list(library.cards)[:3]
    app = study_app(study=StudyFilter(mode="preview"), limit=None)
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        grades = app.screen.query_one("#grade-3")
        assert "not saved" in str(grades.render())
        seen = [await grade_shown(pilot, rating) for rating in (3, 1, 4)]
    assert seen == new_ids
    assert counts_of(store) == before  # no review log, no session row, no state changed


async def test_custom_study_from_the_screen_reviews_ahead(study_app, store, library):
    store.sync_content(library)
    card_id = list(library.cards)[5]
    store.grade(card_id, 4, NOW - timedelta(days=1))
    app = study_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        await pilot.press("c")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "CustomStudyScreen")
        days = app.screen.query_one("#custom-days")
        days.value = "60"
        options = app.screen.query_one("#custom-choices")
        options.focus()
        options.highlighted = 1  # review ahead
        await pilot.press("enter")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "StudyScreen" and shown(app) == card_id)
        assert app.mode_screen.session.mode == "ahead"


def test_cli_refuses_two_modes_and_unknown_filters(tmp_path):
    runner = CliRunner()
    env = {"DRILL_DATA_DIR": str(tmp_path)}
    result = runner.invoke(cli_main, ["study", "--ahead", "3", "--preview"], env=env)
    assert result.exit_code == 2 and "--ahead / --preview" in result.output
    result = runner.invoke(cli_main, ["study", "--ahead", "0"], env=env)
    assert result.exit_code == 2 and "--ahead" in result.output


def test_queue_alone_serves_due_then_new_within_the_filter(store, library):
    store.sync_content(library)
    tagged = [c.id for c in library.cards.values() if "softmax" in c.tags]
    queue = CustomQueue(library, store, StudyFilter(tags=("softmax",)))
    assert queue.next_card(NOW).id == tagged[0]
    store.grade(tagged[1], 1, NOW - timedelta(minutes=20))  # a learning card due now comes first
    assert queue.next_card(NOW).id == tagged[1]
    assert queue.next_card(NOW, new=False).id == tagged[1]
