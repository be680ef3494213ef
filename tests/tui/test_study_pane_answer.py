"""The study screen never gives a card's answer away before it is revealed (issue 23 #6): every card kind is
shown at 80, 120 and 200 columns, with the side pane shown, and no answer value is on screen nor anywhere in
the pane before reveal — the hand calculation's target (as the pane's tables write it, from the engine), the
formula card's back (its code, or its formula as the screen renders it), the table row's hidden cells, any
step's output. On reveal the pane's outputs appear (the oracle strings are real: they are found then)."""

from __future__ import annotations

import re

import pytest

from drill.content.latex import render_latex
from drill.engine.examples import build_example
from drill.engine.notation import number_format
from drill.tui.models.custom_study import card_kind
from drill.tui.widgets.card_views import card_view_for
from drill.tui.widgets.step_pane import StepPane
from tests.helpers import plain
from tests.tui.conftest import card_shown, library_of, wait_until


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def pane_text(app) -> str:
    return plain(app.screen.query_one("#step-title")) + plain(app.screen.query_one("#step-body"))


def walked(library) -> list:
    """Every hand calculation and formula card, the code cards, table rows and question cards with steps."""
    cards = list(library.cards.values())
    chosen = [c for c in cards if card_kind(c) in ("calc", "formula")]
    chosen += [c for c in cards if card_kind(c) == "code"][:3]
    chosen += [c for c in cards if card_kind(c) == "cloze"][:12]
    chosen += [c for c in cards if card_kind(c) == "qa" and c.steps][:6]
    return chosen


def answer_values(card) -> list[str]:
    """What must not be on screen before reveal, for this card."""
    kind = card_kind(card)
    if kind == "calc":
        return []  # a pattern: `target_row`
    if kind == "formula":
        if card.direction == "to-code":
            return [card.code]
        return [" ".join(render_latex(card.formula).split())]
    if kind == "cloze":
        shown = card.question
        cells = re.findall(r"^- \*\*.+?\*\*：(.+)$", card.answer, re.M)
        return [
            value
            for cell in cells
            if len(value := cell.replace("**", "").strip()) >= 3 and value not in shown
        ]
    return []


def target_row(card) -> re.Pattern | None:
    """A hand calculation's target in its output's row, as the pane's tables write it ('3 │ 2.000 │ 1.000',
    the row named from 1); the values alone may be in an input too (s23's target 2 is in Q's row 3)."""
    if card_kind(card) != "calc":
        return None
    output = build_example(card.example)[card.step].output
    row, _column = card.index
    written = number_format(output)  # one format for the whole table, as the pane writes it
    cells = [re.escape(written(value)) for value in output[row]]
    # within one table's row (cells a few columns apart), not across two tables drawn side by side
    gap = r"[ │┃]{1,5}"
    return re.compile(rf"(?<![\d.]){row + 1}{gap}" + gap.join(cells) + r"(?![\d])")


def step_outputs(card) -> list[str]:
    """The tables' labels of the outputs of the card's own steps ('out: name')."""
    return [f"out: {ref.partition('/')[2]}" for ref in card.steps]


@pytest.mark.parametrize("width", [80, 120, 200])
async def test_no_answer_is_on_screen_before_reveal(study_app, library, width):
    cards = walked(library)
    kinds = {card_kind(card) for card in cards}
    assert kinds == {"calc", "formula", "code", "cloze", "qa"}  # every kind the content has
    app = study_app(library=library_of(cards, library))
    async with app.run_test(size=(width, 40)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        screen.pane_wanted = True  # the pane shown at every width (at 80 it covers the card)
        pane = screen.query_one(StepPane)
        checked = 0
        for card in cards:
            screen.show_card(card)
            await wait_until(
                pilot,
                lambda card=card: (
                    type(screen.card_view) is card_view_for(card_kind(card))
                    and screen.card_view.card is card
                    and (not card.steps or (pane.refs == tuple(card.steps) and bool(pane.views)))
                ),
            )
            await pilot.pause()
            for pane_on in (True, False):
                screen.pane_wanted = pane_on
                await pilot.pause()
                seen = screen_text(app) + "\n" + pane_text(app)
                flat = " ".join(seen.split())
                for value in answer_values(card):
                    assert value not in seen and " ".join(value.split()) not in flat, (card.id, width, value)
                    checked += 1
                for label in step_outputs(card):
                    assert label not in seen, (card.id, width, label)
                pattern = target_row(card)
                if pattern is not None:
                    assert not pattern.search(seen), (card.id, width, pattern.pattern)
                    checked += 1
            screen.pane_wanted = True
            await pilot.pause()
            if card.steps:  # the answer out: the pane's outputs appear (the labels and targets are real)
                pane.show_answer(True)
                text = pane_text(app)
                assert any(label in text for label in step_outputs(card)), (card.id, text)
                pattern = target_row(card)
                if pattern is not None:
                    assert pattern.search(text), (card.id, pattern.pattern, text)
                pane.show_answer(False)
        assert checked > len(cards)


async def test_the_handcalc_q31_pane_at_200_columns_shows_its_inputs_then_the_answer(study_app, library):
    """The issue's case: c7.12-q31 asks for Q₃₁; the pane showed Q's row 3, '3 2.000 1.000'."""
    card = library.cards["c7.12-q31"]
    app = study_app(library=library_of([card], library))
    async with app.run_test(size=(200, 50)) as pilot:
        await card_shown(pilot)
        screen = app.mode_screen
        pane = screen.query_one(StepPane)
        await wait_until(pilot, lambda: bool(pane.views) and screen.pane_shown)
        await pilot.pause()
        before = screen_text(app) + pane_text(app)
        assert "in: x [3, 2]" in before and "in: W_Q [2, 2]" in before  # the inputs, from the engine
        target = target_row(card)  # Q's row 3 as the pane writes it: '3 2 1' (an all-integer table)
        assert not target.search(before) and "out: project_q" not in before
        assert "shown with the answer" in before
        screen.revealed = True  # as the calc answer screen does once the learner has answered
        await wait_until(pilot, lambda: "out: project_q" in pane_text(app))
        assert target.search(pane_text(app)), pane_text(app)
