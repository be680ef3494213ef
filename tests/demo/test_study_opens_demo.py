"""`d` on the study screen opens the demo of the card's section; escape comes back to the card."""

from __future__ import annotations

from tests.notified import notified
from tests.tui.conftest import (  # noqa: F401 (fixtures)
    card_shown,
    db_url,
    library,
    library_of,
    store,
    study_app,
)

from .conftest import opened, shown


async def test_d_opens_the_sections_demo(study_app, library):  # noqa: F811
    card = library.cards_in_section("7.10")[0]
    app = study_app(library=library_of([card], library))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        assert app.mode_screen.card.id == card.id
        await pilot.press("d")
        screen = await opened(pilot, "softmax")
        assert "exp → sum → normalise" in shown(screen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.mode_screen


async def test_d_says_so_when_the_section_has_no_demo(study_app, library):  # noqa: F811
    card = library.cards_in_section("7.3")[0]
    app = study_app(library=library_of([card], library))
    async with app.run_test(size=(120, 40)) as pilot:
        await card_shown(pilot)
        await pilot.press("d")
        await pilot.pause()
        assert app.screen is app.mode_screen
        assert any("no demo for section 7.3" in n for n in notified(app))
