"""A help screen listing every key of the screen that opened it (any mode can use it)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from drill.i18n import N_, _


def keys_table(rows: list[tuple[str, str]]) -> Table:
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column(_("key"), style="bold", no_wrap=True)
    table.add_column(_("does"))
    for key, description in rows:
        table.add_row(Text(key), Text(description))
    return table


class HelpScreen(ModalScreen[None]):
    CSS_PATH = "../styles/modal.tcss"
    BINDINGS = [
        Binding("escape", "dismiss", N_("Close")),
        Binding("question_mark", "dismiss", N_("Close"), key_display="?"),
        Binding("q", "dismiss", N_("Close")),
    ]

    def __init__(self, title: str, rows: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.rows = rows

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            yield Static(keys_table(self.rows), id="help-keys")
            yield Static(Text(_("esc / ? / q  close"), style="dim"), classes="dialog-hint")

    def action_dismiss(self) -> None:
        self.dismiss(None)
