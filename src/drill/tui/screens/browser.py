"""The card browser: every card with its scheduling state; filter by text, section and state; open one; act
on the selected card (suspend/unsuspend, bury/unbury, make due now, card info, reset with a confirmation).
Every action here is undone by ``u`` in the study screen, like the study screen's own.

One browser per study session (the study screen installs it): its table of every card is built the first time
it opens; each later opening (/ or l) only rewrites the rows whose card changed since, and the table
(`CardTable`) draws again only those rows, so search opens at once and keeps the learner's filters and place."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, Input, Select, Static

from drill.i18n import N_, _, ngettext
from drill.store.types import NO_FLAG
from drill.tui.marks import flag_bindings, flag_name, marks_text
from drill.tui.models.sections import section_label, section_titles
from drill.tui.models.study import STATE_NAMES
from drill.tui.text import visible
from drill.tui.widgets.card_table import CardTable, Column

if TYPE_CHECKING:
    from drill.store.types import BrowseRow
    from drill.tui.models.study import StudySession

# (key, heading, width, drop rank); headings translated where shown; the question column takes what is left;
# on a narrow terminal lapses, then stability, then due give way to it (CardTable).
COLUMNS = (
    ("id", N_("id"), 11, 0),  # most ids fit (t7.9-1.2.3: 10); the long ones end in …
    ("section", N_("section"), 20, 0),
    ("state", N_("state"), 12, 0),
    ("flag", N_("flag"), 4, 2),  # Anki's flag in its colour, ★ marked
    ("due", N_("due"), 16, 1),
    ("stability", N_("stability"), 9, 2),
    ("lapses", N_("lapses"), 6, 3),
    ("question", N_("question"), None, 0),
)
STATES = tuple(STATE_NAMES)


def _when(moment: datetime | None) -> str:
    return "—" if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


def question_line(card) -> str:
    """The question column: what the card asks as study shows it (a bank card's front), a table card its row."""
    asked = getattr(card, "asked_line", None)
    return asked() if asked is not None else getattr(card, "front", card.question)


def row_cells(row: BrowseRow, question: str = "", titles: dict[str, str] | None = None) -> tuple[Text, ...]:
    state = _(STATE_NAMES.get(row.kind.value, row.kind.value))
    flags = [
        _(STATE_NAMES[flag])
        for flag, on in (("suspended", row.suspended), ("buried", row.buried), ("leech", row.leech))
        if on
    ]
    if flags:
        state += " (" + ", ".join(flags) + ")"
    stability = "—" if row.stability is None else f"{row.stability:.1f} d"
    return (
        Text(visible(row.card_id)),
        Text(visible(section_label(row.section, titles or {})), no_wrap=True, overflow="ellipsis"),
        Text(state),
        marks_text(row.flag, row.marked, short=True),
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
        Binding(
            "s",
            "toggle_suspend",
            N_("Suspend/unsuspend"),
            tooltip=N_("Suspend or unsuspend the selected card"),
        ),
        Binding(
            "b",
            "toggle_bury",
            N_("Bury/unbury"),
            tooltip=N_("Bury the selected card until tomorrow, or unbury it"),
        ),
        Binding("d", "make_due", N_("Due now"), tooltip=N_("Make the selected card due now")),
        Binding("i", "info", N_("Info"), tooltip=N_("Open the selected card's details and history")),
        Binding("r", "reset", N_("Reset"), tooltip=N_("Reset the selected card's progress (press twice)")),
        *flag_bindings(),
    ]

    def __init__(self, session: StudySession, *, focus_search: bool = False) -> None:
        super().__init__()
        self.session = session
        self.focus_search = focus_search
        self._opening = True  # shown by the study screen's / or l (not back from card info)
        self._rows: dict[str, BrowseRow] = {}
        self._confirm: tuple[str, str] | None = None  # (action, card id) waiting for its second key
        self.titles = section_titles(session.library)  # "7.9" -> the chapter's heading (read once)

    def compose(self) -> ComposeResult:
        with Vertical(id="browser"):
            with Horizontal(id="filters"):
                yield Input(
                    placeholder=_("search id, question, answer, tags, flag:1, tag:marked…"), id="filter-text"
                )
                yield Select(
                    [(section_label(s, self.titles), s) for s in self.session.sections()],
                    prompt=_("any section"),
                    id="filter-section",
                )
                yield Select(
                    [(_(STATE_NAMES[s]), s) for s in STATES], prompt=_("any state"), id="filter-state"
                )
            yield CardTable(
                [Column(key, _(heading), width, drop) for key, heading, width, drop in COLUMNS], id="cards"
            )
            yield Static("", id="browser-status")
        yield Footer()

    def on_mount(self) -> None:
        """The rows, as soon as the table is there (the study screen may build this browser before showing it)."""
        try:
            self.refresh_rows()
        except (
            NoMatches
        ):  # let go while Textual was still building it (the study screen went): nothing to fill
            pass

    def opening(self, *, focus_search: bool) -> None:
        """The study screen is about to open (push) this browser again: / focuses the search box, l the table."""
        self.focus_search = focus_search
        self._opening = True

    def on_screen_resume(self) -> None:
        """Each time it is shown (opened, or back from card info): the rows brought up to date; when opened, the
        search box or the table focused."""
        self._confirm = None
        self.refresh_rows()
        if not self._opening:
            return
        self._opening = False
        (self.query_one("#filter-text") if self.focus_search else self.query_one(CardTable)).focus()

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
        table = self.query_one(CardTable)
        if [row.card_id for row in rows] == list(self._rows):
            for row in rows:  # the same cards: rewrite only those whose state changed
                if self._rows[row.card_id] != row:
                    table.update_row(row.card_id, self._cells(row))
        else:
            table.set_rows((row.card_id, self._cells(row)) for row in rows)
        self._rows = {row.card_id: row for row in rows}
        self.say(
            ngettext(
                "{n} card · enter opens a card · s suspend · b bury · d due now · i info · r reset · esc back",
                "{n} cards · enter opens a card · s suspend · b bury · d due now · i info · r reset · esc back",
                len(rows),
            ).format(n=len(rows))
        )

    def _cells(self, row: BrowseRow) -> tuple[Text, ...]:
        card = self.session.card(row.card_id)
        return row_cells(row, question_line(card) if card else "", self.titles)

    def say(self, message: str, style: str = "dim") -> None:
        self.query_one("#browser-status", Static).update(Text(message, style=style))

    def selected(self) -> str | None:
        return self.query_one(CardTable).selected

    def _act(self, done: str, method, *args) -> None:
        from drill.errors import DrillError

        card_id = self.selected()
        if card_id is None:
            return
        self._confirm = None
        try:
            method(card_id, *args)
        except DrillError as err:
            self.say(_("Not done: {error}").format(error=err), "bold red")
            return
        self.refresh_rows()
        self.say(done.format(id=visible(card_id)) + _(" (u in study undoes it)"))

    def action_toggle_suspend(self) -> None:
        row = self._rows.get(self.selected() or "")
        if row is None:
            return
        store = self.session.store
        if row.suspended:
            self._act(_("{id} unsuspended"), store.unsuspend)
        else:
            self._act(_("{id} suspended"), store.suspend)

    def action_toggle_bury(self) -> None:
        row = self._rows.get(self.selected() or "")
        if row is None:
            return
        store = self.session.store
        if row.buried:
            self._act(_("{id} unburied"), store.unbury)
        else:
            self._act(_("{id} buried until tomorrow"), store.bury, self.session.now())

    def action_make_due(self) -> None:
        row = self._rows.get(self.selected() or "")
        if row is None:
            return
        if row.kind.value == "new":
            self.say(_("{id} is new: it is studied with the new cards").format(id=visible(row.card_id)))
            return
        self._act(
            _("{id} is due now"), lambda cid: self.session.store.make_due_now([cid], self.session.now())
        )

    def action_info(self) -> None:
        card_id = self.selected()
        card = self.session.card(card_id) if card_id else None
        if card is None:
            return
        from drill.tui.screens.card_info import CardInfoScreen

        self.app.push_screen(CardInfoScreen(card, self.session.card_info(card.id), self.titles))

    def action_reset(self) -> None:
        card_id = self.selected()
        if card_id is None:
            return
        if self._confirm != ("reset", card_id):
            self._confirm = ("reset", card_id)
            self.say(
                _(
                    "Reset {id}: its schedule, suspension, burial and leech tag go (history, flag and mark stay). "
                    "Press r again to reset."
                ).format(id=visible(card_id)),
                "bold yellow",
            )
            return
        self._act(_("{id} reset: it is new again"), self.session.store.reset)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.refresh_rows()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one(CardTable).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        self.refresh_rows()

    def on_card_table_selected(self, event: CardTable.Selected) -> None:
        card_id = event.key
        row = self._rows.get(card_id)
        now = self.session.now()
        early = row is not None and row.kind.value != "new" and row.due is not None and row.due > now
        if early and self._confirm != ("open", card_id):
            self._confirm = ("open", card_id)
            self.say(
                _(
                    "{id} is not due until {due}: grading it now is an early review (it counts, and reschedules "
                    "the card). Press enter again to study it."
                ).format(id=visible(card_id), due=_when(row.due)),
                "bold yellow",
            )
            return
        self._confirm = None
        self.dismiss(card_id)

    def action_flag(self, flag: int) -> None:
        """ctrl+1 … ctrl+7 as in study: flag the selected card, or remove that flag (ctrl+0: remove any)."""
        row = self._rows.get(self.selected() or "")
        if row is None:
            return
        flag = NO_FLAG if flag == row.flag else flag
        if flag == NO_FLAG:
            self._act(_("{card}: no flag.").replace("{card}", "{id}"), self.session.set_flag, NO_FLAG)
        else:
            done = (
                _("{card} flagged {colour}.").replace("{card}", "{id}").replace("{colour}", flag_name(flag))
            )
            self._act(done, self.session.set_flag, flag)

    def action_toggle_mark(self) -> None:
        row = self._rows.get(self.selected() or "")
        if row is None:
            return
        done = _("{card} unmarked.") if row.marked else _("{card} marked.")
        self._act(done.replace("{card}", "{id}"), self.session.toggle_mark)

    def action_focus_search(self) -> None:
        self.query_one("#filter-text").focus()

    def action_close(self) -> None:
        self.dismiss(None)
