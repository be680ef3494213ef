"""One card: where it comes from, the question, and (after reveal) the answer as Markdown.

Every string from the content goes through ``rich.text.Text`` or Rich's Markdown renderer, never through
markup, so a card holding ``[@click=app.quit]`` shows those characters; links are plain text (no hyperlinks).

The answer's Markdown is parsed and laid out on reveal; nothing here waits on the engine (the errata notes come
from a thread worker when the engine has not checked them yet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from drill.i18n import _
from drill.tui.text import visible

if TYPE_CHECKING:
    from rich.markdown import Markdown

    from drill.content.models import Card, Check


def answer_markdown(card: Card) -> str:
    """The answer side as one Markdown document, LaTeX turned into Unicode."""
    from drill.content.latex import render_text

    def md(text: str) -> str:
        # markdown=True: multi-line formulas become fenced blocks (a Markdown paragraph would join a
        # matrix's rows into one line) and inline ones are escaped so `_` or `*` can't turn into emphasis.
        return render_text(text, markdown=True)

    if card.bank_question:
        # The front showed the bank's wording: its answer first, then the section's question with its answer.
        parts = ["**题库答案（7.24）**\n\n" + md(card.bank_answer or card.answer)]
        parts.append(f"---\n\n**§{card.section}** {md(card.question)}\n\n" + md(card.answer))
    else:
        parts = [md(card.answer)]
        if card.bank_answer:
            parts.append("---\n\n**题库答案（7.24）**\n\n" + md(card.bank_answer))
    if card.pitfalls:
        parts.append("**常见误区**\n\n" + "\n".join(f"- {md(p)}" for p in card.pitfalls))
    parts += correction_blocks(card, md)
    return visible("\n\n".join(parts))


def correction_blocks(card: Card, md) -> list[str]:
    """The corrections beside the chapter's words (drill.content.errata, in the UI language), marked as drill's:
    one block for the claims the chapter gets wrong, one for the exact figures of claims right in magnitude."""
    from drill.content.errata import MARKS, NOTE, WRONG, card_notes

    notes = card_notes(card)
    blocks = []
    for kind in (WRONG, NOTE):
        lines = [f"- 「{md(c.quote)}」：{md(c.correction)}" for c in notes if c.kind == kind]
        if lines:
            blocks.append(f"**{_(MARKS[kind])}**\n\n" + "\n".join(lines))
    return blocks


class CardText(Static):
    """A line of the card (its text never markup)."""


def card_meta(card: Card) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"§{visible(card.section)}", style="bold")
    text.append(f" · {visible(card.id)}")
    if card.bank:
        text.append(f" · 题库 #{card.bank}")  # the chapter's own name for its 7.24 question bank
    if card.tags:
        text.append(" · " + visible(", ".join(card.tags)), style="dim")
    return text


def answer_renderable(source: str) -> Markdown:
    """The answer's Markdown as Rich renders it (no hyperlinks, no markup)."""
    from rich.markdown import Markdown

    return Markdown(source, hyperlinks=False, inline_code_theme=None)


class AnswerText(CardText):
    """The rendered answer; ``source`` keeps its Markdown (what the tests and the pseudo-locale read)."""

    source = ""


class CardView(VerticalScroll):
    """Question always; answer, bank answer, pitfalls and errata once revealed."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.card: Card | None = None
        self.revealed = False

    def compose(self) -> ComposeResult:
        yield CardText(Text(_("loading…"), style="italic"), id="card-meta")
        yield CardText("", id="question")
        yield CardText(Text(_("space / enter  show answer"), style="dim"), id="reveal-hint")
        with Vertical(id="answer"):
            yield AnswerText("", id="answer-md")
            yield CardText("", id="errata")

    def show_card(self, card: Card) -> None:
        self.card = card
        self.revealed = False
        self.query_one("#card-meta", Static).update(card_meta(card))
        self.query_one("#question", Static).update(Text(visible(card.front_text())))
        self.query_one("#reveal-hint").display = True
        answer = self.query_one("#answer")
        answer.display = False
        self.query_one("#errata", Static).update("")
        self.query_one("#errata").display = False
        self.scroll_home(animate=False)

    def show_message(self, title: str, body: str = "") -> None:
        self.card = None
        self.revealed = False
        self.query_one("#card-meta", Static).update(Text(title, style="bold"))
        self.query_one("#question", Static).update(Text(body))
        self.query_one("#reveal-hint").display = False
        self.query_one("#answer").display = False

    async def reveal(self) -> None:
        if self.card is None or self.revealed:
            return
        self.revealed = True
        source = answer_markdown(self.card)
        rendered = answer_renderable(source)
        markdown = self.query_one("#answer-md", AnswerText)
        markdown.source = source
        markdown.update(rendered)
        self.query_one("#reveal-hint").display = False
        self.query_one("#answer").display = True

    def show_errata_of(self, card: Card, checks: list[Check]) -> None:
        """The errata notes of ``card`` (the one shown): at once when the engine has checked them already,
        otherwise once a thread worker has (numpy), if the card is still the one shown."""
        from drill.tui.steps import cached_errata

        notes = cached_errata(checks)
        if notes is None:
            self._load_errata(card, checks)
        else:
            self.show_errata(notes)

    @work(thread=True, exclusive=True, group="errata")
    def _load_errata(self, card: Card, checks: list[Check]) -> None:
        from drill.tui.steps import errata_notes

        notes = errata_notes(checks)
        self.app.call_from_thread(self._errata_built, card, notes)

    def _errata_built(self, card: Card, notes: list[str]) -> None:
        if self.card is card:
            self.show_errata(notes)

    def show_errata(self, notes: list[str]) -> None:
        errata = self.query_one("#errata", Static)
        if not notes:
            errata.display = False
            return
        text = Text()
        for i, note in enumerate(notes):
            if i:
                text.append("\n")
            text.append("⚠ " + _("erratum") + ": ", style="bold")
            text.append(visible(note))
        errata.update(text)
        errata.display = True
