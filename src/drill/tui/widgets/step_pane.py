"""The side pane: the engine steps a card is about, one at a time — each step's inputs beside its output, the
chapter's 1-based element names, a softmax's intermediates, and the steps computed between the ones the card
names (`drill.tui.steps.follow_computation`). Numbers as tables, or (h) as a shaded heatmap.

The pane never gives the answer away: until the card's answer is shown (``show_answer(True)``, from the study
screen's ``revealed``) a step shows only its given inputs — no output, no title, formula or note, no input
that one of the pane's own steps computes (`question_body`); the rest appears on reveal."""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from drill.i18n import _
from drill.tui.steps import StepView
from drill.tui.widgets.step_detail import given_tables, labelled, step_tables


class StepPane(VerticalScroll):
    """Shows ``views[index]`` of the steps it is given (`show_refs`); the screen moves the index with ←/→
    and toggles ``heatmap`` with h."""

    can_focus = False

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.views: list[StepView] = []
        self.index = 0
        self.refs: tuple[str, ...] = ()
        self._heatmap = False
        self.answer_shown = False  # the card's answer is out: outputs, titles and formulas may show

    def compose(self) -> ComposeResult:
        yield Static(Text(_("steps")), id="step-title")
        yield Static("", id="step-body")

    @property
    def heatmap(self) -> bool:
        return self._heatmap

    @heatmap.setter
    def heatmap(self, on: bool) -> None:
        self._heatmap = on
        if self.views:
            self.render_step()

    def show_refs(self, refs: tuple[str, ...]) -> None:
        """The steps a card names: at once when built already (`drill.tui.steps.cached_steps`), otherwise
        "computing…" until a thread worker has built them (numpy), if they are still the ones asked for."""
        from drill.tui.steps import cached_steps

        self.answer_shown = False  # a card's question: its steps' inputs only
        if refs and refs == self.refs and self.views:  # same steps as the card before: back to the first
            self.index = 0
            self.render_step()
            return
        views = cached_steps(refs) if refs else None
        if views is not None:
            self.refs = refs
            self.show_views(refs, views)
            return
        self.show_loading(refs)
        if refs:
            self._load_steps(refs)

    @work(thread=True, exclusive=True, group="steps")
    def _load_steps(self, refs: tuple[str, ...]) -> None:
        from drill.tui.steps import load_steps

        views = load_steps(refs)
        self.app.call_from_thread(self.show_views, refs, views)

    def show_loading(self, refs: tuple[str, ...]) -> None:
        self.refs = refs
        self.views = []
        self.index = 0
        if refs:
            self._set(Text(_("steps")), Text(_("computing…"), style="italic"))
        else:
            self._set(Text(_("steps")), Text(_("This card names no engine steps."), style="italic"))

    def show_views(self, refs: tuple[str, ...], views: list[StepView]) -> None:
        if refs != self.refs:
            return  # a newer card is on screen already
        self.views = views
        self.index = 0
        self.render_step()

    def show_answer(self, shown: bool) -> None:
        """The card's answer is shown (or hidden again): the steps' outputs, titles and formulas follow."""
        if shown != self.answer_shown:
            self.answer_shown = shown
            if self.views:
                self.render_step()

    def move(self, delta: int) -> bool:
        if not self.views:
            return False
        new_index = max(0, min(len(self.views) - 1, self.index + delta))
        if new_index == self.index:
            return False
        self.index = new_index
        self.render_step()
        return True

    def render_step(self) -> None:
        view = self.views[self.index]
        title = Text()
        title.append(
            _("step {number}/{count}").format(number=self.index + 1, count=len(self.views)), style="bold"
        )
        if not self.answer_shown:
            title.append(" · " + _("its inputs; the rest with the answer"), style="italic")
            title.append("   ← →", style="dim")
            if view.step is None:
                self._set(title, Text(_("unavailable")))
                return
            computed = {v.step.name for v in self.views if v.step is not None and v.trace is view.trace}
            self._set(title, question_body(view, computed, heatmap=self._heatmap))
            return
        title.append(f" · {view.ref}")
        if view.between:
            title.append(" · " + _("computed in between"), style="italic")
        title.append("   ← →", style="dim")
        if view.step is None:
            self._set(title, Text(view.problem or _("unavailable")))
            return
        self._set(title, step_body(view, heatmap=self._heatmap))

    def _set(self, title, body) -> None:
        self.query_one("#step-title", Static).update(title)
        self.query_one("#step-body", Static).update(body)


def step_body(view: StepView, *, heatmap: bool = False) -> Group:
    """A step's title, formula and shape; its inputs beside its output (named from 1: row 1, head 1); a
    softmax's exponentials and row sums; what the step means."""
    step = view.step
    assert step is not None
    parts: list[RenderableType] = [Text(_(step.title), style="bold")]
    if view.formula:
        parts.append(Text(view.formula))
    parts.append(Text(_("shape {shape}").format(shape=step.shape)))
    if step.explanation:
        parts.append(Text(_(step.explanation), style="italic"))
    parts.append(Text(""))
    if view.trace is not None:
        parts.append(Columns(step_tables(view.trace, step, heatmap=heatmap), padding=(0, 2)))
    else:
        parts.append(labelled(step.name, step.output, step.shape, heatmap=heatmap))
    if view.intermediates:
        parts.append(Text(""))
        parts.append(Text(_("worked as the chapter does: weights = ① / ②"), style="bold"))
        tables = [labelled(_(label), values, step.shape) for label, values in view.intermediates]
        parts.append(Columns(tables, padding=(0, 2)))
    if step.note:
        parts.append(Text(""))
        parts.append(Text(_("note: {note}").format(note=_(step.note)), style="italic"))
    return Group(*parts)


def question_body(view: StepView, computed: set[str], *, heatmap: bool = False) -> RenderableType:
    """A step before the card's answer is out: only the inputs it is given (a given matrix, or an earlier
    step's output that is not one of ``computed``, the pane's own steps); its output, title, formula, shape
    note and intermediates come with the answer."""
    step = view.step
    assert step is not None
    hidden = Text(_("out: shown with the answer"), style="italic")
    if view.trace is None:
        return hidden
    tables = given_tables(view.trace, step, computed, heatmap=heatmap)
    if not tables:
        return Group(Text(_("Every input of this step is worked out on the way."), style="italic"), hidden)
    return Group(Columns(tables, padding=(0, 2)), Text(""), hidden)
