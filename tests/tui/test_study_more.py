"""Study more today from the study screen and the command line (issue 23 #5): once the day's new cards are
done the end says so and names + and --more; + (on the study screen or its summary) asks how many, and the
cards come; the header's counts, Store.counts and Store.next_card agree; undo of a grade on an extra card brings
it back; bad values are refused. The oracle is the store's rows and review log."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from click.testing import CliRunner

from drill.cli import cli as cli_main
from drill.srs import Phase
from drill.tui.keys import help_rows, palette_rows
from drill.tui.screens.study import StudyScreen
from drill.tui.screens.study_more import StudyMoreScreen
from drill.tui.screens.summary import SummaryScreen
from drill.tui.widgets.card_view import CardView
from tests.helpers import plain
from tests.tui.conftest import NOW, card_shown, library_of, wait_until

IDS = ("q07", "q01", "q02", "q03")


def _day_used(store, library):
    """Four cards, new_per_day 1, and today's one new card graded Easy (not due again today)."""
    only = library_of([library.cards[cid] for cid in IDS], library)
    store.config = replace(store.config, new_per_day=1, enable_fuzzing=False)
    store.sync_content(only)
    first = store.next_card(NOW)
    store.grade(first.card_id, 4, NOW)
    assert store.next_card(NOW) is None and store.counts(NOW).new_held  # labels first: the limit holds 3
    return only


async def _grade(pilot, screen, rating: int) -> str:
    card_id = screen.card.id
    await pilot.press("space")
    await wait_until(pilot, lambda: screen.query_one(CardView).revealed)
    await pilot.press(str(rating))
    await wait_until(
        pilot, lambda: screen.saving is None and (screen.card is None or screen.card.id != card_id)
    )
    return card_id


async def _add(pilot, app, new: str, reviews: str = "0") -> None:
    await wait_until(pilot, lambda: isinstance(app.screen, StudyMoreScreen))
    app.screen.query_one("#more-new").value = new
    app.screen.query_one("#more-reviews").value = reviews
    await pilot.press("enter")


async def test_plus_on_the_summary_adds_new_cards_and_they_come(study_app, store, library):
    app = study_app(library=_day_used(store, library))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        assert isinstance(screen, StudyScreen)
        await wait_until(pilot, lambda: screen.ended and isinstance(app.screen, SummaryScreen))
        text = plain(screen.query_one("#question"))
        assert "Today's new cards are done (1 a day, 0 added today)" in text
        assert "press +" in text and "drill study --more N" in text
        await pilot.press("plus")  # on the summary: the same key
        await _add(pilot, app, "2")
        await wait_until(pilot, lambda: app.screen is screen and screen.card is not None)
        assert store.counts(NOW).extra_new == 2
        await wait_until(pilot, lambda: "new 2 " in str(screen.header.render()))
        counts = store.counts(NOW)
        assert (counts.new, counts.new_held) == (2, True)
        assert store.next_card(NOW).card_id == screen.card.id  # the screen shows the queue's choice
        graded = [await _grade(pilot, screen, 4), await _grade(pilot, screen, 4)]
        await wait_until(pilot, lambda: screen.ended)
    logs = store.review_logs()
    assert [e.card_id for e in logs[1:]] == graded and all(e.state_before is Phase.NEW for e in logs)
    counts = store.counts(NOW)
    assert (counts.new, counts.new_today, counts.extra_new, counts.new_held) == (0, 3, 2, True)
    assert store.next_card(NOW) is None


async def test_plus_while_studying_then_undo_of_an_extra_card(study_app, store, library):
    only = _day_used(store, library)
    store.config = replace(store.config, new_per_day=2)  # one more left: the screen opens on a card
    app = study_app(library=only)
    async with app.run_test(size=(80, 24)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        await wait_until(pilot, lambda: screen.card is not None)
        assert any("Study more today" in title for title, _help, _action in palette_rows(screen))
        assert any("Study more today" in row for row in map(str, help_rows(screen)))
        await pilot.press("plus")
        await _add(pilot, app, "1")
        await wait_until(pilot, lambda: app.screen is screen)
        await wait_until(pilot, lambda: "new 2 " in str(screen.header.render()))  # 1 left + 1 added
        await _grade(pilot, screen, 4)
        extra = await _grade(pilot, screen, 4)  # the card the addition let in
        await wait_until(pilot, lambda: screen.ended)
        await pilot.press("escape")  # the summary closes
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("u")
        await wait_until(pilot, lambda: screen.card is not None and screen.card.id == extra)
        assert store.counts(NOW).new == 1 and store.next_card(NOW).card_id == extra
    assert [e.card_id for e in store.review_logs()][-1] != extra  # the undone grade is gone


async def test_bad_values_in_the_dialog_are_refused_and_nothing_is_added(study_app, store, library):
    app = study_app(library=_day_used(store, library))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("plus")
        for new, reviews in (("0", "0"), ("-3", "0"), ("", "")):
            await _add(pilot, app, new, reviews)
            await pilot.pause()
            assert isinstance(app.screen, StudyMoreScreen)  # still asking
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert screen.ended and screen.card is None
    counts = store.counts(NOW)
    assert (counts.extra_new, counts.extra_reviews) == (0, 0)


def test_cli_more_adds_to_today_before_the_session(tmp_path, monkeypatch):
    """`drill study --more 3 --more-reviews 2` writes today's extras before the screen opens (the app itself is
    replaced here: the store's row is the oracle), and says what today's limits are."""
    import drill.tui.app as tui_app
    from drill.store import open_store

    started = []

    class NoApp:
        error = None
        study_stats = None

        def run(self):
            started.append(True)

    monkeypatch.setattr(tui_app, "make_app", lambda *a, **k: NoApp())
    env = {"DRILL_DATA_DIR": str(tmp_path), "DRILL_CONFIG_DIR": str(tmp_path / "config")}
    result = CliRunner().invoke(cli_main, ["study", "--more", "3", "--more-reviews", "2"], env=env)
    assert result.exit_code == 0, result.output
    assert started and "(3 and 2 added today)" in result.output
    result = CliRunner().invoke(cli_main, ["study", "--more", "1"], env=env)
    assert result.exit_code == 0 and "(4 and 2 added today)" in result.output
    monkeypatch.setenv("DRILL_DATA_DIR", str(tmp_path))
    with open_store(None, None) as store:
        counts = store.counts(datetime.now(UTC))
        assert (counts.extra_new, counts.extra_reviews) == (4, 2)


def test_cli_refuses_bad_more_values_in_one_line(tmp_path):
    runner = CliRunner()
    env = {"DRILL_DATA_DIR": str(tmp_path)}
    for args, said in (
        (["--more", "0"], "--more"),
        (["--more", "abc"], "--more"),
        (["--more-reviews", "10000"], "--more-reviews"),
        (["--more", "3", "--preview"], "--more: --preview has no daily limit"),
        (["--more-reviews", "3", "--ahead", "2"], "--more-reviews: --ahead has no daily limit"),
    ):
        result = runner.invoke(cli_main, ["study", *args], env=env, prog_name="drill")
        assert result.exit_code == 2, (args, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and said in lines[0] and "Traceback" not in result.output, (args, lines)
    assert not (tmp_path / "drill.sqlite3").exists()  # nothing was written
