"""The interview screen under the pseudo-locale: every word on screen — question, rubric, scorecard — is inside
⟦…⟧ (drill's own, through the catalog), or the chapter's text, or a key name / number."""

from __future__ import annotations

from tests.i18n.test_screens_pseudo import rendered_content, screen_text, unmarked
from tests.interview.pilot import ManualTimer, interview_app, phase

COMMAND = (r"\binterview(?=\s+·)",)  # the header names the command as typed ("drill" is exempt already)


async def test_the_interview_speaks_only_through_the_catalog(pseudo, library, store):
    timer = ManualTimer()
    app = interview_app(library, store, timer, questions=2)
    from drill.content.misconceptions import load_misconceptions

    # drill's wording of the misconceptions is data (data/misconceptions.yaml, zh and en), like errata notes
    book = load_misconceptions(library)
    content = rendered_content(library) + "".join(
        f"\n{m.wrong_zh}\n{m.wrong_en}" + "".join("\n" + c.text for c in m.corrections) for m in book.items
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await phase(pilot, "asking")
        assert "⟦" in screen_text(app)
        assert unmarked(screen_text(app), content, COMMAND) == []
        app.mode_screen.query_one("#iv-answer").insert("答案")
        await pilot.press("ctrl+d")
        await phase(pilot, "rubric")
        assert unmarked(screen_text(app), content, COMMAND) == []
        await pilot.press("space", "enter")
        await phase(pilot, "asking")
        timer.now = 400
        app.mode_screen.query_one("#countdown").check()
        await phase(pilot, "rubric")
        await pilot.press("enter")
        await phase(pilot, "done")
        for toast in app.query("Toast"):
            toast.remove()
        await pilot.pause()
        assert unmarked(screen_text(app), content + "答案", COMMAND) == []
