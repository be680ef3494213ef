"""Every other screen of drill under the pseudo-locale (issue 13 §1): calc (every step of several examples, the
switches, the editor and its refusals), the hand-calculation card, card info with a history, custom study in
each of its modes, the interview date, help, the command palette (Textual's own commands and words too), the
toasts of the study actions, the end of a session and the nothing-due screen, the quiz's loading shell and
its score screen, the interview's loading shell. Each state checked shows at least one ⟦marked⟧ string, and
every other word on screen is the content's (the chapter's text, exempt), an engine name or a key name.

What the terminal shows is read per widget (`shown_unmarked`): toasts and dialogs are drawn on the screen, so
they are read there too. The last test shows the checker catches an unmarked label.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from textual.command import CommandList
from textual.widgets import Input, OptionList, Select, Static

from drill.tui.app import make_app
from drill.tui.models.custom_study import StudyFilter
from tests.i18n.test_screens_pseudo import rendered_content, shown_unmarked, widget_texts
from tests.tui.conftest import NOW, fixed_quiz, frozen_clock, frozen_timer, library_of, wait_until
from tests.tui.test_calc import calc_ready
from tests.tui.test_snapshots import card_on_screen

# The header names the command as typed ("drill calc · S=3 …"; "drill" is exempt already).
CALC_COMMAND = r"\bcalc\b(?= ·)"
# The interview date's input shows the format it needs, as ISO writes it in every language.
DATE_FORMAT = r"\bYYYY-MM-DD\b"
OPTION_LETTERS = r"\b[A-E]\b"  # a quiz's options are lettered A-E in every language
# The help lists each key by its name as Textual spells it: "escape" is a key name, like "space" or "enter";
# PgUp / PgDn are the page keys' names as the study screen's BINDINGS display them (key_display).
KEY_NAMES = r"(?<![\w-])(?:escape|PgUp|PgDn)(?![\w-])"
# The interview's header names the command as typed ("drill interview · …").
INTERVIEW_COMMAND = r"\binterview(?=\s+·)"


def study_app(library, store, cards: list[str] | None = None, **options):
    chosen = library if cards is None else library_of([library.cards[c] for c in cards], library)
    return make_app(
        "study",
        library=chosen,
        store=store,
        clock=frozen_clock,
        timer=frozen_timer,
        **options,
    )


def on_top(app, name: str) -> bool:
    return type(app.screen).__name__ == name


def toasts(app) -> str:
    """The toasts' text as the terminal shows it."""
    return " ".join(text for widget, text in widget_texts(app).items() if type(widget).__name__ == "Toast")


async def dismiss_toasts(pilot) -> None:
    pilot.app.clear_notifications()
    await pilot.pause()


def pane_names(card) -> list[str]:
    """The engine's names the study screen's side pane shows for ``card``: each step's name, inputs, symbolic
    shape and formula (rendered as the pane renders it) -- the same in every language."""
    from drill.content.latex import render_latex
    from drill.engine.examples import build_example

    examples = {ref.split("/")[0] for ref in card.steps} | (
        {card.example} if hasattr(card, "example") else set()
    )
    texts = []
    for example in sorted(examples):
        for step in build_example(example).steps:
            texts += [step.name, step.shape, *step.inputs, render_latex(step.shape)]
            if step.formula:
                texts += [step.formula, render_latex(step.formula)]
    return texts


def study_content(library, *cards: str) -> str:
    """The content (the chapter's text, the sections' titles) and the engine's names for ``cards``."""
    from drill.tui.models.sections import section_titles

    names = [name for card in cards for name in pane_names(library.cards[card])]
    return "\n".join([rendered_content(library), *section_titles(library).values(), *names])


# --- calc ----------------------------------------------------------------------------------------------------


def trace_names(screen) -> str:
    """The engine's names the calc screen shows beside its words: step names, inputs, symbolic shapes and the
    rendered formulas (the chapter's notation)."""
    texts = [screen.trace.example or ""]  # the example's name, as `drill calc --example` takes it
    for step in screen.trace.steps:
        texts += [step.name, step.shape, *step.inputs]
    return "\n".join([*texts, *screen._formulas.values()])


