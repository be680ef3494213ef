"""The card kinds beyond question/answer: table cloze, formula ↔ code, hand calculation, code task.

Each kind is a subclass of `Card` declared once here (its fields, with their rules) and named by its ``KIND``;
a card in questions.yaml says which with ``kind:`` (default ``qa``). The chapter's words stay the chapter's:
the fields a kind adds that quote the chapter (a table, a formula cell, a code line, the inputs of a step) are
declared verbatim, so `drill check` finds each one in the pack's source. A kind's ``question`` and ``answer``
are derived from those fields (never read from the file), so every place that shows a card's question or
answer (browser, reports, Anki export) shows the kind's; ``front`` adds drill's own prompt (through
`drill.i18n`), Markdown and $LaTeX$ like every content text (the Anki export renders it), and ``front_text()``
is the same laid out as plain text (formulas rendered, a table in columns) for the study screen's question.

One YAML record may make several cards (`expand`): a table makes one cloze card per body row (that row's
cells hidden, the first column left as the row's label), a formula ↔ code pair makes one card each way.

Standard library only (the study screen reads these before its first paint); the LaTeX renderer is imported
when a front is shown.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ClassVar

from drill.content.models import Card
from drill.content.rules import ID, ITEM_ID, VERBATIM, Index, Integer, Text, TextList
from drill.fields import Invalid, declare
from drill.i18n import N_, _

HIDDEN = "［？］"  # what a hidden cell shows
EMPTY_CELLS = ("", "—", "-")  # cells not worth asking for (the chapter's "no entry")
FRONT_WIDTH = 76  # a table wider than this (in terminal columns) is shown one row a line, not in columns


def _derived(rule: Text | None = None) -> Any:
    """A field a kind derives from its own fields (the question and answer): never read from a file."""
    return declare(rule or Text(), given=True, default="")


# ---------------------------------------------------------------------------------------------- tables


def table_rows(table: str) -> list[list[str]]:
    """A Markdown table's rows as cell texts (the header first; the ``---`` separator row dropped)."""
    return [list(row) for row in _table(table)]


@lru_cache(maxsize=512)
def _table(table: str) -> tuple[tuple[str, ...], ...]:
    """`table_rows`, parsed once per table text: a table makes one cloze card per body row, and each card
    reads it when it is built and when it is checked (from the YAML or the content cache). A table that
    breaks a rule raises `Invalid` every time (exceptions are not cached)."""
    rows: list[tuple[str, ...]] = []
    for line in table.strip().splitlines():
        line = line.strip()
        if not (line.startswith("|") and line.endswith("|")):
            raise Invalid(f"not a Markdown table row (a table row starts and ends with '|'): {line!r}")
        cells = tuple(cell.strip() for cell in line[1:-1].split("|"))
        if all(set(cell) <= set("-: ") and cell for cell in cells):
            continue  # the separator
        rows.append(cells)
    if len(rows) < 2:
        raise Invalid("a table needs a header row and at least one body row")
    width = len(rows[0])
    for n, row in enumerate(rows[1:], 1):
        if len(row) != width:
            raise Invalid(f"body row {n} has {len(row)} cells, the header {width}")
    return tuple(rows)


def hidden_cells(rows: Sequence[Sequence[str]], row: int) -> list[int]:
    """The columns (0-based) hidden in body row ``row`` (1-based): every cell but the label, less empty ones."""
    return [c for c in range(1, len(rows[row])) if rows[row][c] not in EMPTY_CELLS]


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def layout_table(rows: Sequence[Sequence[str]]) -> str:
    """Rows of plain text as an aligned table (CJK characters counted as two columns)."""
    widths = [max(_width(r[c]) for r in rows) for c in range(len(rows[0]))]

    def line(cells: Sequence[str]) -> str:
        return "│ " + " │ ".join(t + " " * (w - _width(t)) for t, w in zip(cells, widths, strict=True)) + " │"

    rule = "├─" + "─┼─".join("─" * w for w in widths) + "─┤"
    return "\n".join([line(rows[0]), rule, *(line(r) for r in rows[1:])])


def plain_text(text: str) -> str:
    """Card text on one plain line of a screen: formulas as Unicode, no Markdown ``**`` or backticks (a table
    card's cells in study and in the browser)."""
    from drill.content.latex import render_text

    return render_text(text).replace("**", "").replace("`", "")


_render = plain_text


