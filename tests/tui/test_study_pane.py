"""The study side pane (issue 13 §2): each step's inputs beside its output, elements named from 1, a softmax's
exponentials and row sums as the chapter works them, every card's pane following its computation, the
heatmap view; and reveal / search never wait for the engine."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import torch

from drill.engine.examples import build_example
from drill.tui import steps as steps_module
from drill.tui.steps import follow_computation, load_steps, softmax_intermediates
from drill.tui.widgets.card_view import CardView
from drill.tui.widgets.matrix import matrix_table
from drill.tui.widgets.step_pane import StepPane
from tests.helpers import plain
from tests.tui.conftest import card_shown, library_of, wait_until


def test_the_cross_attention_pane_follows_its_computation():
    refs = ("cross/scores", "cross/weighted_sum")
    trace = build_example("cross")
    views = follow_computation(refs, {"cross": trace})
    assert views == [
        ("cross/scores", True),
        ("cross/scale", False),
        ("cross/softmax", False),
        ("cross/weighted_sum", True),
    ]


def test_every_cards_pane_keeps_its_order_and_fills_in_what_lies_between(library):
    for card in library.cards.values():
        if not card.steps:
            continue
        views = load_steps(tuple(card.steps))
        assert [v.ref for v in views if not v.between] == list(card.steps), card.id  # the card's own order
        for before, after in zip(card.steps, card.steps[1:], strict=False):
            example, _, first = before.partition("/")
            if after.partition("/")[0] != example:
                continue
            trace = build_example(example)
            names = [step.name for step in trace.steps]
            last = after.partition("/")[2]
            if names.index(first) > names.index(last):
                continue
            # each input of the later step computed after the earlier one is shown between them
            shown = [v.ref for v in views]
            for name in trace[last].inputs:
                if name in names and names.index(first) < names.index(name):
                    assert f"{example}/{name}" in shown, (card.id, after, name)


def test_softmax_intermediates_are_the_chapters_and_agree_with_pytorch():
    trace = build_example("worked")
    step = trace["softmax"]
    (exp_label, exps), (sum_label, sums) = softmax_intermediates(step, trace)
    scores = torch.tensor(np.asarray(trace["scale"].output))
    expected = torch.exp(scores)
    assert np.allclose(exps, expected.numpy(), rtol=0, atol=1e-12)
    assert np.allclose(sums[:, 0], expected.sum(dim=-1).numpy(), rtol=0, atol=1e-12)
    assert np.allclose(exps / sums, torch.softmax(scores, dim=-1).numpy(), rtol=0, atol=1e-12)
    assert np.allclose(exps / sums, step.output, rtol=0, atol=1e-12)  # ① / ② is the step's output
    # the chapter (7.12, 第 4 步): row 1 e^[0, 0.707, 0.707] = [1, 2.028, 2.028], sum 5.056; row 3 sums to 14.484
    assert [round(float(v), 3) for v in exps[0]] == [1.0, 2.028, 2.028]
    assert round(float(sums[0, 0]), 3) == 5.056 and round(float(sums[2, 0]), 3) == 14.484


def test_masked_scores_give_zero_exponentials_and_overflow_gives_none():
    trace = build_example("causal")
    (_, exps), (_, sums) = softmax_intermediates(trace["softmax"], trace)
    masked = np.isneginf(np.asarray(trace["masked"].output))
    assert masked.any() and (exps[masked] == 0).all()
    assert np.allclose(exps / sums, trace["softmax"].output, atol=1e-12)
    assert softmax_intermediates(trace["scores"], trace) == ()  # not a softmax


def test_matrix_tables_name_rows_and_columns_from_1():
    def cells(line: str) -> list[str]:
        return [cell.strip() for cell in line.strip("┃│ ").replace("┃", "│").split("│")]

    # not all integers, so the cells keep the chapter's three decimals (an all-integer matrix prints integers)
    lines = plain_lines(matrix_table([[1.5, 2.0, 3.0], [4.5, 5.0, 6.0]]))
    header = next(line for line in lines if "┃" in line)
    assert [cell for cell in cells(header) if cell] == ["1", "2", "3"]
    rows = [cells(line) for line in lines if "1.500" in line or "4.500" in line]
    assert [row[0] for row in rows] == ["1", "2"]


def plain_lines(renderable) -> list[str]:
    import io

    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


async def pane_text(pilot) -> str:
    app = pilot.app
    await wait_until(pilot, lambda: app.screen.query_one(StepPane).views)
    await pilot.pause()
    return plain(app.screen.query_one("#step-title")) + plain(app.screen.query_one("#step-body"))


async def test_the_pane_shows_inputs_beside_the_output_and_the_softmax_work(study_app, library):
    app = study_app(
        library=library_of([library.cards["q10"]], library)
    )  # worked/softmax, worked/weighted_sum
    async with app.run_test(size=(200, 50)) as pilot:
        await card_shown(pilot)
        await pilot.press("space")  # the answer out: the pane shows outputs too
        text = await pane_text(pilot)
        assert "in: scale [3, 3]" in text and "out: softmax [3, 3]" in text
        assert "① exponentials" in text and "② row sums" in text
        assert "5.056" in text and "14.484" in text  # the chapter's row sums, from the engine
        await pilot.press("right")
        await wait_until(pilot, lambda: "weighted_sum" in plain(app.screen.query_one("#step-title")))
        text = await pane_text(pilot)
        assert "in: softmax [3, 3]" in text and "in: project_v" in text and "out: weighted_sum" in text


async def test_a_multi_head_pane_names_heads_from_1(study_app, library):
    app = study_app(library=library_of([library.cards["q21"]], library))  # mha/softmax, mha/concat_heads
    async with app.run_test(size=(200, 60)) as pilot:
        await card_shown(pilot)
        await pilot.press("space")  # the answer out: the pane shows outputs too
        text = await pane_text(pilot)
        assert "head 1" in text and "head 2" in text and "head 0" not in text


async def test_the_cross_attention_card_walks_scores_scale_softmax_weighted_sum(study_app, library):
    app = study_app(library=library_of([library.cards["q17"]], library))
    async with app.run_test(size=(200, 50)) as pilot:
        await card_shown(pilot)
        await pilot.press("space")  # the answer out: the pane shows outputs too
        await pane_text(pilot)
        pane = app.screen.query_one(StepPane)
        assert [v.ref for v in pane.views] == [
            "cross/scores",
            "cross/scale",
            "cross/softmax",
            "cross/weighted_sum",
        ]
        await pilot.press("right")
        await wait_until(pilot, lambda: "computed in between" in plain(app.screen.query_one("#step-title")))


async def test_h_shows_the_pane_as_a_heatmap(study_app, library, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")  # the heatmap's shades as characters, readable in plain text
    app = study_app(library=library_of([library.cards["q10"]], library))
    async with app.run_test(size=(200, 50)) as pilot:
        await card_shown(pilot)
        before = await pane_text(pilot)
        assert not any(shade in before for shade in "░▒▓█")
        await pilot.press("h")
        await wait_until(pilot, lambda: any(s in plain(app.screen.query_one("#step-body")) for s in "░▒▓█"))
        await pilot.press("h")
        await wait_until(
            pilot, lambda: not any(s in plain(app.screen.query_one("#step-body")) for s in "░▒▓█")
        )


@pytest.fixture
def engine_held(monkeypatch):
    """The engine's step building blocked until the test lets it go: whatever completes meanwhile did not
    wait for the engine."""
    gate = threading.Event()
    build = steps_module._build_views

    def held(refs):
        gate.wait(30)
        return build(refs)

    monkeypatch.setattr(steps_module, "_build_views", held)
    monkeypatch.setattr(steps_module, "_VIEWS", {})
    yield gate
    gate.set()


async def test_reveal_and_search_never_wait_for_the_engine(study_app, library, engine_held):
    app = study_app(library=library_of([library.cards["q13"], library.cards["q17"]], library))
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_until(pilot, lambda: getattr(app.mode_screen, "session", None) is not None)
        pane = app.screen.query_one(StepPane)
        assert not pane.views  # the engine is held: the pane is still computing
        await pilot.press("space")
        await wait_until(pilot, lambda: app.screen.query_one(CardView).revealed)
        assert not pane.views
        await pilot.press("slash")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "BrowserScreen")
        assert not pane.views
        await pilot.press("escape")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "StudyScreen")
        engine_held.set()
        await wait_until(pilot, lambda: bool(pane.views))