@pytest.mark.parametrize(
    "example",
    ["worked", "softmax", "mha", "gqa", "padding_batch", "cross", "layernorm", "rope"],
    ids=str,
)
async def test_calc_every_step(pseudo, example):
    """Every step of the example: title, formula, shape, explanation, the inputs' and output's labels (heads
    named), the softmax example's exponentials and row sums, a fixed example's header."""
    app = make_app("calc", example=example)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await calc_ready(pilot)
        for index in range(len(screen.trace.steps)):
            await wait_until(pilot, lambda index=index: screen.index == index)
            await pilot.pause()
            assert shown_unmarked(app, trace_names(screen), (CALC_COMMAND,)) == [], screen.trace.steps[index]
            await pilot.press("right")


async def test_calc_switches_the_editor_and_its_refusals(pseudo):
    app = make_app("calc", example="worked")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await calc_ready(pilot)

        def clean() -> list[str]:
            return shown_unmarked(app, trace_names(screen), (CALC_COMMAND,))

        await pilot.press("c", "p")
        await wait_until(pilot, lambda: screen.model.state.causal and screen.model.state.pad is not None)
        assert clean() == []
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.model.state.heads == 2)
        assert clean() == []

        await pilot.press("e")
        field = screen.query_one("#edit-W_Q", Input)
        message = screen.query_one("#editor-message", Static)
        await wait_until(pilot, lambda: screen.query_one("#edit-X", Input).has_focus)
        assert clean() == []
        for name, typed in (("W_Q", "1,0;1,x"), ("W_Q", "1,0;0"), ("X", "1,0,1;1,0,1"), ("pad", "1,0")):
            field = screen.query_one(f"#edit-{name}", Input)
            field.value = typed
            field.focus()
            await pilot.press("enter")
            await wait_until(pilot, lambda: message.display)
            await pilot.pause()
            assert clean() == [], typed
        await pilot.press("escape")

    app = make_app("calc", example="layernorm")  # a fixed example: no editor, no switches
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await calc_ready(pilot)
        for key in ("e", "c"):
            await pilot.press(key)
            await wait_until(pilot, lambda: "⟦" in toasts(app))
            assert shown_unmarked(app, trace_names(screen), (CALC_COMMAND,)) == []
            await dismiss_toasts(pilot)


async def test_hand_calculation_card(pseudo, library, store):
    card = library.cards["c7.12-a11"]
    # The element asked, named as the chapter names it (A₁₁), and the engine's names in the side pane.
    content = study_content(library, card.id) + "\n" + card.element
    app = study_app(library, store, [card.id])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await card_on_screen(pilot)
        assert shown_unmarked(app, content) == []
        await pilot.press("space")
        await wait_until(pilot, lambda: on_top(app, "CalcCardScreen"))
        await pilot.pause()
        assert shown_unmarked(app, content) == []
        await pilot.press("0", ".", "5", "enter")
        result = app.screen.query_one("#calc-card-result", Static)
        await wait_until(pilot, lambda: "0.198" in str(result.render()))
        assert shown_unmarked(app, content) == []
        await pilot.press("2")  # another grade proposed
        await pilot.pause()
        assert shown_unmarked(app, content) == []


# --- study: its dialogs, toasts and ends ------------------------------------------------------------------------


async def test_the_side_panes_softmax_intermediates(pseudo, library, store):
    """q08's pane, every step: the worked example's softmax worked as the chapter works it (① the
    exponentials, ② the row sums) with its erratum notes, then the softmax example's step."""
    app = study_app(library, store, ["q08"])
    content = study_content(library, "q08")
    async with app.run_test(size=(140, 60), notifications=True) as pilot:
        await card_on_screen(pilot)
        await pilot.press("space")
        await wait_until(pilot, lambda: app.screen.query_one("#answer").display)
        await pilot.pause()
        shown, seen = None, []
        while True:
            text = "\n".join(widget_texts(app).values())
            if text == shown:
                break  # the last step: → changes nothing
            shown = text
            seen.append("①" in text and "②" in text)
            assert shown_unmarked(app, content) == [], len(seen)
            await pilot.press("right")
            await pilot.pause()
        assert any(seen) and len(seen) >= len(library.cards["q08"].steps)


