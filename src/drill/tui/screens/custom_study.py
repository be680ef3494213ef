"""Custom study from the study screen (key c, or the command palette): the choices Anki offers in its custom
study dialog — this section now, review ahead, today's forgotten cards, preview new cards. Dismissed with a
`StudyFilter` (tui/models/custom_study.py), or None."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from drill.i18n import N_, _
from drill.tui.models.custom_study import StudyFilter

# (mode, what the option says); translated where shown.
CHOICES = (
    ("due", N_("Study the chosen section now (its cards due today, then its new cards)")),
    ("ahead", N_("Review ahead: cards due within the next N days (an early review counts and reschedules)")),
    ("forgotten", N_("Review today's forgotten cards (answered Again today)")),
    ("preview", N_("Preview new cards without scheduling them (nothing is saved)")),
)
DEFAULT_AHEAD_DAYS = 7


class CustomStudyScreen(ModalScreen[StudyFilter | None]):
    CSS_PATH = "../styles/modal.tcss"
    BINDINGS = [Binding("escape", "close", N_("Close"))]
    DEFAULT_CSS = """
    CustomStudyScreen #custom-filters { height: auto; margin-bottom: 1; }
    CustomStudyScreen #custom-section { width: 1fr; }
    CustomStudyScreen #custom-days { width: 20; }
    CustomStudyScreen #custom-choices { height: auto; max-height: 10; }
    """

    def __init__(self, sections: list[str]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(Text(_("Custom study"), style="bold"), classes="dialog-title")
            with Horizontal(id="custom-filters"):
                yield Select([(s, s) for s in self.sections], prompt=_("any section"), id="custom-section")
                yield Input(
                    str(DEFAULT_AHEAD_DAYS),
                    placeholder=_("days ahead"),
                    type="integer",
                    max_length=3,
                    id="custom-days",
                    tooltip=_("days ahead"),
                )
            yield OptionList(*(Option(_(text), id=mode) for mode, text in CHOICES), id="custom-choices")
            yield Static(
                Text(_("enter starts it · esc closes; the section applies to every choice"), style="dim"),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def chosen(self, mode: str) -> StudyFilter | None:
        section = self.query_one("#custom-section", Select).value
        sections = () if section is Select.NULL else (str(section),)
        days = 0
        if mode == "ahead":
            value = self.query_one("#custom-days", Input).value.strip()
            if not value.isdigit() or not 1 <= int(value) <= 365:
                self.notify(_("Days ahead: a whole number from 1 to 365."), severity="error")
                return None
            days = int(value)
        if mode == "due" and not sections:
            self.notify(_("Choose a section first."), severity="error")
            return None
        return StudyFilter(sections=sections, mode=mode, ahead_days=days)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        study = self.chosen(str(event.option.id))
        if study is not None:
            self.dismiss(study)

    def action_close(self) -> None:
        self.dismiss(None)
