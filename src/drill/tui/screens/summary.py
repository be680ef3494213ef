"""End of a study session: what was done and when the next card is due."""

from __future__ import annotations

from datetime import datetime

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from drill.tui.models.study import SessionStats
from drill.tui.widgets.header import format_clock


def summary_table(stats: SessionStats, elapsed: float, next_due: datetime | None) -> Table:
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_row("cards reviewed", str(stats.reviewed))
    table.add_row("again", f"{stats.again} ({stats.again_rate:.0%})")
    table.add_row("new cards", str(stats.new_seen))
    table.add_row("time", format_clock(elapsed))
    due_text = "nothing scheduled" if next_due is None else next_due.astimezone().strftime("%Y-%m-%d %H:%M")
    table.add_row("next due", due_text)
    return table


class SummaryScreen(ModalScreen[str]):
    CSS_PATH = "../styles/modal.tcss"
    BINDINGS = [
        Binding("q", "finish('quit')", "Quit"),
        Binding("enter", "finish('continue')", "Check again"),
        Binding("l", "finish('browse')", "Browse"),
        Binding("escape", "finish('stay')", "Close"),
    ]

    def __init__(self, stats: SessionStats, elapsed: float, next_due: datetime | None) -> None:
        super().__init__()
        self.stats = stats
        self.elapsed = elapsed
        self.next_due = next_due

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text("Session summary", style="bold"), classes="dialog-title")
            yield Static(summary_table(self.stats, self.elapsed, self.next_due), id="summary")
            yield Static(
                Text("q quit · enter check for due cards · l browse · esc close", style="dim"),
                classes="dialog-hint",
            )

    def action_finish(self, result: str) -> None:
        self.dismiss(result)