async def test_card_info_with_a_history(pseudo, library, store):
    store.sync_content(library)
    store.grade("q05", 3, NOW - timedelta(days=3))
    store.grade("q05", 1, NOW - timedelta(days=1))
    store.suspend("q07")
    app = study_app(library, store, ["q05"])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await card_on_screen(pilot)
        await pilot.press("i")
        await wait_until(pilot, lambda: on_top(app, "CardInfoScreen"))
        await pilot.pause()
        shown = widget_texts(app)[app.screen.query_one("#card-info", Static)]
        assert shown.count(" → ") >= 2  # the history: a row per review
        assert shown_unmarked(app, study_content(library, "q05")) == []


async def test_custom_study_in_each_mode(pseudo, library, store):
    store.sync_content(library)
    store.grade("q05", 1, NOW - timedelta(hours=1))  # forgotten today
    store.grade("q07", 4, NOW - timedelta(days=1))  # due within days: review ahead
    content = study_content(library, *library.cards)
    app = study_app(library, store)

    async def open_dialog(pilot) -> None:
        await pilot.press("c")
        await wait_until(pilot, lambda: on_top(app, "CustomStudyScreen"))
        await pilot.pause()

    async def choose(pilot, index: int, section: str | None = None) -> None:
        if section is not None:
            app.screen.query_one("#custom-section", Select).value = section
        options = app.screen.query_one("#custom-choices", OptionList)
        options.focus()
        options.highlighted = index
        await pilot.press("enter")

    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await card_on_screen(pilot)
        await open_dialog(pilot)
        assert shown_unmarked(app, content) == []
        await choose(pilot, 0)  # this section, with none chosen: a toast
        await wait_until(pilot, lambda: "⟦" in toasts(app))
        assert shown_unmarked(app, content) == []
        await dismiss_toasts(pilot)
        app.screen.query_one("#custom-days", Input).value = "0"
        await choose(pilot, 1)  # review ahead 0 days: a toast
        await wait_until(pilot, lambda: "⟦" in toasts(app))
        assert shown_unmarked(app, content) == []
        await dismiss_toasts(pilot)
        app.screen.query_one("#custom-days", Input).value = "30"
        for index, mode, section in (
            (1, "ahead", None),
            (2, "forgotten", None),
            (3, "preview", None),
            (0, "due", "7.9"),
        ):
            if not on_top(app, "CustomStudyScreen"):
                await open_dialog(pilot)
            await choose(pilot, index, section)
            await wait_until(
                pilot, lambda mode=mode: on_top(app, "StudyScreen") and app.mode_screen.session.mode == mode
            )
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert shown_unmarked(app, content) == [], mode
            await dismiss_toasts(pilot)


@pytest.mark.parametrize(
    "study",
    [StudyFilter(tags=("no-such-tag",)), StudyFilter(sections=("7.9",), kinds=("code",))],
    ids=["unknown tag", "nothing matches"],
)
def test_custom_studys_refusals(pseudo, library, study):
    """What `drill study --tag/--kind/--section` says when the filter finds nothing (the CLI prints it)."""
    from drill.errors import InputError
    from tests.i18n.pseudo import unmarked_words

    with pytest.raises(InputError) as refused:
        study.check(library)
    message = str(refused.value)
    assert "⟦" in message
    known = tuple({tag for card in library.cards.values() for tag in card.tags})  # the content's tags
    assert unmarked_words(message, exempt=known, allowed=(r"--[\w/-]+", r"\bno-such-tag\b")) == [], message


async def test_interview_date(pseudo, library, store):
    app = study_app(library, store, ["q05"])
    content = study_content(library, "q05")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await card_on_screen(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: on_top(app, "PlanScreen"))
        await pilot.pause()
        assert shown_unmarked(app, content, (DATE_FORMAT,)) == []
        field = app.screen.query_one("#plan-date", Input)
        forecast = app.screen.query_one("#plan-forecast", Static)
        for typed, shown in (
            ("2026-02-30", "2026-02-30"),
            ("2026-03-01", "2026-03-01"),
            ("2026-03-20", "+1"),
        ):
            field.value = typed
            await pilot.press("enter")
            await wait_until(pilot, lambda shown=shown: shown in str(forecast.render()))
            await pilot.pause()
            assert shown_unmarked(app, content + typed, (DATE_FORMAT,)) == [], typed
        await pilot.press("enter")  # set: a toast says so
        await wait_until(pilot, lambda: on_top(app, "StudyScreen") and "⟦" in toasts(app))
        await pilot.pause()
        assert shown_unmarked(app, content) == []  # the header's countdown and readiness too
        await dismiss_toasts(pilot)
        await pilot.press("D")
        await wait_until(pilot, lambda: on_top(app, "PlanScreen"))
        await pilot.press("ctrl+x")
        await wait_until(pilot, lambda: on_top(app, "StudyScreen") and "⟦" in toasts(app))
        assert shown_unmarked(app, content) == []


