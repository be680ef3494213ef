"""`drill interview`: a mock interview — the bank's question under a visible time budget, the answer typed (a
TextArea; the text is saved) or given aloud (drill only times it), then the rubric: the card's key points and the
section's traps, ticked by the learner; the grade proposed from the coverage (drill.tui.models.interview) is
confirmed (enter) or changed (1-4) and goes through ``Store.grade`` as in study, then the question's scorecard
row is saved. A scorecard closes the session.

Phases: "loading" → ("asking" → "rubric") × N → "done". The shell paints at once; the loading worker
(tui/screens/base.py) loads the content and opens the store. The questions and follow-ups come from
`InterviewSession` (seeded). The rubric phase is in interview_rubric.py, the closing table in
interview_scorecard.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Footer, Static, TextArea

from drill.errors import DrillError, InputError
from drill.i18n import N_, _, current_language
from drill.tui.models.interview import (
    Asked,
    InterviewSession,
    Rubric,
    Thresholds,
    correction_text,
    judge_into,
    rubric_for,
)
from drill.tui.models.study import GRADE_NAMES
from drill.tui.options import AppOptions
from drill.tui.screens.base import LoadingScreen
from drill.tui.screens.interview_rubric import InterviewRubric, shown
from drill.tui.text import visible
from drill.tui.widgets.checklist import Checklist
from drill.tui.widgets.countdown import Countdown

if TYPE_CHECKING:
    from drill.content.misconceptions import Book
    from drill.content.models import Card, Erratum, Library
    from drill.store import Store
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


class InterviewScreen(InterviewRubric, LoadingScreen[list["Card"], InterviewSession]):
    CSS_PATH = "../styles/interview.tcss"
    HELP_TITLE = N_("drill interview — keys")
    PALETTE_GROUP = N_("Interview")
    HELP_NOTES = (
        (
            N_("↑/↓ · space · tab"),
            N_(
                "In the rubric: move within a list; tick or untick; go to the other list (points, misconceptions)"
            ),
        ),
    )

    BINDINGS = [
        Binding("ctrl+d", "done", N_("Done"), priority=True, tooltip=N_("stop the clock: on to the rubric")),
        Binding("space", "done", N_("Done"), show=False),
        Binding("ctrl+t", "toggle_mode", N_("Typed/aloud"), priority=True),
        *(Binding(str(g), f"grade({g})", GRADE_NAMES[g], show=False, priority=True) for g in range(1, 5)),
        Binding(
            "enter", "confirm", N_("Confirm grade"), priority=True, tooltip=N_("FSRS schedules the card")
        ),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True, tooltip=N_("the graded questions are saved")),
    ]

    phase: reactive[str] = reactive("loading", init=False)
    typed: reactive[bool] = reactive(True, init=False)
    chosen: reactive[int | None] = reactive(None, init=False)  # the learner's grade, when changed
    # the rubric's ticks (the judge's first, then the learner's): the one place they live on screen; the
    # Checklists post Changed, the watchers (interview_rubric.py) update the Rubric model and the views
    covered: reactive[frozenset[int]] = reactive(frozenset(), init=False)
    hit: reactive[frozenset[int]] = reactive(frozenset(), init=False)

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
        self.rubric: Rubric | None = None
        self.answer_text: str | None = None
        self.duration_ms = 0
        self.timed_out = False
        self.interview_id: int | None = None
        self.missed_last: tuple[
            str, ...
        ] = ()  # the last answer's missed points and corrections: the follow-up's aim
        self.book: Book | None = None
        self.errata: list[
            Erratum
        ] = []  # drill's corrections, marked on a key point that restates a claim  # the misconceptions (drill.content.misconceptions), once loaded
        self.answers: list[InterviewAnswerRecord] = []

    # --- layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="iv-top"):
            yield Static(Text(_("drill interview · loading…")), id="iv-header")
            yield Countdown(self.options.timer, id="countdown")
        with VerticalScroll(id="iv-body"):
            yield Static("", id="iv-meta")
            yield Static(Text(_("Loading the questions…"), style="italic"), id="iv-question")
            yield Static("", id="iv-hint")
            yield Static("", id="iv-given")
            yield Static("", id="iv-model", classes="rubric")
            yield Static("", id="iv-points-head", classes="rubric")
            yield Checklist(id="iv-points", classes="rubric")
            yield Static("", id="iv-traps-head", classes="rubric")
            yield Checklist(id="iv-traps", classes="rubric")
            yield Static("", id="iv-corrections", classes="rubric")
            yield Static("", id="iv-proposal", classes="rubric")
            yield Static("", id="iv-scorecard")
        yield TextArea(id="iv-answer", soft_wrap=True, show_line_numbers=False)
        yield Footer()

    def on_mount(self) -> None:
        self._show_phase()
        self.call_after_refresh(self.load)

    # --- loading ------------------------------------------------------------------------------------------

    def plan(self, library: Library) -> list[Card]:
        """The bank cards with key points (in ``--section``); InputError, naming the sections, when none."""
        from drill.tui.models.interview import bank_cards

        s = self.settings
        from drill.content.misconceptions import load_misconceptions

        self.book = load_misconceptions(library)
        self.errata = list(library.errata)
        cards = bank_cards(list(library.cards.values()), s.section)
        if not cards:
            known = sorted({c.section for c in bank_cards(list(library.cards.values()))})
            where = _(" in section {section}").format(section=s.section) if s.section else ""
            raise InputError(
                _("no bank question with key points{where} (sections with some: {known})").format(
                    where=where, known=", ".join(known) or "-"
                )
            )
        return cards

    def prepare(self, cards: list[Card], store: Store) -> InterviewSession:
        from drill.tui.models.interview import store_order

        s, config = self.settings, store.config
        s.minutes = self._minutes if self._minutes is not None else config.interview_minutes
        s.follow_up = self._follow_up if self._follow_up is not None else config.interview_follow_up
        s.thresholds = Thresholds.of(config)
        ordered = store_order(cards, store, self.options.clock(), seed=s.seed)
        return InterviewSession(ordered, s.questions, s.follow_up, s.seed)

    def ready(self, session: InterviewSession) -> None:
        self.session = session
        self.drill_app.interview_answers = self.answers
        self.ask_next()

    # --- asking ------------------------------------------------------------------------------------------

    def ask_next(self) -> None:
        assert self.session is not None
        asked = self.session.next_question(self.missed_last)
        if asked is None:
            self.finish()
            return
        card = asked.card
        self.asked = asked
        self.rubric = rubric_for(card, self.book, current_language())
        self.chosen = None
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
        if self.typed:
            self.warm_up_judge()
        self.query_one(Countdown).start(self.settings.minutes * 60)

    @work(thread=True, exclusive=True, group="judge-warm-up")
    def warm_up_judge(self) -> None:
        """jieba's dictionary (≈0.5 s) loads while the learner types, not after ctrl+d."""
        from drill.judge import warm_up

        warm_up()

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
        self.refresh_bindings()

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
        if action == "done":
            return self.phase == "asking"
        if action == "toggle_mode":
            return self.phase == "asking"
        if action in ("grade", "confirm"):
            return self.phase == "rubric"
        return True

    def action_toggle_mode(self) -> None:
        self.typed = not self.typed

    def on_countdown_expired(self, message: Countdown.Expired) -> None:
        if self.phase == "asking":
            self.timed_out = True
            self.action_done()

    def action_done(self) -> None:
        if self.phase != "asking" or self.rubric is None:
            return
        countdown = self.query_one(Countdown)
        countdown.stop()
        self.duration_ms = int(countdown.elapsed() * 1000)
        editor = self.query_one("#iv-answer", TextArea)
        editor.read_only = True
        self.answer_text = editor.text if self.typed else None
        if self.answer_text is not None and self.answer_text.strip():
            judge_into(self.rubric, self.answer_text)  # the judge's ticks; the learner may change any of them
        self.fill_rubric()
        self.phase = "rubric"
        self.query_one("#iv-points", Checklist).focus()
        self.query_one("#iv-body", VerticalScroll).scroll_home(animate=False)

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

    def on_unmount(self) -> None:
        self.close_store()
