"""The interview screen's state, declared once: the phase, typed or aloud, the rubric's ticks and the grade chosen
(reactives), and what the session holds (the question asked, its rubric, the answers saved). `InterviewState` is
the base of the rubric phase (`interview_rubric.InterviewRubric`) and of `InterviewScreen` (interview.py); each
adds behaviour only. What the screen shows follows the reactives: the phase shows its widgets, the header and
the keys that act (``bindings=True``: `check_action` reads it); the ticks bring the rubric model, the
corrections and the proposed grade along (interview_rubric.py). The widgets (the checklists, the countdown)
post messages; none calls into the screen.

The flow from question to question is here too: `ask_next` (the next question, or the scorecard: `finish`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static, TextArea

from drill.errors import DrillError
from drill.i18n import _, current_language
from drill.tui.models.interview import (
    Asked,
    InterviewSession,
    Rubric,
    Thresholds,
    correction_text,
    rubric_for,
)
from drill.tui.options import AppOptions
from drill.tui.screens.base import LoadingScreen
from drill.tui.text import shown, visible
from drill.tui.widgets.countdown import Countdown

if TYPE_CHECKING:
    from drill.content.misconceptions import Book
    from drill.content.models import Card, Erratum, Library
    from drill.store.interviews import InterviewAnswerRecord


@dataclass
class InterviewSettings:
    questions: int = 8
    minutes: float = 3.0
    section: str | None = None
    aloud: bool = False
    follow_up: float = 0.5
    seed: int = 0
    thresholds: Thresholds = Thresholds()

    def as_dict(self) -> dict:
        t = self.thresholds
        return {
            "questions": self.questions,
            "minutes": self.minutes,
            "section": self.section,
            "aloud": self.aloud,
            "follow_up": self.follow_up,
            "seed": self.seed,
            "thresholds": {"easy": t.easy, "good": t.good, "hard": t.hard},
        }


class InterviewState(LoadingScreen[list["Card"], InterviewSession]):
    """The interview screen's state and how the screen follows it (see the module's docstring)."""

    phase: reactive[str] = reactive("loading", init=False, bindings=True)  # which keys act follows it
    typed: reactive[bool] = reactive(True, init=False)
    chosen: reactive[int | None] = reactive(None, init=False)  # the learner's grade, when changed
    # the rubric's ticks (the judge's first, then the learner's): the one place they live on screen; the
    # Checklists post Changed, the watchers (interview_rubric.py) update the Rubric model, and the views
    # (tui/widgets/rubric_views.py) are data-bound to these reactives
    covered: reactive[frozenset[int]] = reactive(frozenset(), init=False)
    hit: reactive[frozenset[int]] = reactive(frozenset(), init=False)
    # the question's rubric (drill.tui.models.interview.Rubric): the model the ticks are counted on
    rubric: reactive[Rubric | None] = reactive(None, init=False, always_update=True)

    def __init__(self, options: AppOptions) -> None:
        super().__init__(options)
        extra = options.extra
        seed = extra.get("seed")
        self.settings = InterviewSettings(
            questions=extra.get("questions") or 8,
            section=options.section,
            aloud=bool(extra.get("aloud")),
            seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
        )
        self._minutes = extra.get("minutes")
        self._follow_up = extra.get("follow_up")
        self.typed = not self.settings.aloud
        self.session: InterviewSession | None = None
        self.asked: Asked | None = None
        self.answer_text: str | None = None
        self.duration_ms = 0
        self.timed_out = False
        self.interview_id: int | None = None
        # the last answer's missed points and corrections: the follow-up's aim
        self.missed_last: tuple[str, ...] = ()
        self.book: Book | None = None  # the misconceptions (drill.content.misconceptions), once loaded
        # done (ctrl+d, space, time up) before the misconceptions loaded: the rubric follows once they are
        self.done_waiting = False
        self.errata: list[Erratum] = []  # drill's corrections, marked on a key point that restates a claim
        self.answers: list[InterviewAnswerRecord] = []
        self.content_packs: list[str] = []  # the content's packs (`plan`)
        self._library: Library | None = None  # the content (`plan`), its misconceptions read after it
        self._book_started = False  # the misconceptions load in their own worker (`load_book`), not `prepare`
        self.confirm_waiting = False  # enter pressed in the rubric before the store opened: saved once it is

    # --- the flow from question to question --------------------------------------------------------------

    def ask_next(self) -> None:
        assert self.session is not None
        asked = self.session.next_question(self.missed_last)
        if asked is None:
            self.finish()
            return
        card = asked.card
        self.asked = asked
        # the rubric lists the card's misconceptions: built once they are loaded (`book_loaded`)
        self.rubric = rubric_for(card, self.book, current_language()) if self.book is not None else None
        self.answer_text = None
        self.timed_out = False
        meta = Text(no_wrap=True, overflow="ellipsis")
        meta.append(f"§{visible(card.section)}", style="bold")
        meta.append(" · " + _("bank question {number}").format(number=card.bank))
        if asked.follow_up:
            meta.append(" · " + _("follow-up from the same section"), style="italic")
        self.query_one("#iv-meta", Static).update(meta)
        self.query_one("#iv-question", Static).update(Text(shown(card.front), style="bold"))
        editor = self.query_one("#iv-answer", TextArea)
        editor.load_text("")
        editor.read_only = False
        self.phase = "asking"
        self.chosen = None  # a new question: no grade chosen, nothing ticked (the rubric is hidden)
        self.covered = frozenset()
        self.hit = frozenset()
        if self.typed:
            self.warm_up_judge()
        self.query_one(Countdown).start(self.settings.minutes * 60)

    @work(thread=True, exclusive=True, group="judge-warm-up")
    def warm_up_judge(self) -> None:
        """jieba's dictionary (≈0.5 s) loads while the learner types, not after ctrl+d."""
        from drill.judge import warm_up

        warm_up()

    # --- what follows from the state ------------------------------------------------------------------------

    def _hint(self) -> Text:
        if self.typed:
            return Text(
                _("Type your answer below; ctrl+d when done (ctrl+t: answer aloud instead)."), style="dim"
            )
        return Text(
            _("Answer aloud: drill only times you. space when done (ctrl+t: type instead)."), style="dim"
        )

    def watch_typed(self) -> None:
        if self.is_mounted:
            self._show_phase()

    def watch_phase(self) -> None:
        self._show_phase()

    def _show_phase(self) -> None:
        phase = self.phase
        asking, rubric, done = phase == "asking", phase == "rubric", phase == "done"
        for widget in self.query(".rubric"):
            widget.display = rubric
        self.query_one("#iv-hint", Static).display = asking
        self.query_one("#iv-hint", Static).update(self._hint())
        self.query_one("#iv-given", Static).display = rubric
        self.query_one("#iv-scorecard", Static).display = done
        self.query_one(Countdown).display = not done
        for selector in ("#iv-meta", "#iv-question"):
            self.query_one(selector, Static).display = not done
        editor = self.query_one("#iv-answer", TextArea)
        editor.display = asking and self.typed
        if asking and self.typed:
            editor.focus()
        elif asking:
            self.set_focus(None)
        self.refresh_header()

    def refresh_header(self) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("drill interview", style="bold")
        if self.session is not None:
            number = len(self.session.asked) if self.phase != "done" else self.session.count
            text.append(
                " · " + _("question {number}/{count}").format(number=number, count=self.session.count),
                style="bold",
            )
            if self.phase == "rubric":
                text.append(" · " + _("rubric"))
            elif self.phase == "done":
                text.append(" · " + _("scorecard"))
            else:
                text.append(" · " + (_("typed") if self.typed else _("aloud")))
        else:  # the shell, while the questions load
            text.append(" · " + _("loading…"))
        self.query_one("#iv-header", Static).update(text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys act only in their phase: elsewhere they reach the editor or the lists."""
        if action in ("done", "toggle_mode"):
            return self.phase == "asking" and not self.done_waiting
        if action in ("grade", "confirm"):
            return self.phase == "rubric"
        return True

    # --- the end -----------------------------------------------------------------------------------------

    def finish(self) -> None:
        from drill.tui.screens.interview_scorecard import scorecard

        if self.store is not None and self.interview_id is not None:
            try:
                self.store.finish_interview(self.interview_id, self.options.clock())
            except DrillError as err:
                self.notify(_("Not saved: {error}").format(error=err), severity="error")
        self.query_one(Countdown).stop()
        fronts = {a.card.id: a.card.front for a in (self.session.asked if self.session else [])}
        language = current_language()
        book = self.book.items if self.book is not None else ()
        wrong = {m.id: (m.wrong(language), correction_text(m)) for m in book}
        self.query_one("#iv-scorecard", Static).update(scorecard(self.answers, fronts, wrong))
        self.phase = "done"
        body = self.query_one("#iv-body", VerticalScroll)  # the scorecard reads from its title, wherever the
        body.scroll_home(animate=False)  # last rubric was scrolled to; and again once it is laid out
        self.call_after_refresh(body.scroll_home, animate=False)
