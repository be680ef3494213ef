"""Card info: scheduling state (stability, difficulty, retrievability, next due) and the review history."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from drill.i18n import N_, _
from drill.tui.models.study import GRADE_NAMES

if TYPE_CHECKING:
    from drill.content.models import Card
    from drill.store.types import CardInfo


def _when(moment: datetime | None) -> str:
    return "—" if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _num(value: float | None, fmt: str) -> str:
    return "—" if value is None else format(value, fmt)


def info_renderable(card: Card, info: CardInfo) -> Group:
    facts = Table(box=None, show_header=False, pad_edge=False)
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column()
    flags = [name for name, on in (("suspended", info.suspended), ("leech", info.leech)) if on]
    if info.buried_until is not None:
        flags.append(f"buried until {_when(info.buried_until)}")
    rows = [
        ("card", f"{card.id} · §{card.section} · {info.pack}"),
        (
            "state",
            info.kind.value
            + (f" (step {info.step})" if info.step is not None and info.kind.value != "review" else ""),
        ),
        ("flags", ", ".join(flags) or "—"),
        ("stability", _num(info.stability, ".2f") + (" days" if info.stability is not None else "")),
        ("difficulty", _num(info.difficulty, ".2f")),
        ("retrievability", "—" if info.retrievability is None else f"{info.retrievability:.1%}"),
        ("next due", _when(info.due)),
        ("last review", _when(info.last_review)),
        ("reviews", f"{info.reps} (lapses {info.lapses})"),
    ]
    for key, value in rows:
        facts.add_row(key, Text(value))
    history = Table(
        title=Text("history", style="bold"), title_justify="left", pad_edge=False, header_style="bold"
    )
    for column in ("when", "grade", "before → after", "interval", "stability", "took"):
        history.add_column(column)
    for entry in info.history:
        history.add_row(
            _when(entry.reviewed_at),
            f"{entry.rating} {_(GRADE_NAMES.get(entry.rating, ''))}",
            f"{entry.state_before.value} → {entry.state_after.value}",
            f"{entry.scheduled_days:.2f} d",
            _num(entry.stability_after, ".2f"),
            "—" if entry.duration_ms is None else f"{entry.duration_ms / 1000:.1f} s",
        )
    if not info.history:
        return Group(facts, Text(""), Text("No reviews yet.", style="italic"))
    return Group(facts, Text(""), history)


class CardInfoScreen(ModalScreen[None]):
    CSS_PATH = "../styles/modal.tcss"
    BINDINGS = [
        Binding("escape", "close", N_("Close")),
        Binding("i", "close", N_("Close")),
        Binding("q", "close", N_("Close")),
    ]

    def __init__(self, card: Card, info: CardInfo) -> None:
        super().__init__()
        self.card = card
        self.info = info

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(Text(f"Card info · {self.card.id}", style="bold"), classes="dialog-title")
            yield Static(info_renderable(self.card, self.info), id="card-info")
            yield Static(Text("esc / i / q  close", style="dim"), classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
