"""`drill interview` for real: on a pseudo-terminal the shell paints before sqlalchemy is imported and the first
question follows; bad options and an empty section exit 2 with one line; the config's settings are used."""

from __future__ import annotations

import os
import re

from click.testing import CliRunner

from drill.cli import cli as cli_main
from drill.srs.config import load_config, set_value
from drill.tui.app import make_app
from drill.tui.keys import binding_key
from tests.interview.pilot import interview_app, phase
from tests.tui.conftest import ptyrun


def test_interview_paints_before_sqlalchemy_then_asks(tmp_path):
    args = ["interview", "--seed", "1", "--questions", "2"]
    held = ptyrun().HeldTerminal(
        args, dict(os.environ), tmp_path / "loaded", size=(100, 30), heavy=("sqlalchemy",)
    )
    with held as term:
        term.wait_for("drill interview")  # the shell, drawn while sqlalchemy cannot be imported
        assert term.loaded() == set() and "question 1/" not in term.text()
        term.release()
        term.wait_for(re.compile(r"question 1/2"))
        assert term.loaded() == {"sqlalchemy"}
        term.press("\x11", pause=0)  # ctrl+q
        term.wait_for_exit()
    assert term.result.code == 0


def test_an_empty_section_is_one_error_line_and_exit_2():
    reader = ptyrun()
    argv = [reader.drill_command(), "interview", "--section", "9.99"]
    with reader.Terminal(argv, dict(os.environ), size=(100, 30)) as term:
        term.wait_for_exit()
    assert term.result.code == 2


def test_bad_options_exit_2():
    runner = CliRunner()
    for args, name in (
        (["--questions", "0"], "--questions"),
        (["--minutes", "0"], "--minutes"),
        (["--follow-up", "2"], "--follow-up"),
    ):
        result = runner.invoke(cli_main, ["interview", *args])
        assert result.exit_code == 2 and name in result.output and "Traceback" not in result.output


def test_help_lists_the_command_and_its_settings():
    result = CliRunner().invoke(cli_main, ["interview", "--help"])
    assert result.exit_code == 0
    assert "ui.rubric_good" in result.output and "--aloud" in result.output
    assert "interview" in CliRunner().invoke(cli_main, ["--help"]).output


async def test_the_config_sets_the_budget_the_follow_up_and_the_thresholds(library, store):
    set_value("ui.interview_minutes", "2.5")
    set_value("ui.interview_follow_up", "1")
    set_value("ui.rubric_good", "0.5")
    store.config = load_config()
    app = interview_app(library, store, minutes=None, follow_up=None)
    async with app.run_test(size=(100, 30)) as pilot:
        await phase(pilot, "asking")
        s = app.mode_screen.settings
        assert (s.minutes, s.follow_up, s.thresholds.good) == (2.5, 1.0, 0.5)
        assert app.mode_screen.query_one("#countdown").total == 150


async def test_help_and_palette_follow_the_bindings(library, store):
    from drill.tui.screens.help import HelpScreen
    from tests.tui.conftest import wait_until

    app = interview_app(library, store)
    async with app.run_test(size=(120, 40)) as pilot:
        await phase(pilot, "asking")
        screen = app.mode_screen
        screen.set_focus(None)  # out of the editor: "?" is a key, not a character
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        shown = app.screen.rows
        from tests.tui.test_keys import expected_help, offered

        assert shown == expected_help(screen)  # recomputed from BINDINGS by the test, not by drill.tui.keys
        assert {  # written out by hand
            ("ctrl+d / space", "Done — stop the clock: on to the rubric"),
            ("ctrl+t", "Typed/aloud"),
            ("ctrl+q", "Quit — the graded questions are saved"),
        } <= set(shown)
        for binding in offered(screen):
            assert any(binding_key(binding) in keys.split(" / ") for keys, _text in shown), binding
        # the rubric's keys act only in the rubric: not offered while answering (as in the footer)
        assert not any(keys.split(" / ")[0] in ("1", "4") for keys, _text in shown), shown


def test_make_app_knows_the_interview_mode():
    assert make_app("interview").mode_name == "interview"