@dataclass(frozen=True, kw_only=True)
class ClozeCard(Card):
    """One body row of a chapter table with its cells hidden; the table around it is shown."""

    KIND: ClassVar[str] = "cloze"
    PROMPT: ClassVar[str] = N_("Fill in the hidden cells of the chapter's table:")

    question: str = _derived()
    answer: str = _derived()
    table: str = declare(VERBATIM)  # the chapter's table, its lines as written
    rows: tuple[int, ...] = declare(Index(), default=())  # the body rows (1-based) to ask; () = every row
    row: int = declare(Integer(0, 999), given=True, default=0)  # this card's row (set by `expand`)

    def __post_init__(self) -> None:
        if not self.row:
            return
        rows = _table(self.table)
        label = rows[self.row][0] or rows[0][0]
        shown = [list(r) for r in rows]
        for c in hidden_cells(rows, self.row):
            shown[self.row][c] = HIDDEN
        answer = "\n".join(
            f"- **{rows[0][c] or label}**：{rows[self.row][c]}" for c in hidden_cells(rows, self.row)
        )
        lines = ["| " + " | ".join(r) + " |" for r in shown]
        lines.insert(
            1, "|" + "|".join(" --- " for _ in shown[0]) + "|"
        )  # the delimiter row: a table in Markdown
        object.__setattr__(self, "question", "\n".join(lines))
        object.__setattr__(self, "answer", f"**{label}**\n\n{answer}" if label else answer)

    @staticmethod
    def check_record(values: dict[str, Any]) -> None:
        Card.check_record(values)
        try:
            rows = _table(values["table"])
        except Invalid as err:
            raise Invalid(err.problem, ("table",)) from None
        for i, n in enumerate(values.get("rows") or ()):
            if not 1 <= n < len(rows):
                raise Invalid(f"row {n} is not a body row of the table (1..{len(rows) - 1})", ("rows", i))
        for n in values.get("rows") or range(1, len(rows)):
            if not hidden_cells(rows, n):
                raise Invalid(f"body row {n} has no cell to hide (only its label)", ("table",))

    def shown_text(self) -> tuple[str, ...]:
        return (self.table, *self.pitfalls)

    def expand(self) -> list[Card]:
        rows = self.rows or tuple(range(1, len(_table(self.table))))
        return [replace(self, id=f"{self.id}.r{n}", row=n) for n in rows]

    @property
    def front(self) -> str:
        return _(self.PROMPT) + "\n\n" + self.question

    def asked_line(self) -> str:
        """What this card asks, on one line: its row's cells under their headers (``原始分数：1；缩放后：［？］``);
        table cards of one table differ here, where their fronts share the prompt and the table."""
        head, row = _table(self.question)[0], _table(self.question)[self.row]
        return "；".join(f"{h}：{cell}" if h else cell for h, cell in zip(head, row, strict=True))

    def front_text(self) -> str:
        rows = [[_render(cell) for cell in row] for row in _table(self.question)]
        table = layout_table(rows)
        if max(_width(line) for line in table.splitlines()) > FRONT_WIDTH:  # one row a line, wrapped
            head = rows[0]
            table = "\n".join(
                (row[0] + " — " if row[0] else "")
                + "；".join(f"{h}：{cell}" if h else cell for h, cell in zip(head[1:], row[1:], strict=True))
                for row in rows[1:]
            )
        return _(self.PROMPT) + "\n\n" + table


# ---------------------------------------------------------------------------------------- formula ↔ code

TO_CODE, TO_FORMULA = "to-code", "to-formula"
DIRECTION = Text(re.compile(r"(to-code|to-formula)\Z"), "to-code or to-formula")


@dataclass(frozen=True, kw_only=True)
class FormulaCard(Card):
    """A row of 7.13's table: the formula shown, the code line recalled (``to-code``), or the reverse."""

    KIND: ClassVar[str] = "formula"
    PROMPTS: ClassVar[dict[str, str]] = {
        TO_CODE: N_("Write the PyTorch line for this formula:"),
        TO_FORMULA: N_("What does this line compute (the formula), and why is it there?"),
    }

    question: str = _derived()
    answer: str = _derived()
    formula: str = declare(VERBATIM)  # the table's formula cell, $LaTeX$ as written
    code: str = declare(VERBATIM)  # the table's code cell, without its backticks
    note: str = declare(VERBATIM)  # the table's 说明 cell
    direction: str = declare(DIRECTION, given=True, default=TO_CODE)

    def __post_init__(self) -> None:
        code = f"`{self.code}`"
        if self.direction == TO_CODE:
            question, answer = self.formula, f"{code}\n\n{self.note}"
        else:
            question, answer = code, f"{self.formula}\n\n{self.note}"
        object.__setattr__(self, "question", question)
        object.__setattr__(self, "answer", answer)

    def shown_text(self) -> tuple[str, ...]:
        return (self.formula, self.code, self.note, *self.pitfalls)

    def expand(self) -> list[Card]:
        return [replace(self, id=f"{self.id}.{d}", direction=d) for d in (TO_CODE, TO_FORMULA)]

    @property
    def front(self) -> str:
        return _(self.PROMPTS[self.direction]) + "\n\n" + self.question

    def front_text(self) -> str:
        shown = _render(self.formula) if self.direction == TO_CODE else self.code
        return _(self.PROMPTS[self.direction]) + "\n\n    " + shown


