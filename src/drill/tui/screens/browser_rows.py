"""The card browser's rows: its columns, a card's cells as the table shows them, and each column's sort value
(the screen, ``browser.py``, holds the filters, the selection and the actions)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text

from drill.content.sections import section_key
from drill.i18n import N_, _
from drill.tui.marks import marks_text
from drill.tui.models.sections import section_label
from drill.tui.models.study import STATE_NAMES
from drill.tui.text import visible

if TYPE_CHECKING:
    from drill.store.types import BrowseRow

# (key, heading, width, drop rank, fit, least, whole); headings translated where shown; the question column
# takes what is left; on a narrow terminal lapses, then stability and flag, then due give way to it and to whole
# ids and states; then the section narrows (to 9: "7.13 多…") and goes; an id is cut only when nothing else
# can give way (60 columns)
# (CardTable: fit, up to the last number; "learning (suspended)" and s7.20-ln-position were cut at 120 columns,
# code-sinusoidal… at 80).
COLUMNS = (
    ("id", N_("id"), 11, 0, 30, 0, True),  # most ids fit in 11 (t7.9-1.2.3: 10); the longest is 29
    ("section", N_("section"), 20, 1, 0, 9, False),  # given up last (at 60 columns): the section filter stays
    ("state", N_("state"), 12, 0, 24, 0, False),
    ("flag", N_("flag"), 4, 3, 0, 0, False),  # Anki's flag in its colour, ★ marked
    ("due", N_("due"), 16, 2, 0, 0, False),
    ("stability", N_("stability"), 9, 3, 0, 0, False),
    ("lapses", N_("lapses"), 6, 4, 0, 0, False),
    ("question", N_("question"), None, 0, 0, 0, False),
)
STATES = tuple(STATE_NAMES)
PHASES = ("new", "learning", "review", "relearning")
LAST = (1, "")  # where a missing value sorts: after every value


def when_text(moment: datetime | None) -> str:
    return "—" if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


def question_line(card) -> str:
    """The question column: what the card asks as study shows it (a bank card's front), a table card its row;
    formulas drawn, no Markdown marks (``**Attention**`` reads Attention)."""
    from drill.content.kinds import plain_text

    asked = getattr(card, "asked_line", None)
    return plain_text(asked() if asked is not None else getattr(card, "front", card.question))


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
        Text("—" if row.kind.value == "new" else when_text(row.due)),
        Text(stability, justify="right"),
        Text(str(row.lapses), justify="right"),
        Text(visible(question.replace("\n", " ")), no_wrap=True, overflow="ellipsis"),
    )


def sort_value(column: str, row: BrowseRow, question: str):
    """A row's value in ``column`` for sorting: sections in the chapter's order (7.2 before 7.10), the states
    in their learning order, a missing due date or stability after every value."""
    if column == "section":
        return section_key(row.section)
    if column == "state":
        return (
            PHASES.index(row.kind.value) if row.kind.value in PHASES else len(PHASES),
            row.suspended,
            row.buried,
        )
    if column == "due":
        return LAST if row.kind.value == "new" or row.due is None else (0, row.due.isoformat())
    if column == "stability":
        return LAST if row.stability is None else (0, row.stability)
    if column == "lapses":
        return row.lapses
    if column == "flag":
        return (row.flag == 0, row.flag, not row.marked)  # flagged first, in Anki's colour order
    if column == "question":
        return question.casefold()
    return row.card_id
