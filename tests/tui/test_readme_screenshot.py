"""The README's screenshot (docs/study.svg) is a real study screen, made by a pilot run of the app.

Regenerate it with ``DRILL_UPDATE_SCREENSHOT=1 pytest tests/tui/test_readme_screenshot.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import card_shown, library_of, wait_until

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "study.svg"


async def test_readme_screenshot_is_the_study_screen(study_app, library, tmp_path):
    card = library.cards["q10"]
    app = study_app(library=library_of([card], library))
    async with app.run_test(size=(120, 34)) as pilot:
        await card_shown(pilot)
        await wait_until(pilot, lambda: bool(app.mode_screen.query("StudyFooter")))
        await pilot.press("space", "right")
        await wait_until(pilot, lambda: app.screen.query_one(CardView).revealed)
        await pilot.pause()
        target = SCREENSHOT if os.environ.get("DRILL_UPDATE_SCREENSHOT") else tmp_path / "study.svg"
        app.save_screenshot(filename=target.name, path=str(target.parent))
    made = target.read_text(encoding="utf-8").replace("&#160;", " ")  # the screenshot this run just made
    assert made.startswith("<svg")
    # The card, its answer, the step pane and the grade bar, as the screen drew them.
    for text in ("Again", "Hard", "Good", "Easy", "q10", "step", "Steps pane", card.question[:4]):
        assert text in made, text
    # The committed screenshot is one such screen too (regenerate it with DRILL_UPDATE_SCREENSHOT=1).
    committed = SCREENSHOT.read_text(encoding="utf-8")
    assert all(label in committed for label in ("Again", "Hard", "Good", "Easy", "q10"))
