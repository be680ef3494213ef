"""`drill code TASK`: write one of the chapter's functions and run the engine's hidden tests on it.

Left: the task (the prompt, drill's words in the UI language, and the formula, never cut: it wraps, or a drawn
one scrolls sideways). Right: a Python editor (TextArea with tree-sitter highlighting) as tall as its code, above
the results (beside them from 160 columns; closed up to 8 rows while the results are focused after a run). ctrl+r runs the hidden tests in a separate process (a worker
thread waits for it, so the screen never blocks); every run is saved in the store with its code, seed and
outcome. After a pass the screen proposes a grade (Good; Easy on a first try within the time budget; Hard
after failed runs; Again on a failure) that the learner confirms with 1-4; the reference solution shows at
once after a pass, else only when asked for twice (recorded), and a pass after it is graded at most Hard. ctrl+o opens $VISUAL/$EDITOR on the code with the app
suspended, as `git commit` does. Outside the editor (after esc) typed characters go back into it: no letter or
digit is a shortcut there, except 1-4 and enter right after a run (its grade).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Footer, Markdown, Static, TextArea
from textual.widgets.markdown import MarkdownFence

from drill.i18n import N_, _
from drill.tui.models.study import GRADE_NAMES
from drill.tui.options import AppOptions
from drill.tui.screens.base import ModeScreen
from drill.tui.screens.code_cards import propose_grade, sync_code_cards
from drill.tui.screens.code_results import (
    first_value_failure,
    history_text,
    result_text,
    torch_lines,
)

if TYPE_CHECKING:
    from drill.runner.verdict import Verdict

SOLUTION_CAP = N_("Graded at most Hard: the reference solution was seen before this pass.")


WIDE = 160  # from this many columns the results sit beside the editor, not below it


class FormulaFence(MarkdownFence):
    """A display formula of the prompt, never cut: one line wraps to the pane; a drawn one (a matrix, cases:
    several lines that must stay aligned) keeps its lines and scrolls sideways, with a scrollbar, when the pane
    is narrower than it."""

    def on_mount(self) -> None:
        self.set_class("\n" not in self.code, "one-line")


class PromptMarkdown(Markdown):
    """The task's prompt: Markdown whose display formulas are `FormulaFence`s."""

    BLOCKS = {**Markdown.BLOCKS, "fence": FormulaFence, "code_block": FormulaFence}


def code_card_screen(options: AppOptions, task: str, store) -> CodeScreen:
    """The code screen for a code card in `drill study`: pushed, it dismisses with the confirmed grade (1-4),
    or None when the learner goes back (escape outside the editor) without one."""
    from dataclasses import replace

    return CodeScreen(replace(options, store=store, extra={"task": task, "in_study": True}))


