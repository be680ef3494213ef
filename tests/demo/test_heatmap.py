"""The heatmap widget: numbers, 1-based names, shading by colour, and by characters under NO_COLOR."""

from __future__ import annotations

import pytest
from rich.console import Console
from textual.app import App, ComposeResult

from drill.tui.widgets.heatmap import SHADES, Heatmap, heatmap_table, level, no_color_requested

from .conftest import rendered_text

WEIGHTS = [[0.198, 0.401, 0.401], [0.248, 0.248, 0.503], [0.140, 0.284, 0.576]]


def test_numbers_and_one_based_names():
    text = rendered_text(heatmap_table(WEIGHTS, no_color=False))
    lines = [line.split() for line in text.splitlines() if line.strip()]
    assert lines[0] == ["1", "2", "3"]
    assert lines[1] == ["1", "0.198", "0.401", "0.401"]
    assert lines[3] == ["3", "0.140", "0.284", "0.576"]


def test_token_names_are_text_not_markup():
    text = rendered_text(
        heatmap_table([[1.0, 0.0]], row_labels=["[bold]it"], col_labels=["the\x1b", "animal"])
    )
    assert "[bold]it" in text and "\x1b" not in text and "animal" in text


def test_no_color_shades_by_characters():
    text = rendered_text(heatmap_table([[0.0, 0.3, 0.5, 0.7, 1.0]], no_color=True))
    assert text.split("\n")[1].split() == ["1", "0.000", "░0.300", "▒0.500", "▓0.700", "█1.000"]
    assert no_color_requested({"NO_COLOR": "1"}) and not no_color_requested({"NO_COLOR": ""})


def test_colour_shading_grows_with_the_weight_and_masked_cells_are_unshaded():
    table = heatmap_table([[0.1, 0.9, float("-inf")]], no_color=False)
    console = Console(width=80, color_system="truecolor", record=True, file=open("/dev/null", "w"))
    console.print(table)
    cells = list(table.columns[1].cells) + list(table.columns[2].cells) + list(table.columns[3].cells)
    low, high, masked = (cell.style.bgcolor for cell in cells)
    assert sum(low.triplet) > sum(high.triplet)  # the larger weight is the darker cell
    assert masked is None
    assert "−∞" in rendered_text(table)


def test_levels():
    assert level(0.5, 0.0, 1.0) == 0.5
    assert level(float("-inf"), 0.0, 1.0) is None
    assert level(5.0, 0.0, 1.0) == 1.0
    assert SHADES[0] == " " and SHADES[-1] == "█"


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError):
        heatmap_table([[1.0, 2.0], [3.0]])
    with pytest.raises(ValueError):
        heatmap_table([[1.0, 2.0]], row_labels=["a", "b"])


class HeatmapApp(App[None]):
    def __init__(self, no_color: bool | None) -> None:
        super().__init__()
        self.no_color_option = no_color

    def compose(self) -> ComposeResult:
        yield Heatmap(
            WEIGHTS,
            row_labels=["我", "爱", "你"],
            col_labels=["I", "love", "you"],
            title="cross-attention",
            no_color=self.no_color_option,
        )


@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "NO_COLOR"])
def test_heatmap_snapshot(snap_compare, no_color):
    assert snap_compare(HeatmapApp(no_color), terminal_size=(60, 10))


def test_heatmap_under_the_no_color_environment(snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(HeatmapApp(None), terminal_size=(60, 10))


class ShowApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Heatmap(WEIGHTS, no_color=False)


async def test_show_repaints_only_the_changed_cells():
    app = ShowApp()
    async with app.run_test(size=(60, 10)) as pilot:
        widget = app.query_one(Heatmap)
        assert widget.last_changed is None and widget.cell_text(2, 2) == "0.576"
        changed = [row[:] for row in WEIGHTS]
        changed[1][2] = 0.9  # one cell: the range is still 0..1, so no other shade moves
        widget.show(changed)
        assert widget.last_changed == ((1, 2),)
        assert widget.cell_text(1, 2) == "0.900" and widget.values == changed
        await pilot.pause()
        assert "0.900" in rendered_text(widget.renderable())
        widget.show(changed)
        assert widget.last_changed == ()  # the same values: nothing to repaint
        widget.show([[0.5, 0.5]])  # another shape: a full rebuild
        assert widget.last_changed is None and widget.cell_text(0, 1) == "0.500"
        await pilot.pause()
        assert widget.size.height == 2  # header and one row


def test_spec_and_widget_draw_the_same_table():
    from drill.tui.widgets.heatmap import heatmap

    spec = heatmap(WEIGHTS, row_labels=["a", "b", "c"], decimals=2)
    assert rendered_text(spec.renderable()) == rendered_text(
        heatmap_table(WEIGHTS, row_labels=["a", "b", "c"], decimals=2)
    )
    assert Heatmap(spec.values, **spec.options).cell_text(0, 0) == "0.20"
