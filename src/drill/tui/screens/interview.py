"""`drill interview`: a mock interview — the bank's question under a visible time budget, the answer typed (a
TextArea; the text is saved) or given aloud (drill only times it), then the rubric: the card's key points and the
section's traps, ticked by the learner; the grade proposed from the coverage (drill.tui.models.interview) is
confirmed (enter) or changed (1-4) and goes through ``Store.grade`` as in study, then the question's scorecard
row is saved. A scorecard closes the session.

Phases: "loading" → ("asking" → "rubric") × N → "done". The shell paints at once; a thread worker loads the
content and opens the store. The questions and follow-ups come from `InterviewSession` (seeded).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Footer, Static, TextArea

from drill.errors import DrillError, InputError
from drill.i18n import N_, _
from drill.tui.models.interview import Asked, InterviewSession, Rubric, Thresholds
from drill.tui.options import AppOptions
from drill.tui.screens.base import ModeScreen
from drill.tui.text import visible
from drill.tui.widgets.checklist import Checklist
from drill.tui.widgets.countdown import Countdown

if TYPE_CHECKING:
    from drill.store import Store
    from drill.store.interviews import InterviewAnswerRecord

GRADE_NAMES = {1: N_("Again"), 2: N_("Hard"), 3: N_("Good"), 4: N_("Easy")}


def shown(text: str) -> str:
    """Chapter text for a terminal: formulas rendered, control characters made visible."""
    from drill.content.latex import render_text

    return visible(render_text(text).replace("**", ""))


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


@dataclass
class InterviewSetup:
    session: InterviewSession
    store: Store
    owns_store: bool


class InterviewScreen(ModeScreen):
    CSS_PATH = "../styles/interview.tcss"
    HELP_TITLE = N_("drill interview — keys")
    PALETTE_GROUP = N_("Interview")
    HELP_NOTES = (
        (N_("tab / space"), N_("In the rubric: move between the points and the traps; tick or untick one")),
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
        self.store: Store | None = None
        self._owns_store = False
        self.asked: Asked | None = None
        self.rubric: Rubric | None = None
        self.answer_text: str | None = None
        self.duration_ms = 0
        self.timed_out = False
        self.interview_id: int | None = None
        self.answers: list[InterviewAnswerRecord] = []
        self._graded_log: int | None = None  # the current question's grade, once committed

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
            yield Static("", id="iv-points-head", classes="rubric")
            yield Checklist(id="iv-points", classes="rubric")
            yield Static("", id="iv-traps-head", classes="rubric")
            yield Checklist(id="iv-traps", classes="rubric")
            yield Static("", id="iv-proposal", classes="rubric")
            yield Static("", id="iv-scorecard")
        yield TextArea(id="iv-answer", soft_wrap=True, show_line_numbers=False)
        yield Footer()

    def on_mount(self) -> None:
        self._show_phase()
        self.drill_app.reached("paint", via=self)
        self.call_after_refresh(self.load)

    # --- loading ------------------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def load(self) -> None:
        try:
            setup = self._build()
        except DrillError as err:
            self.app.call_from_thread(self.drill_app.fail, err)
            return
        self.app.call_from_thread(self._ready, setup)

    def _build(self) -> InterviewSetup:
        from drill.tui.models.interview import bank_cards, store_order

        library = self.options.library
        if library is None:
            from drill.content import load_content

            library = load_content(self.options.content_path)
        s = self.settings
        cards = bank_cards(list(library.cards.values()), s.section)
        if not cards:
            known = sorted({c.section for c in bank_cards(list(library.cards.values()))})
            where = _(" in section {section}").format(section=s.section) if s.section else ""
            raise InputError(
                _("no bank question with key points{where} (sections with some: {known})").format(
                    where=where, known=", ".join(known) or "-"
                )
            )
        store, owns = self.options.store, False
        if store is None:
            from drill.store import open_store

            store, owns = open_store(self.options.db_url, self.options.user), True
        try:
            config = store.config
            s.minutes = self._minutes if self._minutes is not None else config.interview_minutes
            s.follow_up = self._follow_up if self._follow_up is not None else config.interview_follow_up
            s.thresholds = Thresholds.of(config)
            store.sync_content(library)
            ordered = store_order(cards, store, self.options.clock(), seed=s.seed)
            session = InterviewSession(ordered, s.questions, s.follow_up, s.seed)
        except BaseException:
            if owns:
                store.close()
            raise
        return InterviewSetup(session, store, owns)

    def _ready(self, setup: InterviewSetup) -> None:
        self.session, self.store, self._owns_store = setup.session, setup.store, setup.owns_store
        self.drill_app.interview_answers = self.answers
        self.ask_next()
        self.drill_app.reached("question")

    # --- asking ------------------------------------------------------------------------------------------

    def ask_next(self) -> None:
        assert self.session is not None
        asked = self.session.next_question()
        if asked is None:
            self.finish()
            return
        card = asked.card
        self.asked = asked
        self.rubric = Rubric(card.id, card.points, card.pitfalls)
        self.chosen = None
        self.answer_text = None
        self.timed_out = False
        self._graded_log = None
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
        self.query_one(Countdown).start(self.settings.minutes * 60)

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
        self._fill_rubric()
        self.phase = "rubric"
        self.query_one("#iv-points", Checklist).focus()
        self.query_one("#iv-body", VerticalScroll).scroll_home(animate=False)

    # --- the rubric ----------------------------------------------------------------------------------------

    def _fill_rubric(self) -> None:
        rubric = self.rubric
        assert rubric is not None
        given = Text()
        if self.timed_out:
            given.append(_("⏱ Time's up.") + " ", style="bold")
        seconds = self.duration_ms // 1000
        given.append(_("Answered in {m}:{s:02d}.").format(m=seconds // 60, s=seconds % 60))
        if self.answer_text is not None:
            given.append("\n" + _("Your answer:") + " ", style="bold")
            given.append(visible(self.answer_text.strip()) or _("(nothing typed)"))
        else:
            given.append(" " + _("(answered aloud)"), style="dim")
        self.query_one("#iv-given", Static).update(given)
        self.query_one("#iv-points-head", Static).update(
            Text(_("Key points — tick the ones your answer covered (space ticks, tab moves):"), style="bold")
        )
        self.query_one("#iv-points", Checklist).set_items(Text(shown(p)) for p in rubric.points)
        traps = self.query_one("#iv-traps", Checklist)
        traps.set_items(Text(shown(t)) for t in rubric.traps)
        head = (
            _("Traps — did your answer fall into one?")
            if rubric.traps
            else _("No traps listed for this section.")
        )
        self.query_one("#iv-traps-head", Static).update(Text(head, style="bold"))
        traps.display = bool(rubric.traps)
        self._show_proposal()

    def on_checklist_changed(self, message: Checklist.Changed) -> None:
        if self.rubric is None or self.phase != "rubric":
            return
        selected = set(message.checklist.selected)
        if message.checklist.id == "iv-points":
            self.rubric.covered = selected
        else:
            self.rubric.hit = selected
        self._show_proposal()

    @property
    def proposed(self) -> int:
        assert self.rubric is not None
        return self.rubric.proposed_grade(self.settings.thresholds)

    @property
    def grade(self) -> int:
        return self.chosen if self.chosen is not None else self.proposed

    def watch_chosen(self) -> None:
        if self.phase == "rubric":
            self._show_proposal()

    def _show_proposal(self) -> None:
        rubric = self.rubric
        assert rubric is not None
        text = Text()
        text.append(
            _(
                "Covered {covered} of {points} points ({coverage:.0%}), {traps} traps hit: proposed grade {grade}."
            ).format(
                covered=len(rubric.covered),
                points=len(rubric.points),
                coverage=rubric.coverage,
                traps=len(rubric.hit),
                grade=_(GRADE_NAMES[self.proposed]),
            )
        )
        if self.chosen is not None and self.chosen != self.proposed:
            text.append(
                " " + _("Your grade: {grade}.").format(grade=_(GRADE_NAMES[self.chosen])), style="bold"
            )
        text.append("\n")
        text.append(
            _("enter confirms {grade} · 1-4 changes it").format(grade=_(GRADE_NAMES[self.grade])), style="dim"
        )
        self.query_one("#iv-proposal", Static).update(text)

    def action_grade(self, rating: int) -> None:
        if self.phase == "rubric":
            self.chosen = rating

    def action_confirm(self) -> None:
        """Grade through the store (the one grade path), then save the question's scorecard row; only then move
        on. A failure leaves the question on screen to retry (a committed grade is not given twice)."""
        if self.phase != "rubric" or self.rubric is None or self.asked is None or self.store is None:
            return
        from drill.store.interviews import InterviewAnswerRecord

        rubric, asked, rating = self.rubric, self.asked, self.grade
        now = self.options.clock()
        try:
            if self.interview_id is None:
                self.interview_id = self.store.start_interview(now, self.settings.as_dict())
            if self._graded_log is None:
                self._graded_log = self.store.grade(asked.card.id, rating, now, self.duration_ms).log_id
            record = InterviewAnswerRecord(
                position=asked.position,
                card_id=asked.card.id,
                section=asked.card.section,
                follow_up=asked.follow_up,
                mode="typed" if self.answer_text is not None else "aloud",
                answer=self.answer_text,
                duration_ms=self.duration_ms,
                budget_ms=int(self.settings.minutes * 60_000),
                timed_out=self.timed_out,
                points_total=len(rubric.points),
                points_covered=tuple(sorted(rubric.covered)),
                points_missed=tuple(rubric.missed()),
                traps_hit=tuple(t for i, t in enumerate(rubric.traps) if i in rubric.hit),
                coverage=rubric.coverage,
                proposed=self.proposed,
                rating=rating,
                answered_at=now,
                review_log_id=self._graded_log,
            )
            self.store.record_interview_answer(self.interview_id, record)
        except DrillError as err:
            self.notify(_("Not saved: {error}").format(error=err), severity="error")
            return
        self.answers.append(record)
        self.notify(_("Graded {grade}.").format(grade=_(GRADE_NAMES[rating])))
        self.ask_next()

    # --- the scorecard -------------------------------------------------------------------------------------

    def finish(self) -> None:
        if self.store is not None and self.interview_id is not None:
            try:
                self.store.finish_interview(self.interview_id, self.options.clock())
            except DrillError as err:
                self.notify(_("Not saved: {error}").format(error=err), severity="error")
        self.query_one(Countdown).stop()
        self.query_one("#iv-scorecard", Static).update(self.scorecard())
        self.phase = "done"

    def scorecard(self) -> Table:
        from drill.store.interviews import most_missed

        assert self.options.library is not None or self.session is not None
        fronts = {a.card.id: a.card.front for a in (self.session.asked if self.session else [])}
        table = Table(title=Text(_("Scorecard"), style="bold"), expand=True, show_edge=False, pad_edge=False)
        for title, justify in (
            ("#", "right"),
            (_("question"), "left"),
            (_("points"), "right"),
            (_("time"), "right"),
            (_("traps"), "right"),
            (_("grade"), "left"),
        ):
            table.add_column(
                Text(title), justify=justify, no_wrap=title != _("question"), overflow="ellipsis"
            )
        for a in self.answers:
            seconds = a.duration_ms // 1000
            question = Text(f"§{visible(a.section)} " + shown(fronts.get(a.card_id, a.card_id)))
            if a.follow_up:
                question.append(" ↳", style="dim")
            table.add_row(
                Text(str(a.position)),
                question,
                Text(f"{len(a.points_covered)}/{a.points_total}"),
                Text(f"{seconds // 60}:{seconds % 60:02d}" + ("+" if a.timed_out else " ")),
                Text(str(len(a.traps_hit))),
                Text(_(GRADE_NAMES[a.rating])),
            )
        out = Table.grid()
        out.add_row(table)
        if self.answers:
            mean = sum(a.coverage for a in self.answers) / len(self.answers)
            out.add_row(Text("\n" + _("Mean coverage {coverage:.0%}.").format(coverage=mean), style="bold"))
        missed = most_missed(self.answers)
        if missed:
            out.add_row(Text("\n" + _("Points missed most often:"), style="bold"))
            for point, count in missed:
                out.add_row(Text(f"  {count}× " + shown(point)))
        if any(a.timed_out for a in self.answers):
            out.add_row(Text("\n" + _("+: the time ran out."), style="dim"))
        out.add_row(Text("\n" + _("Saved. ctrl+q quits."), style="dim"))
        return out

    def on_unmount(self) -> None:
        if self.store is not None and self._owns_store:
            self.store.close()
