"""`drill calc --plain` and the calc screen write every matrix's numbers the same way (one rule,
drill.engine.notation): for each step, the output matrix rows printed by --plain are, cell for cell, the rows
of the heatmaps the screen shows for that step. And the rule itself, against numbers written out by hand."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from rich.console import Console

from drill.commands.calc import print_plain
from drill.engine.build import build_trace
from drill.engine.notation import dims, format_number, number_format
from drill.tui.app import make_app
from drill.tui.widgets.heatmap import Heatmap
from tests.tui.test_calc import calc_ready

# The worked example (integral X, fractions), masks (−∞ scores, exact zeros), GQA (4-D slices), LayerNorm
# (negative values), random inputs (negatives everywhere), the Noam schedule (tiny numbers and scalars).
CASES = [
    {"example": "worked"},
    {"example": "causal_padding"},
    {"example": "gqa"},
    {"example": "layernorm"},
    {"example": "noam"},
    {"seed": 3, "tokens": 3, "d_model": 4, "heads": 2},
]


def plain_panels(options: dict) -> list[str]:
    """--plain's output, one string per step panel (in trace order), every matrix in full."""
    buf = io.StringIO()
    print_plain(build_trace(**options), full=True, console=Console(file=buf, width=400, color_system=None))
    return re.split(r"\n╭─ \d+\. ", buf.getvalue())[1:]


NUMBER = re.compile(r"−?(\d+(\.\d+)?(e[−+]\d+)?|∞)|nan")  # a number as drill writes one


def plain_rows(panel: str, cols: int) -> list[list[str]]:
    """The matrix rows of a panel: a row label counted from 1 then ``cols`` numbers (the header row is only
    the column names, one token short)."""
    rows = []
    for line in panel.splitlines():
        tokens = line.strip("│ ").split()
        if len(tokens) == cols + 1 and tokens[0].isdigit() and all(NUMBER.fullmatch(t) for t in tokens[1:]):
            rows.append(tokens)
    return rows


def screen_rows(heatmaps: list[Heatmap]) -> list[list[str]]:
    rows = []
    for h in heatmaps:
        assert h.values is not None
        for r, row in enumerate(h.values):
            rows.append([str(r + 1), *(h.cell_text(r, c) for c in range(len(row)))])
    return rows


@pytest.mark.parametrize("options", CASES, ids=lambda o: o.get("example") or f"seed{o['seed']}")
async def test_plain_and_the_screen_print_the_same_numbers(options):
    panels = plain_panels(options)
    app = make_app("calc", **options)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await calc_ready(pilot)
        trace = screen.trace
        assert len(panels) == len(trace.steps)
        compared = 0
        for index, step in enumerate(trace.steps):
            if index:
                await pilot.press("right")
                await pilot.pause()
            assert screen.index == index
            output = np.asarray(step.output, dtype=np.float64)
            if output.ndim == 0:  # a scalar: its number, on both
                fmt = number_format(output)
                assert fmt(float(output)) in panels[index]
                continue
            parts = screen.matrix_views()[-1].parts()  # the output's block: its heatmaps, one per slice
            shown = screen_rows([p for p in parts if isinstance(p, Heatmap)])
            assert shown, step.name
            if output.ndim == 1:  # a vector: one row on the screen, one unlabelled row in --plain
                lines = [line.strip("│ ").split() for line in panels[index].splitlines()]
                assert shown[0][1:] in lines, step.name
            else:
                assert plain_rows(panels[index], output.shape[-1]) == shown, step.name
            compared += 1
        assert compared


def test_the_rule_against_numbers_written_by_hand():
    assert [number_format([[1, 0], [0, 1]])(v) for v in (1.0, 0.0, -0.0)] == ["1", "0", "0"]
    assert [number_format([[1, -0.5]])(v) for v in (1.0, -0.5)] == ["1.000", "−0.500"]
    assert number_format([[0.19782, 1]], decimals=4)(0.19782) == "0.1978"
    assert number_format([[-2, 3]])(-2) == "−2"
    assert number_format([2e-5, -1e-6])(-1e-6) == "−1.00e−06"  # tiny: scientific, decimals − 1 digits
    assert number_format([0.5, float("-inf")])(float("-inf")) == "−∞"
    assert number_format([float("inf"), 1.0])(float("inf")) == "∞"  # a mask does not make 1 a fraction
    assert number_format([float("nan"), 2.0])(float("nan")) == "nan"
    assert format_number(-0.0004) == "0.000" and format_number(2) == "2.000"
    assert dims(np.zeros((3, 2))) == "[3, 2]" and dims(None) == ""
