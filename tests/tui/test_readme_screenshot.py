"""The README's screenshot (docs/study.svg) is a real study screen, made by a pilot run of the app, and it is
the screen drill draws today: the test makes it again and compares the two, so a change to the study screen's
look that leaves the README's picture behind fails here.

Regenerate it with ``DRILL_UPDATE_SCREENSHOT=1 pytest tests/tui/test_readme_screenshot.py`` (then look at it).
"""

from __future__ import annotations

import os
from pathlib import Path

from drill.tui.widgets.card_view import CardView
from tests.tui.conftest import card_shown, library_of, wait_until
from tests.tui.screenshots import screen_lines

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
        app.save_screenshot(filename="study.svg", path=str(tmp_path))
    made = (tmp_path / "study.svg").read_text(encoding="utf-8")  # the screenshot this run just made
    assert made.startswith("<svg")
    text = "\n".join(screen_lines(made, 120))  # as the screen shows it (Chinese is a <text> a character)
    # The card, its answer, the step pane, the grade bar and the footer, as the screen drew them.
    expected = ("Again", "Hard", "Good", "Easy", "q10", "step 2/", "Steps pane", "palette", card.question[:4])
    for shown in expected:
        assert shown in text, shown
    if os.environ.get("DRILL_UPDATE_SCREENSHOT"):
        SCREENSHOT.write_text(made, encoding="utf-8")
    assert SCREENSHOT.read_text(encoding="utf-8") == made, (
        "docs/study.svg is not the study screen drill draws now: regenerate it with "
        "DRILL_UPDATE_SCREENSHOT=1 pytest tests/tui/test_readme_screenshot.py, and look at it"
    )
