"""Help and the command palette list each mode's real keys: both are derived from the screen's BINDINGS."""

from __future__ import annotations

import ast

import pytest
from textual.binding import Binding

from drill.tui.app import make_app
from drill.tui.keys import binding_key, key_rows, palette_rows
from drill.tui.screens.help import HelpScreen
from tests.tui.conftest import wait_until


def test_bindings_that_run_one_action_are_one_row():
    rows = key_rows(
        [
            Binding("space", "reveal", "Show answer"),
            Binding("enter", "reveal", "Show answer", show=False),
            Binding("question_mark", "help", "Help", key_display="?", tooltip="this list"),
        ]
    )
    assert [(r.keys, r.action, r.description, r.tooltip) for r in rows] == [
        ("space / enter", "reveal", "Show answer", ""),
        ("?", "help", "Help", "this list"),
    ]


def ready(app) -> bool:
    screen = app.mode_screen
    return app.error is not None or any(
        getattr(screen, name, None) is not None for name in ("card", "run", "model")
    )


def offered(screen) -> list[Binding]:
    """The screen's bindings its check_action does not hide now (False), as the footer shows them; the
    action's name and parameters split here by hand ("flag(3)" -> "flag", (3,); "answer('A')" -> ('A',))."""
    out = []
    for b in type(screen).BINDINGS:
        if not isinstance(b, Binding):
            continue
        name, _, args = b.action.partition("(")
        params = ast.literal_eval(f"({args[:-1]},)") if args.strip(")") else ()
        if screen.check_action(name, params) is not False:
            out.append(b)
    return out


def expected_help(screen) -> list[tuple[str, str]]:
    """The help screen's rows recomputed here from the screen's BINDINGS (not by drill.tui.keys): one row per
    action the screen offers now, in the order first declared, its keys joined by " / " (key_display where
    given), the description and " — tooltip"; then the screen's HELP_NOTES; then the app's two keys, written
    out by hand."""
    rows: dict[str, list] = {}
    for b in offered(screen):
        rows.setdefault(b.action, [[], b])[0].append(b.key_display or b.key)
    out = [
        (" / ".join(keys), first.description + (f" — {first.tooltip}" if first.tooltip else ""))
        for keys, first in rows.values()
    ]
    out += list(getattr(screen, "HELP_NOTES", ()))
    return out + [("ctrl+p", "Command palette (every action above)"), ("ctrl+c", "Quit (nothing is lost)")]


# Rows of each mode's help written out by hand, as a learner reads them (English UI).
HAND_WRITTEN = {
    "study": [("space / enter", "Show answer"), ("u / ctrl+z", "Undo"), ("?", "Help")],  # before the answer
    "quiz": [
        ("enter / space", "Next — the next question after the feedback"),
        ("type + enter", "Answer a numeric question (checked to the stated tolerance)"),
        ("q", "Quit — the answers given so far are saved"),
    ],
    "calc": [
        ("←", "Prev step — ↑/↓ in the step list too"),
        ("c", "Causal — the causal mask on/off (future keys get −∞)"),
        ("r", "Random — random inputs of the same shapes"),
    ],
}


@pytest.mark.parametrize("mode", ["study", "quiz", "calc"])
async def test_help_and_palette_follow_the_bindings(mode):
    app = make_app(mode)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: ready(app))
        assert app.error is None, app.error
        screen = app.mode_screen
        bindings = offered(screen)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        shown = app.screen.rows
        assert shown == expected_help(screen)
        assert set(HAND_WRITTEN[mode]) <= set(shown)
        assert shown[-2:] == [
            ("ctrl+p", "Command palette (every action above)"),
            ("ctrl+c", "Quit (nothing is lost)"),
        ]
        for binding in bindings:  # every key offered now, with what it does, is on the help screen
            assert any(
                binding_key(binding) in keys.split(" / ") and binding.description in text
                for keys, text in shown
            ), binding
        assert {"ctrl+p", "ctrl+c"} <= {keys for keys, _text in shown}
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        # The palette offers each action once, titled with its description and the keys that run it.
        palette = palette_rows(screen)
        assert sorted(action for _t, _h, action in palette) == sorted({b.action for b in bindings})
        for title, help_text, action in palette:
            keys = [binding_key(b) for b in bindings if b.action == action]
            assert help_text == "key " + " / ".join(keys)
            assert title.startswith(screen.PALETTE_GROUP + ": ")
