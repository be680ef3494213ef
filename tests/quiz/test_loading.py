"""The loading worker the quiz and interview screens share (tui/screens/base.LoadingScreen): content refused
before any database opens; a store it opened is closed again when the screen's own preparation fails; either
way the app ends with the one error, not a traceback."""

from __future__ import annotations

import pytest

import drill.store
import drill.tui.models.quiz_order
from drill.errors import InputError
from drill.tui.app import make_app
from tests.tui.conftest import frozen_clock, wait_until


@pytest.fixture
def opened(monkeypatch):
    """Every store the worker opens, as it opens them (the real `open_store`)."""
    stores = []
    real = drill.store.open_store

    def spy(*args, **kwargs):
        store = real(*args, **kwargs)
        stores.append(store)
        return store

    monkeypatch.setattr(drill.store, "open_store", spy)
    return stores


@pytest.mark.parametrize("mode", ["quiz", "interview"])
async def test_options_the_content_refuses_open_no_database(library, db_url, opened, mode):
    app = make_app(mode, library=library, db_url=db_url, user="tester", clock=frozen_clock, section="9.99")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.error is not None)
    assert isinstance(app.error, InputError) and "9.99" in str(app.error)
    assert opened == []


async def test_a_store_opened_for_a_screen_that_then_fails_is_closed(library, db_url, opened, monkeypatch):
    def refuse(items, store, now):
        raise InputError("planted: the order cannot be made")

    # interview_order runs in prepare, once the store is open
    monkeypatch.setattr(drill.tui.models.quiz_order, "interview_order", refuse)
    app = make_app("quiz", library=library, db_url=db_url, user="tester", clock=frozen_clock, generated=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.error is not None)
    assert str(app.error) == "planted: the order cannot be made"
    assert len(opened) == 1
    assert opened[0].lock is None  # released: closed, so `drill restore` is not kept waiting by a dead screen


async def test_a_store_opened_for_the_screen_is_closed_when_it_leaves(library, db_url, opened):
    app = make_app("quiz", library=library, db_url=db_url, user="tester", clock=frozen_clock, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        # the first question comes before the store opens (QuizScreen.planned): wait for the store
        await wait_until(pilot, lambda: getattr(app.mode_screen, "store", None) is not None)
        assert opened[0].lock is not None
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert opened[0].lock is None


async def test_the_quiz_plans_from_a_partial_read_and_syncs_every_card(db_url, monkeypatch):
    """With the content cached, the quiz's first question comes from a partial read (the packs, quizzes,
    errata and each card's section: drill.content.cache.PartialLibrary); the worker reads every card before
    the store syncs them, so the store is given the whole content, never the partial one."""
    from drill.content import load_content
    from drill.content.cache import PartialLibrary
    from drill.store.api import Store
    from drill.tui.screens.quiz import QuizScreen

    full = load_content()
    planned_from, synced = [], []
    real_plan, real_sync = QuizScreen.plan, Store.sync_content

    def plan(self, library):
        planned_from.append(library)
        return real_plan(self, library)

    def sync_content(self, library, *args, **kwargs):
        synced.append(library)
        return real_sync(self, library, *args, **kwargs)

    monkeypatch.setattr(QuizScreen, "plan", plan)
    monkeypatch.setattr(Store, "sync_content", sync_content)
    app = make_app("quiz", db_url=db_url, user="tester", clock=frozen_clock, seed=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: getattr(app.mode_screen, "store", None) is not None)
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert app.error is None
    (partial,) = planned_from
    assert isinstance(partial, PartialLibrary) and partial.cards == {}
    (given,) = synced
    assert not isinstance(given, PartialLibrary) and given == full


def test_a_partial_read_places_the_quizzes_in_the_sections_the_whole_content_does():
    """--section: a chapter quiz belongs to its own section and its cards' (drill.tui.models.quiz_plan),
    which the partial read knows from each card's keys without reading the cards."""
    from drill.content import load_content
    from drill.content.loader import load_cached_content
    from drill.tui.models.quiz_plan import quiz_sections

    full = load_content()
    partial = load_cached_content(partial=True)
    assert partial is not None and partial.cards == {}
    assert partial.quizzes == full.quizzes
    placed = [quiz_sections(full, quiz) for quiz in full.quizzes]
    assert [quiz_sections(partial, quiz) for quiz in partial.quizzes] == placed
    assert any(len(sections) > 1 for sections in placed)  # some quiz asks about cards of another section
