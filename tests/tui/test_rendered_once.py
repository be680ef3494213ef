"""RenderedOnce replays a renderable's lines: the same output as rendering it, laid out once per width."""

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from drill.tui.widgets.rendered_once import RenderedOnce


class CountingTable:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.layouts = 0

    def __rich_console__(self, console, options):
        self.layouts += 1
        yield self.table

    def __rich_measure__(self, console, options):
        return self.table.__rich_measure__(console, options)


def table() -> Table:
    t = Table(title="scores")
    for name in ("q", "k₁", "k₂"):
        t.add_column(name, justify="right")
    t.add_row("0.123", "−1.500", "2.000")
    t.add_row("∞", "nan", "3.14159265")
    return t


def draw(renderable, width: int) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system="truecolor")
    console.print(renderable)
    return console.export_text(styles=True)


def test_output_matches_the_renderable_at_every_width():
    body = Group(Text("step · a long explanation that has to wrap on a narrow pane", style="bold"), table())
    once = RenderedOnce(body)
    for width in (12, 20, 37, 80, 20):
        assert draw(once, width) == draw(body, width)


def test_laid_out_once_per_width():
    counting = CountingTable(table())
    once = RenderedOnce(counting)
    for width in (40, 40, 60, 40, 60):
        draw(once, width)
    assert counting.layouts == 2
