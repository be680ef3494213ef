"""The side pane: the engine steps a card is about, one at a time, as Rich tables of real numbers."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from drill.i18n import _
from drill.tui.steps import StepView
from drill.tui.widgets.matrix import matrix_table
from drill.tui.widgets.rendered_once import RenderedOnce


class StepPane(VerticalScroll):
    """Shows ``views[index]``; the screen moves the index with ←/→."""

    can_focus = False

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.views: list[StepView] = []
        self.index = 0
        self.refs: tuple[str, ...] = ()
        # (refs, index) -> the step's body, laid out once per width: the same steps come back card after card.
        self._bodies: dict[tuple[tuple[str, ...], int], RenderedOnce] = {}

    def compose(self) -> ComposeResult:
        yield Static(Text(_("steps")), id="step-title")
        yield Static("", id="step-body")

    def show_loading(self, refs: tuple[str, ...]) -> None:
        self.refs = refs
        self.views = []
        self.index = 0
        if refs:
            self._set(
                Text(_("steps · {count}").format(count=len(refs))), Text(_("computing…"), style="italic")
            )
        else:
            self._set(Text(_("steps")), Text(_("This card names no engine steps."), style="italic"))

    def show_views(self, refs: tuple[str, ...], views: list[StepView]) -> None:
        if refs != self.refs:
            return  # a newer card is on screen already
        self.views = views
        self.index = 0
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
        title.append(f" · {view.ref}")
        title.append("   ← →", style="dim")
        if view.step is None:
            self._set(title, Text(view.problem or _("unavailable")))
            return
        key = (self.refs, self.index)
        body = self._bodies.get(key)
        if body is None:
            body = self._bodies[key] = RenderedOnce(step_body(view))
        self._set(title, body)

    def _set(self, title, body) -> None:
        self.query_one("#step-title", Static).update(title)
        self.query_one("#step-body", Static).update(body)


def step_body(view: StepView) -> Group:
    """A step's title, formula, shape and inputs, its output as a table, and what it means."""
    step = view.step
    parts = [Text(_(step.title), style="bold")]
    if view.formula:
        parts.append(Text(view.formula))
    parts.append(Text(_("shape {shape}").format(shape=step.shape)))
    if step.inputs:
        parts.append(Text(_("from {inputs}").format(inputs=", ".join(step.inputs)), style="dim"))
    parts.append(Text(""))
    parts.append(matrix_table(step.output, title=step.name))
    if step.explanation:
        parts.append(Text(""))
        parts.append(Text(_(step.explanation)))
    if step.note:
        parts.append(Text(_("note: {note}").format(note=_(step.note)), style="italic"))
    return Group(*parts)
