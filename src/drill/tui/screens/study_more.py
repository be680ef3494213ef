"""Study more today from the study screen (key +, or the command palette): Anki's custom study "increase
today's new card limit" / "increase today's review limit". The learner types how many new cards and how many
reviews to add to today's limits; dismissed with (new, reviews), or None. The store keeps them for the study
day (drill.store.extras); `drill study --more N --more-reviews M` does the same from the command line."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from drill.i18n import N_, _
from drill.store.extras import MAX_EXTRA

DEFAULT_NEW = 10  # what the new-cards field starts with


class StudyMoreScreen(ModalScreen[tuple[int, int] | None]):
    CSS_PATH = "../styles/modal.tcss"
    BINDINGS = [Binding("escape", "close", N_("Close"))]
    DEFAULT_CSS = """
    StudyMoreScreen .more-row { height: auto; }
    StudyMoreScreen .more-row Label { width: 1fr; padding: 1 1 0 0; }
    StudyMoreScreen .more-row Input { width: 14; }
    """

    def __init__(self, new_per_day: int, reviews_per_day: int, extra: tuple[int, int] = (0, 0)) -> None:
        super().__init__()
        self.limits = (new_per_day, reviews_per_day)
        self.extra = extra

    def compose(self) -> ComposeResult:
        new_per_day, reviews_per_day = self.limits
        with Vertical(id="dialog"):
            yield Static(Text(_("Study more today"), style="bold"), classes="dialog-title")
            yield Static(
                Text(
                    _(
                        "Today's limits: {new} new cards, {reviews} reviews (settings {new_per_day} and "
                        "{reviews_per_day}, + what was added today). Tomorrow starts from the settings again."
                    ).format(
                        new=new_per_day + self.extra[0],
                        reviews=reviews_per_day + self.extra[1],
                        new_per_day=new_per_day,
                        reviews_per_day=reviews_per_day,
                    )
                ),
                id="more-limits",
            )
            with Horizontal(classes="more-row"):
                yield Label(_("New cards to add today"))
                yield Input(str(DEFAULT_NEW), type="integer", max_length=4, id="more-new")
            with Horizontal(classes="more-row"):
                yield Label(_("Reviews to add today"))
                yield Input("0", type="integer", max_length=4, id="more-reviews")
            yield Static(
                Text(_("enter adds them · esc closes · review ahead: press c (custom study)"), style="dim"),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.query_one("#more-new", Input).focus()

    def chosen(self) -> tuple[int, int] | None:
        """The two numbers, or None (the learner is told what is wrong)."""
        values = []
        for field in ("#more-new", "#more-reviews"):
            text = self.query_one(field, Input).value.strip() or "0"
            if not text.isascii() or not text.isdigit() or int(text) > MAX_EXTRA:
                self.notify(
                    _("Study more today: a whole number from 0 to {most}.").format(most=MAX_EXTRA),
                    severity="error",
                )
                return None
            values.append(int(text))
        if values == [0, 0]:
            self.notify(_("Study more today: nothing to add (0 new cards and 0 reviews)."), severity="error")
            return None
        return values[0], values[1]

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        more = self.chosen()
        if more is not None:
            self.dismiss(more)

    def action_close(self) -> None:
        self.dismiss(None)
