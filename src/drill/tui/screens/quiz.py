"""`drill quiz`: timed multiple choice over the chapter's quizzes, plus numeric questions from the engine.

The questions' order comes from the content (its cache), and the first paint has the first question: a chapter
one is asked while the loading worker (tui/screens/base.py) makes the generated questions (numpy, the engine);
a generated one in first place is made, with the rest, before that paint (numpy and the engine, ~0.2 s: on
screen sooner so than behind the shell, measured). The worker then opens the store (sqlalchemy). Each question
has its own countdown — a chapter
quiz ``--seconds``, a generated question its kind of work's limit from the config (`QuizSettings.limit`,
docs/quiz.md); a timeout counts as wrong and shows the answer. Each answer is written as it is given (the
first one makes the attempt row; the last one marks it finished, quitting part-way leaves no finish time), and
its verdict is shown only once it is on disk: an answer given while the store is still opening says so and waits
for it (`show_result`, `_take_order`), so an acknowledged answer is never lost to a kill or a hang-up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, Static

from drill.errors import DrillError
from drill.i18n import N_, _
from drill.tui.models.quiz import LETTERS, QuizItem, QuizRun, QuizSettings, Result
from drill.tui.models.quiz_plan import PENDING, QuizPlan, plan_items
from drill.tui.options import AppOptions
from drill.tui.screens.base import LoadingScreen
from drill.tui.screens.quiz_text import feedback_text, meta_text, stem_parts
from drill.tui.widgets.choices import ChoiceList, ChoiceRow
from drill.tui.widgets.countdown import Countdown

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from drill.content.models import Library
    from drill.store.api import Store


@dataclass
class QuizPlanned:
    """What the loading worker carries before the store: the questions' order, the title, the questions once
    made (`QuizScreen.complete`)."""

    order: QuizPlan
    title: str
    items: list[QuizItem] | None = None


@dataclass
class QuizSetup:
    """What the loading worker hands back."""

    run: QuizRun
    pack_title: str


FEEDBACK_ROWS = (
    6  # what of the feedback must show once answered: its border, the verdict and the note's start
)

CHOOSE = {
    "A": N_("Choose A"),
    "B": N_("Choose B"),
    "C": N_("Choose C"),
    "D": N_("Choose D"),
    "E": N_("Choose E"),
}


class QuizScreen(LoadingScreen[QuizPlanned, QuizSetup]):
    CSS_PATH = "../styles/quiz.tcss"
    HELP_TITLE = N_("drill quiz — keys")
    PALETTE_GROUP = N_("Quiz")
    HELP_NOTES = ((N_("type + enter"), N_("Answer a numeric question (checked to the stated tolerance)")),)
    PARTIAL_CONTENT = True  # the plan needs the quizzes and each card's section, not the cards

    BINDINGS = [
        *(
            Binding(key, f"choose('{letter}')", CHOOSE[letter], show=False)
            for i, letter in enumerate(LETTERS[:5])
            for key in (letter.lower(), str(i + 1))
        ),
        Binding("enter", "next", N_("Next"), tooltip=N_("the next question after the feedback")),
        Binding("space", "next", N_("Next"), show=False),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("q", "quit", N_("Quit"), tooltip=N_("the answers given so far are saved")),
    ]

    def __init__(self, options: AppOptions) -> None:
        super().__init__(options)
        self.settings = QuizSettings.from_options(options)
        if self.settings.seed is None:
            self.settings.seed = random.SystemRandom().randrange(2**31)
        self.run: QuizRun | None = None
        self.pack_title = _("loading…")
        self.answered: Result | None = None  # the current question's result, once answered
        self.saved_attempt: int | None = None
        self.save_error: str | None = None
        self.unsaved: list[
            Result
        ] = []  # answers whose write failed: retried with the next one and at the end
        self._started_clock: datetime | None = None
        self._started_timer: float | None = None
        self._finished_timer: float | None = None
        self.waiting_store = (
            False  # answered before the store opened: the verdict is shown once it is on disk
        )

    # --- layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="quiz-top"):
            yield Static(Text(_("drill quiz · loading…")), id="quiz-header")
            yield Countdown(self.options.timer, id="countdown")
        # The question's sentence sits above the scroll: the feedback (and a generated question's matrices)
        # scroll beneath it, so it stays in view once answered at any size.
        with VerticalScroll(id="quiz-question"):
            yield Static("", id="quiz-meta")
            yield Static(Text(_("Loading the questions…"), style="italic"), id="quiz-stem")
        with VerticalScroll(id="quiz-body"):
            yield Static("", id="quiz-givens")
            yield ChoiceList(id="choices")
            yield Static("", id="quiz-feedback")
        # Outside the scroll: a typed answer's field stays in view however long the question is.
        with Vertical(id="quiz-answer"):
            yield Static("", id="quiz-input-error")
            yield Input(placeholder="type a number, then enter (e.g. 0.25, 1/4, 25%)", id="quiz-input")
        yield Footer()

    async def on_mount(self) -> None:
        self.query_one("#quiz-answer", Vertical).display = False
        self.query_one("#quiz-input-error", Static).display = False
        self.query_one("#quiz-feedback", Static).display = False
        await self.start_loading()

    # --- loading ------------------------------------------------------------------------------------------

    def plan(self, library: Library) -> QuizPlanned:
        """The questions' order (InputError, naming the sections that have some, when none match) and the
        title; the generated questions are made by `complete`, or here when one of them is asked first (numpy,
        before the first paint: it must hold that question)."""
        s = self.settings
        assert s.seed is not None  # drawn in __init__ when not given
        order = plan_items(
            library, count=s.count, section=s.section, shuffle=s.shuffle, generated=s.generated, seed=s.seed
        )
        title = " + ".join(pack.id for pack in library.packs) or _("no pack")
        if order.first() is None:  # a generated question first: made now (numpy), so the first paint asks it
            return QuizPlanned(order, title, order.complete())
        return QuizPlanned(order, title)

    def planned(self, plan: QuizPlanned) -> Awaitable[None] | None:
        """Before the store opens: the first question is asked at once. A chapter one is asked while the
        generated questions are made (`complete`), `PENDING` holding their places (the header counts them); its
        answer's verdict waits for the store (`show_result`), which opens after they are made, so the next
        question always exists by then. A generated one first: `plan` made them all (`made`)."""
        if plan.items is not None:
            return self.made(plan.items, plan.title)
        return self.ready(QuizSetup(QuizRun(plan.order.placeholders(), self.options.clock), plan.title))

    def complete(self, plan: QuizPlanned) -> QuizPlanned:
        """In the worker: the generated questions (numpy, the engine), asked (`made`) before the store opens."""
        if plan.items is not None:  # made by `plan`
            return plan
        items = plan.order.complete()
        if self.options.store is None:
            self.app.call_from_thread(self.made, items, plan.title)
        return replace(plan, items=items)

    def made(self, items: list[QuizItem], title: str) -> Awaitable[None] | None:
        """Every question made, before the store opens (sqlalchemy takes a while): time limits from drill.toml,
        the questions in their seeded order (the first one, unless `planned` asked a chapter one already).
        Answers given meanwhile wait in `unsaved` and are written the moment the store is open (`ready`)."""
        from drill.srs import load_config

        self.settings.read_limits(load_config())
        return self.ready(QuizSetup(QuizRun(items, self.options.clock), title))

    def prepare(self, plan: QuizPlanned, store: Store) -> QuizSetup:
        from drill.tui.models.quiz_order import interview_order

        assert plan.items is not None  # made by `complete`
        self.settings.read_limits(store.config)
        items = interview_order(plan.items, store, self.options.clock())  # weakest on the interview day first
        return QuizSetup(QuizRun(items, self.options.clock), plan.title)

    async def ready(self, setup: QuizSetup) -> None:
        if self.run is not None:  # already asking (`planned`, `made`): this order for what is still to come
            await self._take_order(setup.run)
            return
        self.run = setup.run
        self.pack_title = setup.pack_title
        self.drill_app.quiz_run = self.run
        self._started_clock = self.options.clock()
        self._started_timer = self.options.timer()
        await self.show_item(self.run.current)

    async def _take_order(self, ordered: QuizRun) -> None:
        """The questions made (`made`) or the store open (`ready`): write what was answered, and ask what is
        still to come in this order (the store's: weakest on the interview day first). Before any answer, a
        different first question replaces the one shown (as study's peek does); after one, the questions
        already shown stay where they are. An answer given before the store opened gets its verdict now."""
        assert self.run is not None
        if not self.run.results and self.answered is None:
            replaced = ordered.items[0] is not self.run.items[0]
            self.run.items = ordered.items
            if replaced:
                await self.show_item(self.run.items[0])
        else:
            shown = self.run.items[: self.run.index + (0 if self.answered is not None else 1)]
            seen = {id(item) for item in shown}
            self.run.items = shown + [item for item in ordered.items if id(item) not in seen]
        self.refresh_header()
        self.save(finished=self.run.finished)
        if self.waiting_store and self.store is not None and self.answered is not None:
            self.waiting_store = False
            self.acknowledge(self.answered)

    # --- showing a question ---------------------------------------------------------------------------------

    @property
    def item(self) -> QuizItem | None:
        return None if self.run is None else self.run.current

    async def show_item(self, item: QuizItem) -> None:
        self.answered = None
        self.refresh_header()
        self.query_one("#quiz-meta", Static).update(meta_text(item))
        question, givens = stem_parts(item.stem)
        self.query_one("#quiz-stem", Static).update(question)
        self.query_one("#quiz-givens", Static).update(givens or "")
        self.query_one("#quiz-givens", Static).display = givens is not None
        choices = self.query_one(ChoiceList)
        await choices.set_options(item.options)
        choices.display = not item.numeric
        choices.remove_class("answered")
        field = self.query_one("#quiz-input", Input)
        field.value = ""
        field.disabled = False
        self.query_one("#quiz-answer", Vertical).display = item.numeric
        self.query_one("#quiz-input-error", Static).display = False
        self.query_one("#quiz-feedback", Static).display = False
        if item.numeric:
            field.focus()
        else:
            self.set_focus(None)
        self.query_one("#quiz-question", VerticalScroll).scroll_home(animate=False)
        self.query_one("#quiz-body", VerticalScroll).scroll_home(animate=False)
        self.query_one(Countdown).start(self.settings.limit(item))

    def refresh_header(self) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("drill quiz", style="bold")
        if self.run is not None:
            number = max(1, min(self.run.index + (0 if self.answered else 1), len(self.run.items)))
            text.append(
                " · " + _("question {number}/{count}").format(number=number, count=len(self.run.items)),
                style="bold",
            )
            text.append(
                " · "
                + _("score {score} · streak {streak}").format(score=self.run.score, streak=self.run.streak)
            )
        text.append(f" · {self.pack_title}", style="dim")
        self.query_one("#quiz-header", Static).update(text)

    # --- answering ------------------------------------------------------------------------------------------

    def _duration_ms(self) -> int:
        return int(self.query_one(Countdown).elapsed() * 1000)

    def action_choose(self, letter: str) -> None:
        item = self.item
        if item is None or self.run is None or self.answered is not None or item.numeric:
            return
        result = self.run.choose(letter, self._duration_ms())
        if result is not None:
            self.show_result(result)

    def on_choice_row_chosen(self, message: ChoiceRow.Chosen) -> None:
        self.action_choose(message.letter)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        item = self.item
        if item is None or self.run is None or self.answered is not None or not item.numeric:
            return
        error = self.query_one("#quiz-input-error", Static)
        try:
            result = self.run.type_answer(message.value, self._duration_ms())
        except DrillError as err:
            error.update(Text(f"⚠ {err}"))
            error.display = True
            return
        error.display = False
        self.show_result(result)

    def on_countdown_expired(self, message: Countdown.Expired) -> None:
        self.time_out()

    def time_out(self) -> None:
        if self.item is None or self.run is None or self.answered is not None:
            return
        self.show_result(self.run.time_out(int(self.settings.limit(self.item) * 1000)))

    def show_result(self, result: Result) -> None:
        """An answer (or a timeout): written, then acknowledged. Before the store opened (the question was
        asked from the content alone) the screen says the answer is being saved and shows nothing of the verdict
        until it is on disk (`_take_order` acknowledges it then); enter waits meanwhile, q still saves it."""
        self.answered = result
        self.unsaved.append(result)
        self.save_answers()  # written before the feedback acknowledges it
        self.query_one(Countdown).stop()
        self.query_one("#quiz-input", Input).disabled = True
        self.set_focus(None)
        if self.store is None:
            self.waiting_store = True
            box = self.query_one("#quiz-feedback", Static)
            box.update(Text(_("Saving your answer: the database is still opening…"), style="italic"))
            box.remove_class("right", "wrong")
            box.display = True
            self.refresh_header()
            return
        self.acknowledge(result)

    def acknowledge(self, result: Result) -> None:
        """The verdict on an answer that is on disk (or whose write failed: the feedback says so)."""
        item = result.item
        if not item.numeric:
            choices = self.query_one(ChoiceList)
            choices.mark(item.answer, result.chosen)
            choices.add_class("answered")  # rows close up: the question stays in view above the feedback
        last = self.run is not None and self.run.finished
        feedback = feedback_text(result, save_error=self.save_error, last=last)
        box = self.query_one("#quiz-feedback", Static)
        box.update(feedback)
        box.set_class(result.correct, "right")
        box.set_class(not result.correct, "wrong")
        box.display = True
        self.refresh_header()
        self.call_after_refresh(self._scroll_to_feedback)

    def _scroll_to_feedback(self) -> None:
        """Bring the feedback's first lines (its border, the verdict and the note) into view beneath the
        question's sentence, which is pinned above the scroll; the givens (a generated question's matrices) and
        the options stay in view above them as far as the room allows, the rest of the feedback a scroll away."""
        body = self.query_one("#quiz-body", VerticalScroll)
        feedback = self.query_one("#quiz-feedback", Static).virtual_region
        height = body.scrollable_content_region.height
        body.scroll_to(y=max(0, feedback.y + min(feedback.height, FEEDBACK_ROWS) - height), animate=False)

    async def action_next(self) -> None:
        if self.run is None or self.answered is None or self.waiting_store:
            return  # not answered yet, or its verdict not shown yet (the screen says it is being saved)
        assert (
            self.run.current is not PENDING
        )  # the store (so the verdict) comes after every question is made
        if self.run.finished:
            self.finish()
        else:
            await self.show_item(self.run.current)

    # --- the end --------------------------------------------------------------------------------------------

    def elapsed(self) -> float:
        if self._started_timer is None:
            return 0.0
        end = self._finished_timer if self._finished_timer is not None else self.options.timer()
        return max(0.0, end - self._started_timer)

    def save_answers(self) -> None:
        """Write the answers not yet on disk, each in its own commit (the first makes the attempt row); a store
        error is kept (shown under the feedback and on the score screen) and the answer retried later."""
        if self.store is None or self._started_clock is None:
            return
        if self.store.readonly:
            self.save_error = _("the database is open read-only")
            return
        from drill.tui.models.quiz import record_of

        while self.unsaved:
            try:
                self.saved_attempt = self.store.record_quiz_answer(
                    self.saved_attempt,
                    record_of(self.unsaved[0]),
                    started_at=self._started_clock,
                    settings=self.settings.as_dict(),
                )
            except DrillError as err:
                self.save_error = str(err)
                return
            self.unsaved.pop(0)
        self.save_error = None

    def save(self, finished: bool) -> int | None:
        """Write what is left to write and, at the score screen, mark the attempt finished. Returns its id."""
        self.save_answers()
        if finished and not self.unsaved and self.saved_attempt is not None and self.store is not None:
            try:
                self.store.finish_quiz_attempt(self.saved_attempt, self.options.clock())
            except DrillError as err:
                self.save_error = str(err)
        return self.saved_attempt

    def finish(self) -> None:
        from drill.tui.screens.quiz_score import QuizScoreScreen

        assert self.run is not None
        self._finished_timer = self.options.timer()
        self.save(finished=True)
        self.app.push_screen(
            QuizScoreScreen(
                self.run,
                self.elapsed(),
                saved_attempt=self.saved_attempt,
                save_error=self.save_error,
                make_due_now=self.make_due_now,
            )
        )

    def make_due_now(self, card_ids: list[str]) -> int:
        """The score screen's `m`. The store is open by then: the last answer's verdict (and so the score
        screen) waits for it (`show_result`)."""
        assert self.store is not None
        return self.store.make_due_now(card_ids, self.options.clock())

    def _open_store_now(self) -> None:
        """Quit before the loading worker opened the store: open it here, so the answers given reach disk."""
        from drill.store import open_store

        try:
            self.store, self._owns_store = open_store(self.options.db_url, self.options.user), True
        except DrillError as err:
            self.drill_app.error = err

    def on_unmount(self) -> None:
        # Quitting part-way still stores what was answered (no finish time marks it unfinished), also when
        # the store was still opening: it is opened here for them.
        if self.store is None and self.unsaved and self.options.store is None:
            self._open_store_now()
        if self.store is not None:
            self.save(finished=False)
        self.close_store()
