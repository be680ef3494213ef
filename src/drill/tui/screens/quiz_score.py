"""The end of a quiz: score, time, best streak, a review of every wrong answer, and an offer to make the
cards behind the wrong answers due now."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from drill.errors import DrillError
from drill.i18n import N_, _, ngettext, pad, text_width
from drill.tui.models.quiz import QuizRun, Result
from drill.tui.text import visible
from drill.tui.widgets.header import format_clock


def score_table(run: QuizRun, elapsed: float, saved_attempt: int | None, save_error: str | None) -> Table:
    total = len(run.results)
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    percent = f" ({run.score / total:.0%})" if total else ""
    table.add_row(_("score"), f"{run.score} / {total}{percent}")
    table.add_row(_("time"), format_clock(elapsed))
    table.add_row(_("best streak"), str(run.best_streak))
    timeouts = sum(1 for r in run.results if r.timed_out)
    table.add_row(_("timed out"), str(timeouts))
    if save_error:
        table.add_row(_("saved"), Text(_("NOT saved: {error}").format(error=save_error), style="bold"))
    elif saved_attempt is not None:
        table.add_row(_("saved"), _("attempt #{number}").format(number=saved_attempt))
    return table


def review_block(number: int, result: Result) -> Group:
    item = result.item
    head = Text()
    head.append(f"{number}. ✗ ", style="bold")
    head.append(f"§{visible(item.section)} · {visible(item.id)}", style="bold")
    lines = [head, Text(visible(item.stem))]
    # The two labels padded to one width (CJK counted as two columns), so the answers line up.
    labels = (_("your answer"), _("right answer"))
    width = max(text_width(label) for label in labels)
    mine = Text("   " + pad(labels[0], width) + " ", style="dim")
    mine.append(visible(result.chosen_text()))
    right = Text("   " + pad(labels[1], width) + " ", style="dim")
    right.append(visible(item.answer_text()), style="bold")
    lines += [mine, right, Text(visible(item.explanation), style="italic"), Text("")]
    return Group(*lines)


class QuizScoreScreen(Screen):
    CSS_PATH = "../styles/quiz.tcss"
    BINDINGS = [
        Binding("m", "make_due", N_("Make related cards due now")),
        Binding("q", "quit", N_("Quit")),
        Binding("enter", "quit", N_("Quit"), show=False),
    ]

    def __init__(
        self,
        run: QuizRun,
        elapsed: float,
        *,
        saved_attempt: int | None,
        save_error: str | None,
        make_due_now: Callable[[list[str]], int],
    ) -> None:
        super().__init__()
        self.run = run
        self.elapsed = elapsed
        self.saved_attempt = saved_attempt
        self.save_error = save_error
        self._make_due_now = make_due_now
        self.made_due: int | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="score-body"):
            yield Static(Text(_("Quiz finished"), style="bold"), id="score-title")
            yield Static(score_table(self.run, self.elapsed, self.saved_attempt, self.save_error), id="score")
            yield Static(self._offer_text(), id="score-offer")
            yield Static(self._review(), id="score-review")
        yield Footer()

    def _review(self) -> Group | Text:
        wrong = self.run.wrong()
        if not wrong:
            return Text(_("No wrong answers to review. ✓"), style="bold")
        blocks: list = [
            Text(_("Review: {count} wrong answer(s)").format(count=len(wrong)), style="bold underline"),
            Text(""),
        ]
        blocks += [review_block(n, r) for n, r in enumerate(wrong, start=1)]
        return Group(*blocks)

    def _offer_text(self) -> Text:
        cards = self.run.related_cards()
        text = Text()
        if not cards:
            if self.run.wrong():
                text.append(_("The wrong answers name no study cards."), style="dim")
            return text
        if self.made_due is None:
            text.append("m", style="bold reverse")
            count = len(cards)
            offer = ngettext(
                "make the {count} card behind the wrong answers due now:",
                "make the {count} cards behind the wrong answers due now:",
                count,
            )
            text.append("  " + offer.format(count=count) + " ")
            text.append(", ".join(visible(c) for c in cards))
        else:
            text.append("✓ ", style="bold")
            done = ngettext(
                "{made} of {count} card is now due for `drill study` "
                "(cards never studied stay new; cards already due stay due).",
                "{made} of {count} cards are now due for `drill study` "
                "(cards never studied stay new; cards already due stay due).",
                len(cards),
            )
            text.append(done.format(made=self.made_due, count=len(cards)))
        return text

    def action_make_due(self) -> None:
        cards = self.run.related_cards()
        if not cards or self.made_due is not None:
            return
        try:
            self.made_due = self._make_due_now(cards)
        except DrillError as err:
            self.notify(_("Could not make the cards due: {error}").format(error=err), severity="error")
            return
        self.query_one("#score-offer", Static).update(self._offer_text())

    def action_quit(self) -> None:
        self.app.exit()
