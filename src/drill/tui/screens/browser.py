"""The card browser: every card with its scheduling state; filter by text, section and state; sort by a column
(o, or a click on its heading; O reverses); open one; act on the selected card, or on several chosen ones
(space, shift+up/down): suspend/unsuspend, bury/unbury, make due now; card info, reset with a confirmation.
Every action here is undone by ``u`` in the study screen, like the study screen's own (an action on several
chosen cards is one transaction, and one ``u`` takes it all back).

One browser per study session (the study screen installs it): its table of every card is built the first time
it opens; each later opening (/ or l) only rewrites the rows whose card changed since, and the table
(`CardTable`) draws again only those rows, so search opens at once and keeps the learner's filters and place."""

from __future__ import annotations

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
from drill.tui.marks import flag_bindings, flag_name
from drill.tui.models.sections import section_label, section_titles
from drill.tui.models.study import STATE_NAMES
from drill.tui.screens.browser_rows import COLUMNS, STATES, question_line, row_cells, sort_value, when_text
from drill.tui.text import visible
from drill.tui.widgets.card_table import CardTable, Column

if TYPE_CHECKING:
    from drill.store.types import BrowseRow
    from drill.tui.models.study import StudySession

# what one line says after a bulk action on n chosen cards (Store.bulk's actions)
BULK_SAID = {
    "suspend": lambda n: ngettext("{n} card suspended", "{n} cards suspended", n),
    "unsuspend": lambda n: ngettext("{n} card unsuspended", "{n} cards unsuspended", n),
    "bury": lambda n: ngettext("{n} card buried until tomorrow", "{n} cards buried until tomorrow", n),
    "unbury": lambda n: ngettext("{n} card unburied", "{n} cards unburied", n),
}


