"""The interview's first question comes from the peek (drill.tui.models.interview_peek) while the store is still
opening; what the learner does meanwhile is kept. The store's opening is held here until the test lets it go, so
"before the store opens" is a fact, not a race; another session grades the question shown in between, so the
store would ask another first: untouched, the question gives way to the store's; typed into and confirmed, or
answered aloud, it stays, and its answer is saved under it once the store is open. The misconceptions load
after the first question too (held the same way): a rubric reached before them waits for them."""

from __future__ import annotations

import sqlite3
import threading
from datetime import timedelta

import pytest

import drill.store
from drill.store import open_store
from drill.tui.app import make_app
from drill.tui.models.interview import bank_cards, store_order
from drill.tui.models.interview_peek import save_order_key
from tests.notified import notified
from tests.tui.conftest import frozen_clock, frozen_timer, wait_until

USER = "tester"
SEED = 1


@pytest.fixture
def held_store(monkeypatch):
    """`open_store` (what the loading worker calls) waits until the test sets the event."""
    release = threading.Event()
    real = drill.store.open_store

    def held(*args, **kwargs):
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(drill.store, "open_store", held)
    yield release
    release.set()


@pytest.fixture
def saved(library, db_url):
    """A database a first interview left (its key saved), every card new: the store's order for the seed."""
    store = open_store(db_url, USER)
    store.sync_content(library)
    order = [
        c.id for c in store_order(bank_cards(list(library.cards.values())), store, frozen_clock(), seed=SEED)
    ]
    save_order_key(store, db_url)
    store.close()
    return order


def graded_meanwhile(db_url, card_id: str) -> None:
    """Another session grades ``card_id`` after the peek read the database and before the store opens: no
    longer new and not due yet, the store asks it after the new cards."""
    other = open_store(db_url, USER)
    other.grade(card_id, 3, frozen_clock() - timedelta(minutes=1))
    other.close()


def interview(library, db_url, **more):
    return make_app(
        "interview",
        library=library,
        db_url=db_url,
        user=USER,
        clock=frozen_clock,
        timer=frozen_timer,
        seed=SEED,
        questions=3,
        minutes=1,
        follow_up=0.0,
        **more,
    )


async def asking_before_the_store(pilot):
    screen = pilot.app.mode_screen
    await wait_until(pilot, lambda: pilot.app.error is not None or screen.phase == "asking")
    assert pilot.app.error is None and screen.store is None
    return screen


async def test_an_untouched_first_question_gives_way_to_the_stores(library, db_url, held_store, saved):
    order = saved
    async with interview(library, db_url).run_test(size=(100, 30)) as pilot:
        screen = await asking_before_the_store(pilot)
        assert screen.asked.card.id == order[0]
        graded_meanwhile(db_url, order[0])
        held_store.set()
        await wait_until(pilot, lambda: screen.store is not None)
        await pilot.pause()
        assert [a.card.id for a in screen.session.asked] == [order[1]]
        assert screen.asked.card.id == order[1] and screen.phase == "asking"


async def test_a_question_answered_aloud_stays_when_the_store_opens(library, db_url, held_store, saved):
    """Aloud, the learner may be speaking before a key is pressed: the question is not taken away."""
    order = saved
    other = order[0]
    async with interview(library, db_url, aloud=True).run_test(size=(100, 30)) as pilot:
        screen = await asking_before_the_store(pilot)
        assert screen.asked.card.id == other
        graded_meanwhile(db_url, other)
        held_store.set()
        await wait_until(pilot, lambda: screen.store is not None)
        await pilot.pause()
        assert [a.card.id for a in screen.session.asked] == [other] and screen.phase == "asking"
        await pilot.press("space")
        await wait_until(pilot, lambda: screen.phase == "rubric")
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(screen.answers) == 1)
        assert [a.card.id for a in screen.session.asked] == [other, order[1]]


async def test_an_answer_typed_and_confirmed_before_the_store_opens_is_saved_under_its_question(
    library, db_url, held_store, saved
):
    order = saved
    other = order[0]
    async with interview(library, db_url).run_test(size=(100, 30)) as pilot:
        screen = await asking_before_the_store(pilot)
        assert screen.asked.card.id == other
        graded_meanwhile(db_url, other)
        await pilot.press(*"abc")
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: screen.phase == "rubric")
        await pilot.press("enter")  # the store is not open: the grade waits for it
        await pilot.pause()
        assert screen.store is None and screen.answers == [] and screen.phase == "rubric"
        assert any("Saving your grade" in n for n in notified(pilot.app))  # the screen says why it waits
        held_store.set()
        await wait_until(pilot, lambda: len(screen.answers) == 1)
        assert screen.answers[0].card_id == other and screen.answers[0].answer == "abc"
        await wait_until(pilot, lambda: screen.phase == "asking")
        # the store's order from here on, the question already asked left out
        assert [a.card.id for a in screen.session.asked] == [other, order[1]]
    path = db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        rows = list(db.execute("SELECT position, card_id, answer FROM interview_answers"))
    assert rows == [(1, other, "abc")]


@pytest.fixture
def held_misconceptions(monkeypatch):
    """`load_misconceptions` (what `prepare` calls, after the first question is shown) waits until the test sets
    the event; (the event, the real function)."""
    import drill.content.misconceptions as misconceptions

    release = threading.Event()
    real = misconceptions.load_misconceptions

    def held(*args, **kwargs):
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(misconceptions, "load_misconceptions", held)
    yield release, real
    release.set()


async def test_an_answer_done_before_the_misconceptions_load_waits_for_its_rubric(
    library, db_url, held_store, held_misconceptions, saved
):
    """The misconceptions load after the first question is on screen; done (ctrl+d) before they are, the clock
    stops and the answer is kept, and the rubric comes once they are loaded, listing the card's own traps."""
    from drill.i18n import current_language
    from drill.tui.models.interview import rubric_for
    from drill.tui.widgets.checklist import Checklist

    release, load_misconceptions = held_misconceptions
    card = library.cards[saved[0]]
    expected = rubric_for(card, load_misconceptions(library), current_language())
    assert expected.trap_ids  # the first question lists misconceptions: their absence would show
    async with interview(library, db_url).run_test(size=(100, 30)) as pilot:
        screen = await asking_before_the_store(pilot)
        assert screen.asked.card.id == card.id and screen.book is None and screen.rubric is None
        await pilot.press(*"abc")
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert screen.phase == "asking" and screen.done_waiting and screen.rubric is None
        assert screen.query_one("#iv-answer").read_only and screen.answer_text == "abc"
        await pilot.press("ctrl+t")  # the answer is taken: no switching to aloud meanwhile
        await pilot.press("enter")  # no grade before the rubric
        await pilot.pause()
        assert screen.typed and screen.phase == "asking" and not screen.confirm_waiting
        release.set()
        await wait_until(pilot, lambda: screen.phase == "rubric")
        assert screen.rubric.trap_ids == expected.trap_ids and screen.rubric.traps == expected.traps
        assert len(screen.query_one("#iv-traps", Checklist).items) == len(expected.traps)
        await pilot.press("enter")  # the store is still held: the grade waits for it
        held_store.set()
        await wait_until(pilot, lambda: len(screen.answers) == 1)
        assert screen.answers[0].card_id == card.id and screen.answers[0].answer == "abc"
