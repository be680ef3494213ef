"""The card browser: every card with its scheduling state; filter by text, section and state; open one."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Select, Static

from drill.i18n import N_
from drill.tui.text import visible

if TYPE_CHECKING:
    from drill.store.types import BrowseRow
    from drill.tui.models.study import StudySession

# (label, width); the question column takes what is left.
COLUMNS = (
    ("id", 10),
    ("section", 8),
    ("state", 12),
    ("due", 16),
    ("stability", 9),
    ("lapses", 6),
    ("question", None),
)
STATES = ("new", "learning", "review", "relearning", "suspended", "buried", "leech")


def _when(moment: datetime | None) -> str:
    return "—" if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


def row_cells(row: BrowseRow, question: str = "") -> tuple[Text, ...]:
    state = row.kind.value
    flags = [
        flag
        for flag, on in (("suspended", row.suspended), ("buried", row.buried), ("leech", row.leech))
        if on
    ]
    if flags:
        state += " (" + ", ".join(flags) + ")"
    stability = "—" if row.stability is None else f"{row.stability:.1f} d"
    return (
        Text(visible(row.card_id)),
        Text(row.section),
        Text(state),
        Text("—" if row.kind.value == "new" else _when(row.due)),
        Text(stability, justify="right"),
        Text(str(row.lapses), justify="right"),
        Text(visible(question.replace("\n", " ")), no_wrap=True, overflow="ellipsis"),
    )


class BrowserScreen(Screen[str | None]):
    CSS_PATH = "../styles/browser.tcss"
    BINDINGS = [
        Binding("escape", "close", N_("Back")),
        Binding("ctrl+f", "focus_search", N_("Search")),
    ]

    def __init__(self, session: StudySession, *, focus_search: bool = False) -> None:
        super().__init__()
        self.session = session
        self.focus_search = focus_search

    def compose(self) -> ComposeResult:
        with Vertical(id="browser"):
            with Horizontal(id="filters"):
                yield Input(placeholder="search id, question, answer, tags…", id="filter-text")
                yield Select(
                    [(s, s) for s in self.session.sections()], prompt="any section", id="filter-section"
                )
                yield Select([(s, s) for s in STATES], prompt="any state", id="filter-state")
            yield DataTable(id="cards", cursor_type="row", zebra_stripes=True)
            yield Static("", id="browser-status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label, width in COLUMNS:
            table.add_column(label, key=label, width=width)
        self.refresh_rows()
        (self.query_one("#filter-text") if self.focus_search else table).focus()

    def filters(self) -> tuple[str, str | None, str | None]:
        text = self.query_one("#filter-text", Input).value
        section = self.query_one("#filter-section", Select).value
        state = self.query_one("#filter-state", Select).value
        return (
            text,
            None if section is Select.NULL else section,
            None if state is Select.NULL else state,
        )

    def refresh_rows(self) -> None:
        text, section, state = self.filters()
        rows = self.session.browse(text, section, state)
        table = self.query_one(DataTable)
        table.clear()
        for row in rows:
            card = self.session.card(row.card_id)
            table.add_row(*row_cells(row, card.question if card else ""), key=row.card_id)
        status = Text(f"{len(rows)} cards · enter opens a card · esc back", style="dim")
        self.query_one("#browser-status", Static).update(status)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.refresh_rows()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one(DataTable).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        self.refresh_rows()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.dismiss(event.row_key.value)

    def action_focus_search(self) -> None:
        self.query_one("#filter-text").focus()

    def action_close(self) -> None:
        self.dismiss(None)