class BrowserScreen(Screen[str | None]):
    CSS_PATH = "../styles/browser.tcss"
    BINDINGS = [
        Binding("escape", "close", N_("Back")),
        Binding("ctrl+f", "focus_search", N_("Search")),
        Binding(
            "o", "sort", N_("Sort"), tooltip=N_("Sort by the next column (a click on a heading sorts by it)")
        ),
        Binding("O", "sort_reverse", N_("Reverse"), tooltip=N_("Reverse the order")),
        Binding(
            "space",
            "choose",
            N_("Select"),
            tooltip=N_(
                "Select the card (or let it go) for s, b and d on several cards; shift+up/down selects a range"
            ),
            show=False,
        ),
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
        self.sort_by: str | None = None  # a column key; None: the store's order
        self.descending = False
        self.titles = section_titles(session.library)  # "7.9" -> the chapter's heading (read once)

    def compose(self) -> ComposeResult:
        with Vertical(id="browser"):
            with Horizontal(id="filters"):
                # select_on_focus off: text typed on the table and moved here is not replaced by the next key;
                # / and ctrl+f select the kept filter themselves (focus_search)
                yield Input(
                    placeholder=_("search id, question, answer, tags, flag:1, tag:marked…"),
                    id="filter-text",
                    select_on_focus=False,
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
                [Column(key, _(heading), *layout) for key, heading, *layout in COLUMNS],
                id="cards",
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
        if self.focus_search:
            self.action_focus_search()
        else:
            self.query_one(CardTable).focus()

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
        if self.sort_by is not None:
            key = self.sort_by
            rows = sorted(
                rows, key=lambda row: sort_value(key, row, self._question(row)), reverse=self.descending
            )
        table = self.query_one(CardTable)
        if [row.card_id for row in rows] == list(self._rows):
            for row in rows:  # the same cards: rewrite only those whose state changed
                if self._rows[row.card_id] != row:
                    table.update_row(row.card_id, self._cells(row))
        else:
            table.set_rows((row.card_id, self._cells(row)) for row in rows)
        self._rows = {row.card_id: row for row in rows}
        self.say_count()

    def say_count(self) -> None:
        n = len(self._rows)
        chosen = len(self.query_one(CardTable).chosen)
        if chosen:
            self.say(
                _(
                    "{chosen} of {n} cards selected · s suspend · b bury · d due now (each selected card) · "
                    "space selects · esc back"
                ).format(chosen=chosen, n=n)
            )
            return
        self.say(
            ngettext(
                "{n} card · enter opens a card · s suspend · b bury · d due now · i info · r reset · esc back",
                "{n} cards · enter opens a card · s suspend · b bury · d due now · i info · r reset · esc back",
                n,
            ).format(n=n)
        )

    def _question(self, row: BrowseRow) -> str:
        card = self.session.card(row.card_id)
        return question_line(card) if card else ""

    def _cells(self, row: BrowseRow) -> tuple[Text, ...]:
        return row_cells(row, self._question(row), self.titles)

    # --- sorting and choosing -------------------------------------------------------------------------

    def sort(self, column: str | None, descending: bool = False) -> None:
        self.sort_by, self.descending = column, descending
        self.query_one(CardTable).set_sorted(column, descending)
        self.refresh_rows()

    def action_sort(self) -> None:
        keys = [key for key, *_rest in COLUMNS]
        at = -1 if self.sort_by is None else keys.index(self.sort_by)
        self.sort(keys[at + 1] if at + 1 < len(keys) else None)

    def action_sort_reverse(self) -> None:
        self.sort(self.sort_by or COLUMNS[0][0], not self.descending)

    def on_card_table_header_clicked(self, event: CardTable.HeaderClicked) -> None:
        self.sort(event.column, event.column == self.sort_by and not self.descending)

    def action_choose(self) -> None:
        self.query_one(CardTable).action_toggle_chosen()

    def on_card_table_chosen_changed(self, event: CardTable.ChosenChanged) -> None:
        self.say_count()

    def on_card_table_typed(self, event: CardTable.Typed) -> None:
        """Text the table cannot use (Chinese typed with the table focused, a paste) goes into the search."""
        search = self.query_one("#filter-text", Input)
        search.focus()
        search.insert_text_at_cursor(event.text)

    def _chosen_rows(self) -> list[BrowseRow]:
        """The chosen cards still listed, in the table's order (none chosen: the keys act on the cursor's)."""
        table = self.query_one(CardTable)
        return [self._rows[key] for key in table.keys if key in table.chosen and key in self._rows]

    def _act_on_chosen(self, said, act) -> bool:
        """With cards chosen: ``act(their ids)`` in one store transaction, undone by one u; one line says how
        many (``act`` returns that number); the choice is cleared. False when none is chosen (the caller acts
        on the cursor's card)."""
        from drill.errors import DrillError

        table = self.query_one(CardTable)
        targets = [key for key in table.keys if key in table.chosen]
        if not targets:
            return False
        self._confirm = None
        try:
            done = act(targets)
        except DrillError as err:
            self.refresh_rows()
            self.say(_("Not done: {error}").format(error=err), "bold red")
            return True
        table.clear_chosen(announce=False)  # the line below says what was done
        self.refresh_rows()
        self.say(said(done).format(n=done) + (_(" (one u in study undoes them all)") if done else ""))
        return True

    def _toggle_chosen(self, chosen: list[BrowseRow], is_on, off: str, on: str) -> None:
        """s / b on the chosen cards: all turned off when every one is on already, else the others turned on,
        in one transaction (``off`` and ``on``: the store's bulk action, e.g. "unsuspend" and "suspend")."""
        store, now = self.session.store, self.session.now()
        if all(is_on(row) for row in chosen):
            todo = [row.card_id for row in chosen]
            action = off
        else:
            todo = [row.card_id for row in chosen if not is_on(row)]
            action = on

        def act(targets: list[str]) -> int:
            ids = [cid for cid in targets if cid in todo]
            store.bulk(action, ids, now)
            return len(ids)

        self._act_on_chosen(BULK_SAID[action], act)

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
        """s: the chosen cards suspended (all unsuspended when every one of them was suspended already), else
        the cursor's card suspended or unsuspended."""
        chosen = self._chosen_rows()
        if chosen:
            self._toggle_chosen(chosen, lambda row: row.suspended, "unsuspend", "suspend")
            return
        row = self._rows.get(self.selected() or "")
        if row is None:
            return
        store = self.session.store
        if row.suspended:
            self._act(_("{id} unsuspended"), store.unsuspend)
        else:
            self._act(_("{id} suspended"), store.suspend)

    def action_toggle_bury(self) -> None:
        chosen = self._chosen_rows()
        if chosen:
            self._toggle_chosen(chosen, lambda row: row.buried, "unbury", "bury")
            return
        row = self._rows.get(self.selected() or "")
        if row is None:
            return
        store = self.session.store
        if row.buried:
            self._act(_("{id} unburied"), store.unbury)
        else:
            self._act(_("{id} buried until tomorrow"), store.bury, self.session.now())

    def action_make_due(self) -> None:
        chosen = self._chosen_rows()
        if chosen:
            due = {row.card_id for row in chosen if row.kind.value != "new"}  # new cards: studied as new
            store, now = self.session.store, self.session.now()
            self._act_on_chosen(
                lambda n: ngettext(
                    "{n} card due now (new ones are studied with the new cards)",
                    "{n} cards due now (new ones are studied with the new cards)",
                    n,
                ),
                lambda targets: store.make_due_now([cid for cid in targets if cid in due], now),
            )
            return
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
                ).format(id=visible(card_id), due=when_text(row.due)),
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
        """The search box, its kept text selected (typing replaces it, an arrow key keeps it)."""
        search = self.query_one("#filter-text", Input)
        search.focus()
        search.select_all()

    def action_close(self) -> None:
        self.dismiss(None)
