"""Text is text: card content is never parsed as markup and never reaches the terminal as control codes."""

from __future__ import annotations

import textwrap

from rich.cells import cell_len

from drill.content import load_content
from drill.tui.text import visible
from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import card_shown, library_of, make_card, wait_until

MARKUP = "[bold]bold?[/] [@click=app.quit]quit?[/] [red]red?"


def screen_text(app) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def find_on_screen(app, needle: str) -> tuple[int, int] | None:
    """(x, y) in cells of the first occurrence of ``needle`` on screen."""
    for y, line in enumerate(screen_text(app)):
        index = line.find(needle)
        if index >= 0:
            return cell_len(line[:index]), y
    return None


def write_pack(tmp_path):
    pack = tmp_path / "markup-pack"
    pack.mkdir()
    (pack / "questions.yaml").write_text(
        textwrap.dedent(
            f"""\
            pack: markup-test
            title: markup test
            cards:
              - id: m01
                section: "7.9"
                tags: [markup]
                question: 'Q {MARKUP}'
                answer: |
                  A {MARKUP}

                  second paragraph [link](https://example.invalid) and [@click=app.bell]bell[/]
                pitfalls:
                  - 'P {MARKUP}'
            """
        ),
        encoding="utf-8",
    )
    return pack


async def test_markup_in_loaded_content_shows_literally_and_does_nothing(tmp_path, store, study_app):
    library = load_content(write_pack(tmp_path))
    app = study_app(library=library)
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        assert app.mode_screen.card.id == "m01"
        await pilot.press("space")
        await wait_until(pilot, lambda: app.screen.query_one(CardView).revealed)
        await pilot.pause()
        lines = "\n".join(screen_text(app))
        for prefix in ("Q ", "A ", "P "):
            assert f"{prefix}[bold]bold?[/] [@click=app.quit]quit?[/] [red]red?" in lines
        # Click right on the would-be action: nothing happens, the app keeps running.
        for prefix in ("Q ", "A ", "P "):
            x, y = find_on_screen(app, prefix + "[bold]")
            await pilot.click(offset=(x + len(prefix) + 14, y))
            await pilot.pause()
            assert app.is_running
        x, y = find_on_screen(app, "[@click=app.bell]")
        await pilot.click(offset=(x + 3, y))
        await pilot.pause()
        assert app.is_running and app.return_value is None


async def test_escape_bytes_never_reach_the_terminal(library, store, study_app):
    # The loader rejects control characters; build the card in code to prove the widget layer is safe too.
    card = make_card("esc01", "red \x1b[31mRED\x1b[0m " + MARKUP, "answer \x1b]0;title\x07 \x1b[2J done")
    app = study_app(library=library_of([card], library))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        await pilot.press("space")
        await wait_until(pilot, lambda: app.screen.query_one(CardView).revealed)
        await pilot.pause()
        lines = "\n".join(screen_text(app))
        assert "\x1b" not in lines and "\x07" not in lines
        assert "red ␛[31mRED␛[0m [bold]bold?[/]" in lines
        assert "[@click=app.quit]quit?[/] [red]red?" in lines
        assert "␛]0;title␇ ␛[2J done" in lines
        assert app.is_running


def test_visible_replaces_every_control_character():
    assert visible("a\x1bb\x00c\x7fd\x9be\n\tf") == "a␛b␀c␡d\\x9be\n\tf"
    assert visible("普通 [bold] text") == "普通 [bold] text"
