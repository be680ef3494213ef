"""The calc screen's example picker (key l): the chapter's named examples (`drill calc --list`), by section;
enter loads one, escape keeps the trace on screen. Dismissed with the example's name, or None."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from drill.i18n import N_, _
from drill.tui.text import visible


def example_option(name: str, section: str, summary: str, current: bool) -> Option:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{section:<5} ", style="bold")
    text.append(f"{name:<15} ", style="bold" if current else "")
    text.append(visible(_(summary)))
    if current:
        text.append("  " + _("(on screen)"), style="dim")
    return Option(text, id=name)


class ExamplePicker(ModalScreen[str | None]):
    CSS_PATH = "../styles/modal.tcss"
    DEFAULT_CSS = "ExamplePicker #example-list { height: auto; max-height: 20; border: none; }"
    BINDINGS = [Binding("escape", "close", N_("Close"))]

    def __init__(self, current: str | None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        from drill.engine.examples import EXAMPLES

        with VerticalScroll(id="dialog"):
            yield Static(Text(_("The chapter's examples"), style="bold"), classes="dialog-title")
            yield OptionList(
                *(
                    example_option(e.name, e.section, e.summary, e.name == self.current)
                    for e in EXAMPLES.values()
                ),
                id="example-list",
            )
            yield Static(Text(_("enter loads it · esc closes"), style="dim"), classes="dialog-hint")

    def on_mount(self) -> None:
        from drill.engine.examples import EXAMPLES

        options = self.query_one("#example-list", OptionList)
        names = list(EXAMPLES)
        options.highlighted = names.index(self.current) if self.current in names else 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(str(event.option.id))

    def action_close(self) -> None:
        self.dismiss(None)