# ------------------------------------------------------------------------------------- hand calculation

# How the chapter names each step's matrix in the worked example (7.12)
STEP_SYMBOLS = {
    "x": "X",
    "project_q": "Q",
    "project_k": "K",
    "project_v": "V",
    "scores": "S",
    "scale": "S/√d_k",
    "softmax": "A",
    "weighted_sum": "O",
}
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def element_name(step: str, index: tuple[int, ...]) -> str:
    """The element as the chapter names it, counted from 1: ``A₁₂``, ``(S/√d_k)₂₃``."""
    symbol = STEP_SYMBOLS.get(step, step)
    if not index:
        return symbol
    if "/" in symbol:
        symbol = f"({symbol})"
    return symbol + "".join(str(i + 1) for i in index).translate(_SUB)


@dataclass(frozen=True, kw_only=True)
class CalcCard(Card):
    """One element of one step of the worked example: the learner computes it from the inputs shown.

    ``check`` names the checks.yaml entry for that element (the engine recomputes it; the chapter's printed
    value and any erratum are the check's); the loader copies its step, index and precision here.
    """

    KIND: ClassVar[str] = "calc"
    PROMPT: ClassVar[str] = N_("Hand calculation (7.12): compute {element} to {decimals} decimals from:")

    question: str = _derived()
    answer: str = _derived()
    check: str = declare(ID)  # the checks.yaml id of the element asked
    given: tuple[str, ...] = declare(TextList(VERBATIM))  # the chapter's text of the step's inputs
    shows: str = declare(VERBATIM)  # the chapter's text of the step's result
    example: str = declare(Text(ITEM_ID), given=True, default="worked")
    step: str = declare(Text(ITEM_ID), given=True, default="x")
    index: tuple[int, ...] = declare(Index(), given=True, default=())
    decimals: int = declare(Integer(0, 12), given=True, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "question", "\n\n".join(self.given))
        object.__setattr__(self, "answer", self.shows)

    def shown_text(self) -> tuple[str, ...]:
        return (*self.given, self.shows, *self.pitfalls)

    @property
    def element(self) -> str:
        return element_name(self.step, self.index)

    @property
    def front(self) -> str:
        return _(self.PROMPT).format(element=self.element, decimals=self.decimals) + "\n\n" + self.question

    def front_text(self) -> str:
        head = _(self.PROMPT).format(element=self.element, decimals=self.decimals)
        return head + "\n\n" + "\n\n".join(_render(g) for g in self.given)


# ------------------------------------------------------------------------------------------- code tasks


@dataclass(frozen=True, kw_only=True)
class CodeCard(Card):
    """A `drill code` task as a card: in study it opens the code editor; the run proposes the grade."""

    KIND: ClassVar[str] = "code"
    PROMPT: ClassVar[str] = N_("Write {task} yourself: space opens the code editor (ctrl+r runs the tests).")

    question: str = _derived()
    answer: str = _derived()
    task: str = declare(Text(ITEM_ID, "a code task name (drill code --list)"))

    def __post_init__(self) -> None:
        object.__setattr__(self, "question", f"drill code {self.task}")
        object.__setattr__(self, "answer", f"drill code {self.task}")

    @property
    def front(self) -> str:
        return _(self.PROMPT).format(task=self.task)

    def front_text(self) -> str:
        return self.front


# ------------------------------------------------------------------------------------------ the registry

KINDS: dict[str, type[Card]] = {
    "qa": Card,
    ClozeCard.KIND: ClozeCard,
    FormulaCard.KIND: FormulaCard,
    CalcCard.KIND: CalcCard,
    CodeCard.KIND: CodeCard,
}


def expand(card: Card) -> list[Card]:
    """The cards one YAML record makes (itself, for the kinds that make one)."""
    many = getattr(card, "expand", None)
    return many() if many is not None else [card]


def card_class(value: object) -> type[Card]:
    """The class a card record's ``kind:`` names; `Invalid` (at ``kind``) for an unknown one."""
    kind = value.get("kind", "qa") if isinstance(value, dict) else "qa"
    if not isinstance(kind, str) or kind not in KINDS:
        raise Invalid(f"unknown card kind {kind!r} (kinds: {', '.join(KINDS)})", ("kind",))
    return KINDS[kind]
