"""The study screen (question and answer), the quiz screen and the card browser under the pseudo-locale: every
word on screen is inside ⟦…⟧ (drill's own, through the catalog), or the content's (the chapter's text, exempt),
or a key name / number. Reads what the terminal shows: the screen's rendered lines. The other screens (calc,
card info, custom study, help, the palette, toasts, summaries...) are in test_every_screen_pseudo.py, read per
widget with `shown_unmarked` below; the interview, the demos and the code screen beside their own tests."""

from __future__ import annotations

import re

from drill.tui.app import make_app
from drill.tui.widgets.card_view import CardView
from tests.i18n.pseudo import CLOSE, MARKED, OPEN, WORDS, content_strings
from tests.tui.conftest import fixed_quiz, frozen_clock, frozen_timer, library_of, wait_until
from tests.tui.test_snapshots import card_on_screen

KEYS = r"\b(space|enter|esc|ctrl|palette|shift|tab)\b"  # key names (Textual's footer shows "^p palette")
NAMES = r"\bdrill\b|题库|常见误区"  # the program's name; the chapter's own headings (its question bank, its pitfalls)


def engine_names(card) -> str:
    """The engine's identifiers the side pane shows beside its translated words: step names ("weighted_sum"),
    input names ("W_Q"), symbolic shapes ("[S, d_model]"). Names, not words: the same in every language."""
    from drill.engine.examples import build_example

    texts = []
    for example in {ref.split("/")[0] for ref in card.steps}:
        trace = build_example(example)
        for step in trace.steps:
            texts += [step.name, step.shape, *step.inputs]
    return "\n".join(texts)


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def unmarked(text: str, content: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Words outside the markers that the content does not contain."""
    previous = None
    while previous != text:  # markers may span lines: join wrapped lines first
        previous, text = text, MARKED.sub(" ", text)
    text = MARKED.sub(" ", re.sub(r"\n", " ", text))
    for pattern in (KEYS, NAMES, *allowed):
        text = re.sub(pattern, " ", text)
    return [word for word in WORDS.findall(text) if word not in content]


def widget_texts(app) -> dict[object, str]:
    """What each widget on screen draws, as the compositor has it draw (its lines within its visible clip):
    a message wrapped inside one widget reads as one piece even when another widget stands beside it on the
    same rows, and a toast drawn over a line does not cut that line's words in two."""
    from textual.geometry import Region

    texts = {}
    for widget, (region, clip) in app.screen._compositor.visible_widgets.items():
        x, y, width, height = region.intersection(clip)
        if width and height:
            strips = widget.render_lines(Region(x - region.x, y - region.y, width, height))
            texts[widget] = "\n".join(strip.text for strip in strips)
    return texts


# A marked message cut off by its widget's right edge (a no-wrap label, an ellipsis): its ⟦ is the last one on
# its line and no ⟧ follows there. What follows on the next line is checked as usual.
CUT_OFF = re.compile(f"{OPEN}[^{OPEN}{CLOSE}\n]*$", re.M)


def is_content(word: str, content: str, content_words: set[str]) -> bool:
    """A Latin word is content when the content has it as a word (not merely inside a longer one: "key" is
    not content because "keys" is); Chinese text has no spaces and wraps anywhere, so a run of it counts as
    content when the content contains it."""
    if word in content_words:
        return True
    return not word.isascii() and not LATIN_WORD.fullmatch(word) and word in content


LATIN_WORD = re.compile(r"[A-Za-zÀ-ɏ]+")


def shown_unmarked(app, content: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Every word on screen that is drill's own but not through the catalog, as "widget: word"; asserts that
    the screen shows at least one marked string (so a screen that is not in the pseudo-locale cannot pass)."""
    content_words = set(WORDS.findall(content))
    found, marked = [], False
    for widget, text in widget_texts(app).items():
        marked = marked or OPEN in text
        previous = None
        while previous != text:
            previous, text = text, MARKED.sub(" ", text)
        # A cell cut short ends in "…": a word cut there is content when a content word starts with it
        text = re.sub(
            r"(\w+)…",
            lambda m: " " if any(w.startswith(m.group(1)) for w in content_words) else m.group(0),
            text,
        )
        words = unmarked(CUT_OFF.sub(" ", text), "", allowed)
        found += [f"{widget!r}: {word}" for word in words if not is_content(word, content, content_words)]
    assert marked, "nothing on screen went through the catalog"
    return found


def rendered_content(library) -> str:
    from drill.content.latex import render_text

    strings = content_strings(library)
    return "\n".join([*strings, *(render_text(s) for s in strings)])


async def test_study_screen_speaks_only_through_the_catalog(pseudo, library, store):
    card = library.cards["q05"]
    app = make_app(
        "study", library=library_of([card], library), store=store, clock=frozen_clock, timer=frozen_timer
    )
    content = rendered_content(library) + engine_names(card)
    async with app.run_test(size=(120, 40)) as pilot:
        await card_on_screen(pilot)
        assert "⟦" in screen_text(app)
        assert unmarked(screen_text(app), content) == []
        assert shown_unmarked(app, content) == []  # per widget, Latin words whole
        await pilot.press("space")
        await wait_until(pilot, lambda: app.screen.query_one(CardView).revealed)
        await pilot.pause()
        assert unmarked(screen_text(app), content) == []
        assert shown_unmarked(app, content) == []


async def test_quiz_screen_speaks_only_through_the_catalog(pseudo, library, store):
    app = fixed_quiz(library, store)
    content = rendered_content(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: getattr(app.mode_screen, "run", None) is not None)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert unmarked(screen_text(app), content, allowed=(r"\b[A-E]\b",)) == []
        assert shown_unmarked(app, content, (r"\b[A-E]\b",)) == []


async def test_browser_speaks_only_through_the_catalog(pseudo, library, store):
    """The card browser: its column headings, filters' prompts, status line and footer; the cards' ids,
    sections and questions are the content's."""
    from drill.tui.models.sections import section_titles

    cards = [library.cards[card_id] for card_id in ("q05", "q07", "q24")]
    app = make_app(
        "study", library=library_of(cards, library), store=store, clock=frozen_clock, timer=frozen_timer
    )
    content = (
        rendered_content(library) + "\n".join(section_titles(library).values()) + "\n".join(library.cards)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await card_on_screen(pilot)
        await pilot.press("slash")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "BrowserScreen")
        await pilot.pause()
        text = screen_text(app)
        assert "q24" in text and "⟦" in text
        assert unmarked(text, content) == []
        assert shown_unmarked(app, content) == []


async def test_generated_questions_and_the_feedback_on_a_wrong_answer_speak_only_through_the_catalog(
    pseudo, library, store
):
    """A quiz of 24 generated questions (one of each template: a quiz draws every template once before any
    twice), each answered wrong: the question and its options, then the feedback (the right answer, the mistake
    behind the option chosen, the explanation). Exempt: the mistakes' ids and wordings (the chapter's words when
    verbatim; a marked own wording's LaTeX groups look like placeholders to the marker, so its rendered math
    splits the marks: tests/i18n/test_mistake_wordings.py checks those marks) and the name of the function a
    positional-encoding dimension uses (sin, cos)."""
    from drill.content.latex import render_text
    from drill.content.quizgen import TEMPLATES
    from drill.engine.mistakes import MISTAKES
    from drill.tui.screens.quiz import QuizScreen
    from tests.helpers import plain

    app = fixed_quiz(library_of([], library), store, generated=len(TEMPLATES))
    # content (the pack's id), the catalogue of mistakes (ids, and wordings as a note shows them) and names
    exempt = "\n".join(
        [rendered_content(library), *MISTAKES]
        + [render_text(m.wording).replace("**", "").replace("`", "") for m in MISTAKES.values()]
    )
    allowed = (r"\b[A-D]\b", r"\b(sin|cos)\b")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: getattr(app.mode_screen, "run", None) is not None)
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.mode_screen
        assert isinstance(screen, QuizScreen)
        assert {item.question.topic for item in screen.run.items} == set(TEMPLATES)
        for item in screen.run.items:
            await wait_until(pilot, lambda item=item: screen.item is item and screen.answered is None)
            await pilot.pause()
            assert unmarked(screen_text(app), exempt + "\n" + item.id, allowed) == [], item.question.topic
            wrong = next(iter(item.question.mistakes))
            await pilot.press(wrong.lower())
            await wait_until(pilot, lambda: screen.answered is not None)
            await pilot.pause()
            feedback = plain(screen.query_one("#quiz-feedback"))
            assert item.question.mistakes[wrong] in feedback
            assert unmarked(feedback, exempt + "\n" + item.id, allowed) == [], item.question.topic
            assert unmarked(screen_text(app), exempt + "\n" + item.id, allowed) == [], item.question.topic
            await pilot.press("enter")