class CodeScreen(ModeScreen):
    CSS_PATH = "../styles/code.tcss"
    AUTO_FOCUS = "#code-editor"
    HELP_TITLE = N_("drill code — keys")
    PALETTE_GROUP = N_("Code")

    BINDINGS = [
        Binding("ctrl+r", "run", N_("Run tests"), priority=True),
        Binding("ctrl+o", "external_editor", N_("$EDITOR"), priority=True),
        Binding("ctrl+l", "last_attempt", N_("Last attempt"), priority=True),
        Binding("ctrl+t", "history", N_("History"), priority=True),
        Binding("ctrl+s", "solution", N_("Solution"), priority=True),
        Binding("escape", "leave_editor", N_("Leave editor"), show=False),
        Binding("1", "grade(1)", N_("Again"), show=False),
        Binding("2", "grade(2)", N_("Hard"), show=False),
        Binding("3", "grade(3)", N_("Good"), show=False),
        Binding("4", "grade(4)", N_("Easy"), show=False),
        Binding("enter", "grade(0)", N_("Confirm grade"), show=False),
        Binding("question_mark", "help", N_("Help"), key_display="?", show=False),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
    ]

    running: reactive[bool] = reactive(False, init=False)
    remaining: reactive[int | None] = reactive(None, init=False)
    proposed: reactive[int | None] = reactive(None, init=False)
    # 1-4 and enter grade only right after a run, its results focused; once the learner is back in the
    # editor (or left it with esc), typed keys are code: they go to the editor, never act as shortcuts.
    grade_keys: reactive[bool] = reactive(False, init=False)

    def __init__(self, options: AppOptions) -> None:
        super().__init__(options)
        from drill.engine.codetasks.registry import get_task

        self.code_task = get_task(options.extra["task"])
        # Pushed by `drill study` for a code card: the study session's store, and the confirmed grade goes
        # back to the study screen (dismiss), which grades the card as it grades any card.
        self.in_study: bool = bool(options.extra.get("in_study"))
        self.timed: bool = bool(options.extra.get("timed"))
        self.seed: int | None = options.extra.get("seed")
        self.store = options.store
        # Set once the store is open (or failed to open: said so): a run that ends first waits for it before
        # its verdict is shown, so the attempt is saved before it is acknowledged, never dropped (store None).
        self._store_settled = threading.Event()
        self.verdict: Verdict | None = None
        self.failed_runs = 0
        self.started = options.timer()
        self.last_run_at = self.started
        self._solution_asked = False
        self._quit_asked = False  # ctrl+q was pressed once with a grade not confirmed
        self.solution_seen = False  # the reference solution was shown before a pass on this screen
        self.graded = False
        # 1-4 and enter grade only right after a run, its results focused; once the learner is back in the
        # editor (or left it with esc), typed keys are code: they go to the editor, never act as shortcuts.
        self.runs = 0  # finished runs (tests wait on it)
        self.shown = Text()  # what the results pane shows
        self.torch_shown: Verdict | None = (
            None  # the verdict PyTorch's result was added to (tests wait on it)
        )

    # --- layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(self._header(), id="code-header")
        with Horizontal(id="code-body"):
            with VerticalScroll(id="code-prompt"):
                yield PromptMarkdown(self._prompt_markdown(), id="code-prompt-text")
            with Vertical(id="code-right"):
                yield TextArea.code_editor(
                    self.options.extra.get("code") or self.code_task.starter(),
                    language="python",
                    id="code-editor",
                    soft_wrap=False,
                )
                with VerticalScroll(id="code-results"):
                    yield Static(
                        Text(_("ctrl+r runs the hidden tests."), style="italic"), id="code-result-text"
                    )
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= WIDE, "wide")

    def on_mount(self) -> None:
        self.set_class(self.app.size.width >= WIDE, "wide")
        if self.timed:
            self.remaining = self.code_task.budget_s
            self.set_interval(1.0, self._tick)
        if self.in_study:
            self._store_settled.set()
            return  # the study session's store is open and synced
        self._open_store()

    @work(thread=True, exclusive=True, group="code-store")
    def _open_store(self) -> None:
        """Open the progress store (unless one was given) and make sure the task's card is in it."""
        try:
            try:
                store = self.store
                if store is None:
                    from drill.store import open_store

                    store = open_store(self.options.db_url, self.options.user)
                sync_code_cards(store, self.options)
            except Exception as err:
                self.app.call_from_thread(
                    self.notify,
                    _("Attempts will not be saved: {error}").format(error=err),
                    severity="warning",
                )
                return
            self.app.call_from_thread(setattr, self, "store", store)
        finally:
            self._store_settled.set()

    def _prompt_markdown(self) -> str:
        from drill.content.latex import render_text

        title = f"## {self.code_task.number}. {self.code_task.title} （{self.code_task.section}）\n\n"
        return (
            title
            + render_text(self.code_task.prompt, markdown=True)
            + "\n\n`"
            + self.code_task.signature
            + "`\n"
        )

    def _header(self) -> Text:
        parts = [f"drill code · {self.code_task.name} · {self.code_task.section}"]
        if self.remaining is not None:
            m, s = divmod(max(self.remaining, 0), 60)
            parts.append(
                _("time left {m}:{s:02d}").format(m=m, s=s) if self.remaining > 0 else _("time is up")
            )
        if self.running:
            parts.append(_("running…"))
        if self.proposed is not None and not self.graded and not self.grade_keys:
            parts.append(
                _("proposed grade: {grade} — ctrl+r runs the tests again to grade").format(
                    grade=_(GRADE_NAMES[self.proposed])
                )
            )
        elif self.proposed is not None and not self.graded:
            parts.append(
                _("proposed grade: {grade} — 1-4 to change, enter to confirm").format(
                    grade=_(GRADE_NAMES[self.proposed])
                )
            )
        return Text("  ·  ".join(parts))

    def _refresh_header(self) -> None:
        if not self.is_mounted:
            return
        self.query_one("#code-header", Static).update(self._header())

    def watch_running(self) -> None:
        self._refresh_header()

    def watch_remaining(self) -> None:
        self._refresh_header()

    def watch_proposed(self) -> None:
        self._refresh_header()

    def watch_grade_keys(self) -> None:
        self._refresh_header()

    def _tick(self) -> None:
        """The time left, from the screen's timer (options.timer: frozen in tests)."""
        if self.remaining is not None:
            self.remaining = max(0, self.code_task.budget_s - int(self.options.timer() - self.started))

    def show(self, text: Text) -> None:
        self.shown = text
        self.query_one("#code-result-text", Static).update(text)
        self.query_one("#code-results", VerticalScroll).scroll_home(animate=False)

    @property
    def code(self) -> str:
        return self.query_one("#code-editor", TextArea).text

    # --- running ------------------------------------------------------------------------------------------

    def action_run(self) -> None:
        if self.running:
            self.notify(_("Already running."))
            return
        self.running = True
        self.show(Text(_("running the hidden tests…"), style="italic"))
        self._run(self.code)

    @work(thread=True, exclusive=True, group="code-run")
    def _run(self, code: str) -> None:
        from drill.runner import Limits
        from drill.runner.verdict import check

        verdict = check(
            self.code_task,
            code,
            seed=self.seed,
            limits=Limits(time_s=self.options.extra.get("time_limit", 10.0)),
            filename="solution.py",
        )
        self._store_settled.wait()  # the attempt is saved (or said unsaved) before its verdict is shown
        self.app.call_from_thread(self._ran, code, verdict)

    def _ran(self, code: str, verdict: Verdict) -> None:
        from drill.runner.verdict import lines, plain_wording

        self.verdict = verdict
        self.running = False
        self.runs += 1
        now = self.options.timer()
        writing_ms = int((now - self.last_run_at) * 1000)
        self.last_run_at = now
        self.show(result_text(lines(verdict, render_wording=plain_wording), verdict.all_passed))
        self._save(code, verdict, writing_ms)
        if not self.graded:
            proposed = propose_grade(
                verdict.all_passed, self.failed_runs, now - self.started, self.code_task.budget_s
            )
            if proposed > self.grade_cap:
                proposed = self.grade_cap
                text = self.shown.copy()
                text.append("\n" + _(SOLUTION_CAP) + "\n", style="bold yellow")
                self.show(text)
            self.proposed = proposed
        if not verdict.all_passed:
            self.failed_runs += 1
        self.query_one("#code-results", VerticalScroll).focus()  # 1-4 / enter grade from here
        self.grade_keys = not self.graded
        self._beside_torch(verdict)

    def _beside_torch(self, verdict: Verdict) -> None:
        """When PyTorch is installed and has this task's building block: its result for the first case whose
        value is wrong, beside the learner's (computed in a worker after the results are on screen)."""
        from drill.runner import torch_ref

        failing = first_value_failure(verdict)
        if failing is not None and torch_ref.call(self.code_task.name) and torch_ref.available():
            self._torch_result(verdict, failing)

    @work(thread=True, exclusive=True, group="code-torch")
    def _torch_result(self, verdict: Verdict, failing) -> None:
        lines = torch_lines(self.code_task, failing)
        if lines is not None:
            self.app.call_from_thread(self._torch_shown, verdict, lines)

    def _torch_shown(self, verdict: Verdict, lines: list[str]) -> None:
        if self.verdict is not verdict:  # a newer run's results are on screen
            return
        text = self.shown.copy()
        text.append("\n")
        for line in lines:
            text.append(line + "\n", style="cyan")
        self.query_one("#code-result-text", Static).update(text)
        self.shown = text
        self.torch_shown = verdict

    def _save(self, code: str, verdict: Verdict, writing_ms: int) -> None:
        if self.store is None:
            return
        from drill.runner.verdict import attempt_record

        try:
            self.store.record_code_attempt(
                self.code_task.name,
                code,
                self.options.clock(),
                backend="numpy",
                writing_ms=writing_ms,
                **attempt_record(verdict),
            )
        except Exception as err:
            self.notify(_("The attempt was not saved: {error}").format(error=err), severity="error")

    # --- grading --------------------------------------------------------------------------------------

    @property
    def grade_cap(self) -> int:
        """The best grade a run may get: Hard once the reference solution was seen before the pass."""
        return 2 if self.solution_seen else 4

    def action_grade(self, rating: int) -> None:
        if self.proposed is None or self.graded or self.running:
            return
        if rating:
            if rating > self.grade_cap and self.verdict is not None and self.verdict.all_passed:
                self.notify(_(SOLUTION_CAP), timeout=4)
                rating = self.grade_cap
            self.proposed = rating
            return
        self._commit_grade(self.proposed)

    def _commit_grade(self, rating: int) -> None:
        if self.in_study:  # the study screen grades the card (its session, its undo, its next card)
            self.graded = True
            self.dismiss(rating)
            return
        from drill.store.code_carry import code_card_id

        card_id = code_card_id(self.code_task.name)
        if self.store is not None:
            try:
                self.store.grade(card_id, rating, self.options.clock())
            except Exception as err:
                self.notify(_("The grade was not saved: {error}").format(error=err), severity="error")
                return
        self.graded = True
        self._refresh_header()
        self.notify(_("Graded {grade}.").format(grade=_(GRADE_NAMES[rating])))

    # --- solution, history, last attempt, external editor ---------------------------------------------

    def action_solution(self) -> None:
        from drill.store.code_attempts import ASKED, PASSED

        passed = self.verdict is not None and self.verdict.all_passed
        if not passed and not self._solution_asked:  # asked first, whatever was seen on other days
            self._solution_asked = True
            self.notify(
                _(
                    "Press ctrl+s again to see the reference solution (it is recorded; a pass after it "
                    "is graded at most Hard)."
                ),
                timeout=6,
            )
            return
        if not passed:
            self.solution_seen = True
        if self.store is not None:
            self.store.record_solution_view(
                self.code_task.name, self.options.clock(), PASSED if passed else ASKED
            )
        text = Text(_("Reference solution:") + "\n\n", style="bold")
        text.append(self.code_task.solution())
        self.show(text)

    def action_last_attempt(self) -> None:
        if self.store is None:
            self.notify(_("No progress database is open."))
            return
        last = self.store.last_code_attempt(self.code_task.name)
        if last is None:
            self.notify(_("No earlier attempt of this task."))
            return
        self.query_one("#code-editor", TextArea).load_text(last.code)
        self.notify(_("Reopened the attempt of {when}.").format(when=last.ran_at.strftime("%Y-%m-%d %H:%M")))

    def action_history(self) -> None:
        if self.store is None:
            self.notify(_("No progress database is open."))
            return
        self.show(history_text(self.store.code_attempts(self.code_task.name, limit=50)))

    def on_descendant_focus(self, event) -> None:
        if isinstance(event.widget, TextArea):
            self.grade_keys = False
        # the results focused (after a run, or esc): the editor closes up so they show (code.tcss)
        self.set_class(event.widget.id == "code-results", "results")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "grade":
            return self.grade_keys
        return True

    def on_key(self, event: events.Key) -> None:
        """A character typed outside the editor (after esc) is code: back into the editor with it."""
        editor = self.query_one("#code-editor", TextArea)
        if editor.has_focus or not event.is_printable or event.character is None:
            return
        if self.grade_keys and event.character in "1234":
            return  # grades the run just made (its binding)
        event.stop()
        event.prevent_default()
        editor.focus()
        editor.insert(event.character)

    def quit_blocked(self) -> bool:
        """ctrl+q with a proposed grade not yet confirmed: asked first (enter saves it), never dropped silently;
        True when this press only asked (the app's quit reads it)."""
        if self.proposed is None or self.graded or self._quit_asked:
            return False
        self._quit_asked = True
        self.notify(
            _(
                "The proposed grade ({grade}) is not saved yet: enter confirms it; ctrl+q again quits "
                "without it."
            ).format(grade=_(GRADE_NAMES[self.proposed])),
            severity="warning",
            timeout=8,
        )
        if self.verdict is not None:
            self.grade_keys = True  # enter confirms from wherever the focus is
            self.query_one("#code-results", VerticalScroll).focus()
        return True

    def action_quit(self) -> None:
        if not self.quit_blocked():
            super().action_quit()

    def action_leave_editor(self) -> None:
        editor = self.query_one("#code-editor", TextArea)
        if self.in_study and not editor.has_focus:  # back to the study screen, the card not graded
            self.dismiss(None)
            return
        self.query_one("#code-results", VerticalScroll).focus()

    def action_external_editor(self) -> None:
        from drill.tui.screens.code_editor import edit_externally

        try:
            code = edit_externally(self.app, self.code, self.code_task.name)
        except (OSError, UnicodeDecodeError) as err:
            self.notify(_("The editor could not be used: {error}").format(error=err), severity="error")
            return
        self.query_one("#code-editor", TextArea).load_text(code)
