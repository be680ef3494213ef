"""One card: where it comes from, the question, and (after reveal) the answer as Markdown.

Every string from the content goes through ``rich.text.Text`` or Rich's Markdown renderer, never through
markup, so a card holding ``[@click=app.quit]`` shows those characters; links are plain text (no hyperlinks).

Reveal is instant: once the question is painted, the answer's Markdown is parsed and laid out at the card's
width (`RenderedOnce`), on the UI thread while the learner reads (a millisecond for most answers; a thread would
compete with the next paint for the GIL), so the reveal only shows lines already made. A reveal before that is
done lays it out itself (same result). Nothing here waits on the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.widgets import Static

from drill.i18n import _
from drill.tui.text import visible
from drill.tui.widgets.rendered_once import RenderedOnce
from drill.tui.widgets.settled import SettledScroll, SettledStatic, SettledVertical

if TYPE_CHECKING:
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


class CardText(SettledStatic):
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


def answer_renderable(source: str) -> RenderedOnce:
    """The answer's Markdown as Rich renders it (no hyperlinks, no markup), laid out once per width."""
    from rich.markdown import Markdown

    return RenderedOnce(Markdown(source, hyperlinks=False, inline_code_theme=None))


class AnswerText(CardText):
    """The rendered answer; ``source`` keeps its Markdown (what the tests and the pseudo-locale read)."""

    source = ""


class CardView(SettledScroll):
    """Question always; answer, bank answer, pitfalls and errata once revealed."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.card: Card | None = None
        self.revealed = False
        self._prepared: tuple[Card, str, RenderedOnce] | None = None  # the shown card's answer, laid out

    def compose(self) -> ComposeResult:
        yield CardText(Text(_("loading…"), style="italic"), id="card-meta")
        yield CardText("", id="question")
        yield CardText(Text(_("space / enter  show answer"), style="dim"), id="reveal-hint")
        with SettledVertical(id="answer"):
            yield AnswerText("", id="answer-md")
            yield CardText("", id="errata")

    def show_card(self, card: Card) -> None:
        self.card = card
        self.revealed = False
        self._prepared = None
        self.query_one("#card-meta", Static).update(card_meta(card))
        self.query_one("#question", Static).update(Text(visible(card.front_text())))
        self.query_one("#reveal-hint").display = True
        answer = self.query_one("#answer")
        answer.display = False
        self.query_one("#errata", Static).update("")
        self.query_one("#errata").display = False
        self.scroll_home(animate=False)
        # Once the question is on screen (and after what else waits for that paint: call_later), so neither
        # the Markdown's layout nor its imports (rich.markdown, the first time) take time from that paint.
        self.call_after_refresh(self.call_later, self.prepare_answer, card)

    def prepare_answer(self, card: Card) -> None:
        """Parse the answer and lay it out with the options a Static of the card's width is rendered with
        (textual's RichVisual), so the reveal finds its lines made."""
        if self.card is not card or self.revealed or self._prepared is not None:
            return
        source = answer_markdown(card)
        answer = answer_renderable(source)
        width = self.scrollable_content_region.width
        if width > 0:
            options = self.app.console_options.update(highlight=False, width=width).update_width(width)
            self.app.console.render_lines(answer, options, pad=False)
        self._prepared = (card, source, answer)

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
        prepared = self._prepared
        if prepared is not None and prepared[0] is self.card:
            _card, source, rendered = prepared
        else:  # revealed before the worker was done: lay it out now
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
