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
from drill.tui.marks import marks_text
from drill.tui.models.sections import section_label
from drill.tui.models.study import GRADE_NAMES, STATE_NAMES

if TYPE_CHECKING:
    from drill.content.models import Card
    from drill.store.types import CardInfo


def _when(moment: datetime | None) -> str:
    return "—" if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _num(value: float | None, fmt: str) -> str:
    return "—" if value is None else format(value, fmt)


def info_renderable(card: Card, info: CardInfo, titles: dict[str, str] | None = None) -> Group:
    facts = Table(box=None, show_header=False, pad_edge=False)
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column()
    flags = [
        _(STATE_NAMES[name]) for name, on in (("suspended", info.suspended), ("leech", info.leech)) if on
    ]
    if info.buried_until is not None:
        flags.append(_("buried until {when}").format(when=_when(info.buried_until)))
    if info.flag or info.marked:
        flags.append(marks_text(info.flag, info.marked).plain)
    state = _(STATE_NAMES.get(info.kind.value, info.kind.value))
    if info.step is not None and info.kind.value != "review":
        state += " " + _("(step {step})").format(step=info.step + 1)  # learning steps counted from 1
    rows = [
        (N_("card"), f"{card.id} · §{section_label(card.section, titles or {})} · {info.pack}"),
        (N_("state"), state),
        (N_("flags"), ", ".join(flags) or "—"),
        (
            N_("stability"),
            _num(info.stability, ".2f") + (" " + _("days") if info.stability is not None else ""),
        ),
        (N_("difficulty"), _num(info.difficulty, ".2f")),
        (N_("retrievability"), "—" if info.retrievability is None else f"{info.retrievability:.1%}"),
        (N_("next due"), _when(info.due)),
        (N_("last review"), _when(info.last_review)),
        (N_("reviews"), _("{reps} (lapses {lapses})").format(reps=info.reps, lapses=info.lapses)),
    ]
    for key, value in rows:
        facts.add_row(_(key), Text(value))
    history = Table(
        title=Text(_("history"), style="bold"), title_justify="left", pad_edge=False, header_style="bold"
    )
    for column in HISTORY_COLUMNS:
        history.add_column(_(column))
    for entry in info.history:
        before = _(STATE_NAMES.get(entry.state_before.value, entry.state_before.value))
        after = _(STATE_NAMES.get(entry.state_after.value, entry.state_after.value))
        history.add_row(
            _when(entry.reviewed_at),
            f"{entry.rating} {_(GRADE_NAMES.get(entry.rating, ''))}",
            f"{before} → {after}",
            f"{entry.scheduled_days:.2f} d",
            _num(entry.stability_after, ".2f"),
            "—" if entry.duration_ms is None else f"{entry.duration_ms / 1000:.1f} s",
        )
    if not info.history:
        return Group(facts, Text(""), Text(_("No reviews yet."), style="italic"))
    return Group(facts, Text(""), history)


HISTORY_COLUMNS = (N_("when"), N_("grade"), N_("before → after"), N_("interval"), N_("stability"), N_("took"))


class CardInfoScreen(ModalScreen[None]):
    CSS_PATH = "../styles/modal.tcss"
    BINDINGS = [
        Binding("escape", "close", N_("Close")),
        Binding("i", "close", N_("Close")),
        Binding("q", "close", N_("Close")),
    ]

    def __init__(self, card: Card, info: CardInfo, titles: dict[str, str] | None = None) -> None:
        super().__init__()
        self.card = card
        self.info = info
        self.titles = titles  # section number -> the chapter's title (tui/models/sections.py)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(
                Text(_("Card info · {id}").format(id=self.card.id), style="bold"), classes="dialog-title"
            )
            yield Static(info_renderable(self.card, self.info, self.titles), id="card-info")
            yield Static(Text(_("esc / i / q  close"), style="dim"), classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
