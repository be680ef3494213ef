"""Typed inputs for the calc screen: one line per matrix ("X [3, 2]  1,0;0,1;1,1"), an inline message below.

Enter applies the line it is typed in; the screen parses it (drill.engine.parse) and either recomputes or
shows the message, naming the matrix and its shape. The editor never raises.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Static

from drill.i18n import N_, _

HINT = N_("rows ';' values ','  ·  enter applies  ·  tab next  ·  esc closes")
# An input's name shown beside its field, when it is a word rather than an engine name (X, W_Q, ...).
LABELS = {"pad": N_("pad")}


class MatrixEditor(Vertical):
    class Apply(Message):
        def __init__(self, name: str, text: str) -> None:
            super().__init__()
            self.name = name
            self.text = text

    def __init__(self, names: tuple[str, ...], **kwargs) -> None:
        super().__init__(**kwargs)
        self.names = names

    def compose(self) -> ComposeResult:
        yield Static(
            Text.assemble((_("edit inputs") + "  ", "bold"), (_(HINT), "dim")), classes="editor-title"
        )
        for name in self.names:
            with Horizontal(classes="editor-row"):
                yield Static(Text(_(LABELS.get(name, name))), id=f"label-{name}", classes="editor-label")
                yield Input(id=f"edit-{name}", classes="editor-input", compact=True)
        yield Static("", id="editor-message")

    def load(self, values: dict[str, tuple[str, str]]) -> None:
        """``values``: name -> (shape text, matrix text); an empty text for a matrix that is not set."""
        for name in self.names:
            shape, text = values.get(name, ("", ""))
            label = Text(_(LABELS.get(name, name)), style="bold")
            label.append(f" {shape}" if shape else " –")
            self.query_one(f"#label-{name}", Static).update(label)
            field = self.query_one(f"#edit-{name}", Input)
            field.value = text
            field.remove_class("bad")

    def show_error(self, name: str | None, message: str | None) -> None:
        box = self.query_one("#editor-message", Static)
        for field in self.query(Input):
            field.set_class(name is not None and field.id == f"edit-{name}", "bad")
        if message:
            box.update(Text.assemble(("⚠ " + _("not applied:") + " ", "bold"), message))
            box.display = True
        else:
            box.update("")
            box.display = False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        name = (event.input.id or "").removeprefix("edit-")
        self.post_message(self.Apply(name, event.value))

    def focus_first(self) -> None:
        self.query_one(Input).focus()
