"""Issue 28: undo of a bulk browser action (suspend / bury / due now on several chosen cards) is one press of
u (or ctrl+z) in study, not one per card; the bulk action is one store transaction."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event

from drill.errors import StoreError
from drill.tui.widgets.card_table import CardTable
from tests.notified import notified
from tests.tui.conftest import NOW, card_shown, wait_until
from tests.tui.test_browser import open_browser, row_ids


async def _choose_first_five(pilot, app, library) -> list[str]:
    await open_browser(pilot)
    await pilot.press("o")  # by id: a known order
    ids = sorted(library.cards)
    await wait_until(pilot, lambda: row_ids(app) == ids)
    await pilot.press("home")  # (sorting keeps the cursor on its card)
    await pilot.press("space", "space", "shift+down", "shift+down")  # rows 0, 1, then 2 to 4
    table = app.screen.query_one(CardTable)
    await wait_until(pilot, lambda: table.chosen == set(ids[:5]))
    return ids[:5]


@pytest.mark.parametrize("key", ["u", "ctrl+z"])
async def test_one_undo_takes_back_a_bulk_suspend_of_five(study_app, library, store, key):
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        chosen = await _choose_first_five(pilot, app, library)
        await pilot.press("s")
        await wait_until(pilot, lambda: all(store.card_info(cid, NOW).suspended for cid in chosen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.mode_screen)
        await pilot.press(key)  # once
        await wait_until(pilot, lambda: not any(store.card_info(cid, NOW).suspended for cid in chosen))
        assert any("on 5 cards" in n for n in notified(app))
        # and that one press took only the bulk action: the next undo has nothing of it left
        assert store.undo_last() is None


async def test_one_undo_takes_back_a_bulk_bury_and_a_bulk_due_now(study_app, library, store):
    store.sync_content(library)
    studied = sorted(library.cards)[:5]
    for cid in studied:
        store.grade(cid, 4, NOW - timedelta(days=1))  # due days from now
    app = study_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        chosen = await _choose_first_five(pilot, app, library)
        assert chosen == studied
        due_before = {cid: store.card_info(cid, NOW).due for cid in chosen}
        await pilot.press("b")
        await wait_until(pilot, lambda: all(store.card_info(c, NOW).buried_until for c in chosen))
        table = app.screen.query_one(CardTable)
        for cid in chosen:
            table.toggle_chosen(cid)
        await pilot.press("d")
        await wait_until(pilot, lambda: all(store.card_info(c, NOW).due != due_before[c] for c in chosen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.mode_screen)
        await pilot.press("u")  # the due-now, all five
        await wait_until(pilot, lambda: all(store.card_info(c, NOW).due == due_before[c] for c in chosen))
        assert all(store.card_info(c, NOW).buried_until for c in chosen)
        await pilot.press("u")  # the bury, all five
        await wait_until(pilot, lambda: not any(store.card_info(c, NOW).buried_until for c in chosen))


def test_a_bulk_action_is_one_transaction_and_an_unknown_id_refuses_the_lot(library, store):
    store.sync_content(library)
    ids = sorted(library.cards)[:5]
    begins = []
    event.listen(store.engine, "begin", lambda conn: begins.append(1))
    store.bulk("suspend", ids, NOW)
    assert len(begins) == 1
    assert all(store.card_info(cid, NOW).suspended for cid in ids)
    with pytest.raises(StoreError):
        store.bulk("unsuspend", [*ids[:2], "no-such-card"], NOW)
    assert all(store.card_info(cid, NOW).suspended for cid in ids)  # nothing written
    result = store.undo_last()
    assert result is not None and result.action == "suspend" and result.card_ids == tuple(ids)
    assert not any(store.card_info(cid, NOW).suspended for cid in ids)
    with pytest.raises(StoreError):
        store.bulk("reset", ids, NOW)