@pytest.mark.parametrize("mode", ["study", "calc"])
async def test_help(pseudo, library, store, mode):
    options = {"example": "worked"} if mode == "calc" else {}
    app = study_app(library, store, ["q05"]) if mode == "study" else make_app("calc", **options)
    async with app.run_test(size=(120, 60), notifications=True) as pilot:
        if mode == "study":
            await card_on_screen(pilot)
        else:
            await calc_ready(pilot)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: on_top(app, "HelpScreen"))
        await pilot.pause()
        assert shown_unmarked(app, study_content(library, "q05"), (KEY_NAMES,)) == []


async def test_command_palette(pseudo, library, store):
    app = study_app(library, store, ["q05"])
    content = study_content(library, "q05")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await card_on_screen(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: on_top(app, "Palette"))
        commands = app.screen.query_one(CommandList)
        await wait_until(pilot, lambda: commands.option_count > 20)
        await pilot.pause()
        assert shown_unmarked(app, content, (KEY_NAMES,)) == []
        commands.scroll_end(animate=False)  # Textual's own commands come last
        await pilot.pause()
        assert shown_unmarked(app, content, (KEY_NAMES,)) == []
        await pilot.press(*"bur")  # what the learner types is theirs
        await wait_until(pilot, lambda: commands.option_count == 1)
        await pilot.pause()
        assert shown_unmarked(app, content + "\nbur", (KEY_NAMES,)) == []
        await pilot.press(*"zzz")
        await wait_until(
            pilot, lambda: commands.option_count == 1 and commands.get_option_at_index(0).disabled
        )
        await pilot.pause()
        assert shown_unmarked(app, content + "\nburzzz") == []


async def test_toasts_of_the_study_actions(pseudo, library, store):
    app = study_app(library, store, ["q05", "q07", "q10"])
    content = study_content(library, "q05", "q07", "q10")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await card_on_screen(pilot)
        await wait_until(pilot, lambda: app.mode_screen.session is not None)
        for keys in (("3",), ("u",), ("b",), ("u",), ("s",)):  # reveal first; nothing to undo; ...
            await pilot.press(*keys)
            await wait_until(pilot, lambda: "⟦" in toasts(app))
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert shown_unmarked(app, content) == [], keys
            await dismiss_toasts(pilot)


async def test_the_end_of_a_session_and_nothing_due(pseudo, library, store):
    content = study_content(library, "q05")
    app = study_app(library, store, ["q05"])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await card_on_screen(pilot)
        await pilot.press("space", "4")
        await wait_until(pilot, lambda: on_top(app, "SummaryScreen"))
        await pilot.pause()
        assert shown_unmarked(app, content) == []
        await pilot.press("escape")  # stay: the end of the deck
        await wait_until(pilot, lambda: on_top(app, "StudyScreen"))
        await pilot.pause()
        assert shown_unmarked(app, content) == []
        await pilot.press("enter")  # check again: still nothing due
        await pilot.pause()
        assert shown_unmarked(app, content) == []
    app = study_app(library, store, ["q05"])  # a new session with nothing due
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_until(pilot, lambda: app.mode_screen.session is not None)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.mode_screen.card is None
        assert shown_unmarked(app, content) == []


# --- quiz and interview: the loading shell, the score ----------------------------------------------------------


