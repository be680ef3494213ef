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

from drill.i18n import N_, _
from drill.tui.models.study import SessionStats
from drill.tui.widgets.header import format_clock


def summary_table(stats: SessionStats, elapsed: float, next_due: datetime | None) -> Table:
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_row(_("cards reviewed"), str(stats.reviewed))
    table.add_row(_("again"), f"{stats.again} ({stats.again_rate:.0%})")
    table.add_row(_("new cards"), str(stats.new_seen))
    table.add_row(_("time"), format_clock(elapsed))
    due_text = (
        _("nothing scheduled") if next_due is None else next_due.astimezone().strftime("%Y-%m-%d %H:%M")
    )
    table.add_row(_("next due"), due_text)
    return table


class SummaryScreen(ModalScreen[str]):
    CSS_PATH = "../styles/modal.tcss"
    BINDINGS = [
        Binding("q", "finish('quit')", N_("Quit")),
        Binding("enter", "finish('continue')", N_("Check again")),
        Binding("l", "finish('browse')", N_("Browse")),
        Binding("plus", "finish('more')", N_("Study more today"), key_display="+"),
        Binding("escape", "finish('stay')", N_("Close")),
    ]

    def __init__(self, stats: SessionStats, elapsed: float, next_due: datetime | None) -> None:
        super().__init__()
        self.stats = stats
        self.elapsed = elapsed
        self.next_due = next_due

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(_("Session summary"), style="bold"), classes="dialog-title")
            yield Static(summary_table(self.stats, self.elapsed, self.next_due), id="summary")
            yield Static(
                Text(
                    _("q quit · enter check for due cards · + study more today · l browse · esc close"),
                    style="dim",
                ),
                classes="dialog-hint",
            )

    def action_finish(self, result: str) -> None:
        self.dismiss(result)
