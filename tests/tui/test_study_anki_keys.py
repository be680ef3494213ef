"""The study screen as Anki's users expect it (issue 28): Anki's keys (ctrl+z undo, - bury, @ suspend) in
BINDINGS and so in help; PgUp/PgDn listed; nothing of a card left on screen once the queue is empty; the grade
buttons keep their intervals at 60×20 in Chinese; the header keeps the readiness at 80 columns and leaves out
what does not fit whole instead of cutting it."""

from __future__ import annotations

from textual.app import App, ComposeResult

from drill.content.skills import CALCULATE
from drill.i18n import set_language
from drill.tui.keys import help_rows
from drill.tui.screens.study import StudyScreen
from drill.tui.screens.summary import SummaryScreen
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.grade_bar import GradeBar, GradeButton
from drill.tui.widgets.header import StudyHeader
from tests.helpers import plain
from tests.tui.conftest import NOW, card_shown, library_of, wait_until
from tests.tui.test_text_is_text import screen_text


def help_keys() -> dict[str, str]:
    return {keys: text for keys, text in help_rows(StudyScreen.__new__(StudyScreen))}


def test_help_lists_ankis_keys_and_page_up_down():
    set_language("en")
    rows = help_keys()
    assert rows["u / ctrl+z"].startswith("Undo")
    assert rows["s / @"].startswith("Suspend")
    assert rows["b / -"].startswith("Bury")
    assert "PgUp" in rows and "PgDn" in rows


async def test_ctrl_z_undoes_the_last_grade(study_app, store):
    app = study_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        first = screen.card.id
        await pilot.press("space")
        await wait_until(pilot, lambda: screen.revealed)
        await pilot.press("3")
        await wait_until(pilot, lambda: len(store.review_logs()) == 1 and screen.card.id != first)
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: store.review_logs() == [])
        assert screen.card.id == first


async def test_minus_buries_and_at_suspends(study_app, store):
    app = study_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        first = screen.card.id
        await pilot.press("minus")
        await wait_until(pilot, lambda: screen.card is not None and screen.card.id != first)
        second = screen.card.id
        await pilot.press("at")
        await wait_until(pilot, lambda: screen.card is not None and screen.card.id != second)
    rows = {row.card_id: row for row in store.browse(now=NOW)}
    assert rows[first].buried and not rows[first].suspended
    assert rows[second].suspended


async def test_page_down_scrolls_the_card_when_the_focus_is_elsewhere(study_app, library):
    long = library.cards["q07"]
    app = study_app(library=library_of([long], library))
    async with app.run_test(size=(60, 20)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        await pilot.press("space")
        await wait_until(pilot, lambda: screen.revealed)
        view = screen.query_one(CardView)
        await wait_until(pilot, lambda: view.max_scroll_y > 0)
        screen.set_focus(None)
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: view.scroll_y > 0)
        await pilot.press("pageup")
        await wait_until(pilot, lambda: view.scroll_y == 0)


async def test_an_empty_queue_leaves_no_grade_and_no_steps_on_screen(study_app, library):
    only = library_of([library.cards["q01"]], library)
    app = study_app(library=only)
    async with app.run_test(size=(120, 30)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        await pilot.press("p")  # the steps pane asked for: it still goes once no card is left
        await pilot.press("space")
        await wait_until(pilot, lambda: screen.revealed)
        await pilot.press("4")
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.pause()
        text = "\n".join(screen_text(app))
        assert "No more cards for now." in text
        assert "Again ·" not in text and "Easy ·" not in text and "Show answer" not in text
        assert "This card names no engine steps." not in text
        assert not screen.query_one(GradeBar).enabled


async def test_chinese_grade_buttons_keep_their_intervals_at_60x20(study_app):
    set_language("zh_CN")
    app = study_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        await pilot.press("space")
        await wait_until(pilot, lambda: screen.revealed)
        await pilot.pause()
        intervals = screen.session.intervals(screen.card.id)
        from drill.srs.scheduler import format_interval

        lines = screen_text(app)
        bar = screen.query_one(GradeBar)
        rows = lines[bar.region.y : bar.region.y + bar.region.height]
        drawn = "\n".join(rows)
        for button in bar.query(GradeButton):
            label = format_interval(intervals[button.rating])
            assert f"{button.rating} · {label}" in drawn or f"· {label}" in plain(button), plain(button)
            assert label in drawn and "…" not in drawn  # whole, not cut
        for name in ("重来", "困难", "良好", "简单"):
            assert name in drawn  # the names stay too (on the border when the button is narrow)


class HeaderApp(App):
    def compose(self) -> ComposeResult:
        yield StudyHeader(lambda: 0.0, id="header")


async def _header_text(width: int) -> str:
    set_language("en")
    app = HeaderApp()
    async with app.run_test(size=(width, 5)) as pilot:
        header = app.query_one(StudyHeader)
        header.set_counts(pack="Transformer chapter 7 (drill pack)", new=12, learning=3, review=40, done=7)
        header.set_interview((13, 0.62, (CALCULATE, 0.31)))
        await pilot.pause()
        return screen_text(app)[0]


async def test_the_header_keeps_the_readiness_at_80_columns():
    line = await _header_text(80)
    assert "new 12 · learning 3 · review 40" in line
    assert "if you stop now: 62%" in line
    assert "…" not in line


async def test_the_header_at_120_leaves_out_what_does_not_fit_whole():
    line = await _header_text(120)
    assert "if you stop now: 62%" in line and "weakest Calculate 31%" in line and "▕" in line
    assert not line.rstrip().endswith("drill ·") and "…" not in line
    wide = await _header_text(200)
    assert "drill · Transformer chapter 7 (drill pack)" in wide and "session 00:00" in wide