@pytest.mark.parametrize("mode", ["quiz", "interview"])
async def test_loading_shell(pseudo, library, store, monkeypatch, mode):
    """What shows while the content is built and the store opens (held here until checked): content no cache
    holds is loaded in the worker, behind the shell."""
    import drill.content.loader
    from drill.tui.app import MODES

    module, name = MODES[mode].split(":")
    screen_class = getattr(__import__(module, fromlist=[name]), name)
    gate, original = threading.Event(), screen_class.plan

    def held(self, loaded):
        gate.wait(30)
        return original(self, loaded)

    monkeypatch.setattr(screen_class, "plan", held)
    not_cached = lambda path=None, partial=False: None  # noqa: E731 (the content is to be built)
    monkeypatch.setattr(drill.content.loader, "load_cached_content", not_cached)
    app = make_app(mode, store=store, clock=frozen_clock, timer=frozen_timer)
    try:
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await pilot.pause()
            assert shown_unmarked(app, "", (INTERVIEW_COMMAND,)) == []
            header_id = {"quiz": "quiz-header", "interview": "iv-header"}[mode]
            header = next(text for widget, text in widget_texts(app).items() if widget.id == header_id)
            assert "loading" in header  # the header says it is loading until the questions come
            gate.set()
    finally:
        gate.set()


async def test_quiz_score(pseudo, library, store):
    from drill.tui.screens.quiz_score import QuizScoreScreen

    app = fixed_quiz(library, store, count=2)
    content = rendered_content(library)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_until(pilot, lambda: getattr(app.mode_screen, "run", None) is not None)
        await app.workers.wait_for_complete()
        for _ in range(2):
            screen = app.mode_screen
            await wait_until(pilot, lambda screen=screen: screen.item is not None and screen.answered is None)
            wrong = next(o for o in screen.item.options if o.key != screen.item.answer)
            await pilot.press(wrong.letter.lower())
            await wait_until(pilot, lambda screen=screen: screen.answered is not None)
            await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, QuizScoreScreen))
        await pilot.pause()
        assert shown_unmarked(app, content, (OPTION_LETTERS,)) == []
        await pilot.press("m")  # the related cards made due now
        await wait_until(pilot, lambda: app.screen.made_due is not None)
        await pilot.pause()
        assert shown_unmarked(app, content, (OPTION_LETTERS,)) == []


# --- the checker can fail ----------------------------------------------------------------------------------------


async def test_the_checker_catches_an_unmarked_label(pseudo, library, store):
    from rich.text import Text

    app = study_app(library, store, ["q05"])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await card_on_screen(pilot)
        await pilot.press("i")
        await wait_until(pilot, lambda: on_top(app, "CardInfoScreen"))
        await pilot.pause()
        assert shown_unmarked(app, study_content(library, "q05")) == []
        app.screen.query_one(".dialog-title", Static).update(Text("Card info · q05"))  # not through _()
        await pilot.pause()
        found = shown_unmarked(app, study_content(library, "q05"))
        assert [entry.rsplit(": ", 1)[1] for entry in found] == ["Card", "info"]


async def test_the_palettes_screenshot_command(pseudo, library, store, tmp_path, monkeypatch):
    """Textual's screenshot command, in drill's words: saved where the toast says, fitted (CJK in two cells)."""
    monkeypatch.chdir(tmp_path)
    app = study_app(library, store, ["q05"])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await card_on_screen(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: on_top(app, "Palette"))
        commands = app.screen.query_one(CommandList)
        await pilot.press(*"Screensh")
        await wait_until(
            pilot, lambda: commands.option_count == 1 and not commands.get_option_at_index(0).disabled
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: on_top(app, "StudyScreen") and "⟦" in toasts(app))
        await pilot.pause()
        saved = list(tmp_path.glob("*.svg"))
        assert len(saved) == 1 and "Noto Sans Mono CJK SC" in saved[0].read_text(encoding="utf-8")
        assert shown_unmarked(app, study_content(library, "q05") + "\n" + str(saved[0])) == []


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
async def test_the_study_screen_on_a_small_terminal(pseudo, library, store, size):
    """The compact footer, the header and the grade buttons at 80 and 60 columns: cut, never unmarked."""
    app = study_app(library, store, ["q05"])
    content = study_content(library, "q05")
    async with app.run_test(size=size, notifications=True) as pilot:
        await card_on_screen(pilot)
        assert shown_unmarked(app, content) == []
        await pilot.press("space")
        await wait_until(pilot, lambda: app.screen.query_one("#answer").display)
        await pilot.pause()
        assert shown_unmarked(app, content) == []
