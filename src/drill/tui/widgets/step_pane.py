"""The side pane: the engine steps a card is about, one at a time — each step's inputs beside its output, the
chapter's 1-based element names, a softmax's intermediates, and the steps computed between the ones the card
names (`drill.tui.steps.follow_computation`). Numbers as tables, or (h) as a shaded heatmap.

Laying a step's tables out (Rich tables side by side) takes 5-50 ms; a card shows its first step with the
card, so the study screen's background warm-up lays each card's first step out ahead (`prime_first_step`, at
the pane's width) and the pane, after a grade, only copies lines already made (`RenderedOnce`)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.widgets import Static

from drill.i18n import _
from drill.tui.steps import StepView
from drill.tui.widgets.rendered_once import RenderedOnce
from drill.tui.widgets.settled import SettledScroll, SettledStatic
from drill.tui.widgets.step_detail import labelled, step_tables

if TYPE_CHECKING:
    from rich.console import ConsoleOptions

# The priming thread pauses this long between two cards' steps (lets the UI thread take the GIL).
PRIME_PAUSE_S = 0.02
# How many of the coming cards have their first step laid out ahead; bodies of other cards are let go, so the
# pane's memory follows this window, not the session's length.
PRIME_AHEAD = 6
# (refs, index, heatmap) -> the step's body, laid out once per width: the same steps come back card after card.
Bodies = dict[tuple[tuple[str, ...], int, bool], RenderedOnce]


def body_of(bodies: Bodies, refs: tuple[str, ...], index: int, view: StepView, heatmap: bool) -> RenderedOnce:
    key = (refs, index, heatmap)
    body = bodies.get(key)
    if body is None:
        body = bodies[key] = RenderedOnce(step_body(view, heatmap=heatmap))
    return body


def prime_first_step(console: Console, options: ConsoleOptions, views: list[StepView]) -> RenderedOnce | None:
    """The step a card's pane opens on, laid out as the pane will render it (``options``:
    `StepPane.body_options`); None when the engine has no step to show. Safe from a thread."""
    if not views or views[0].step is None:
        return None
    body = RenderedOnce(step_body(views[0], heatmap=False))
    console.render_lines(body, options, pad=False)
    return body


class StepPane(SettledScroll):
    """Shows ``views[index]`` of the steps it is given (`show_refs`); the screen moves the index with ←/→
    and toggles ``heatmap`` with h."""

    can_focus = False

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.views: list[StepView] = []
        self.index = 0
        self.refs: tuple[str, ...] = ()
        self._heatmap = False
        self.bodies: Bodies = {}  # the shown card's bodies, and those laid out ahead for the coming cards
        self.options: ConsoleOptions | None = None  # how the body is rendered, once the pane has been shown
        self._coming: tuple[
            tuple[str, ...], ...
        ] = ()  # the refs of the cards that name steps, in their order
        self._cursor = 0  # the place in ``_coming`` of the card shown last

    def compose(self) -> ComposeResult:
        yield SettledStatic(Text(_("steps")), id="step-title")
        yield SettledStatic("", id="step-body")

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

        if refs and refs == self.refs and self.views:
            if self.index:  # same steps as the card before: just go back to the first
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
        self._move_window(refs)

    def _move_window(self, refs: tuple[str, ...]) -> None:
        """The shown card is at ``refs``' next place in the coming cards (or its first, after an undo):
        lay out the cards after it, let the others' bodies go."""
        for start in (self._cursor, 0):
            try:
                self._cursor = self._coming.index(refs, start)
                break
            except ValueError:
                continue
        self._prime_window()

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
        if view.between:
            title.append(" · " + _("computed in between"), style="italic")
        title.append("   ← →", style="dim")
        if view.step is None:
            self._set(title, Text(view.problem or _("unavailable")))
            return
        self._set(title, body_of(self.bodies, self.refs, self.index, view, self._heatmap))
        self.call_after_refresh(self._note_width)

    def on_resize(self) -> None:
        self.call_after_refresh(self._note_width)

    def _note_width(self) -> None:
        """Keep the options the step body is rendered with at the pane's width (textual's RichVisual); at a
        new width, lay the first steps out again."""
        width = self.query_one("#step-body", Static).content_region.width
        if self.display and width > 0 and (self.options is None or self.options.max_width != width):
            self.options = self.app.console_options.update(highlight=False, width=width).update_width(width)
            self._prime_window()

    def prime(self, coming: tuple[tuple[str, ...], ...]) -> None:
        """``coming``: the refs of the session's cards that name steps, in the order they come. The step each
        of the next `PRIME_AHEAD` cards' panes opens on is laid out in a thread, once the pane's width is
        known, and again as cards are shown; a grade then only copies lines already made."""
        self._coming = coming
        self._cursor = 0
        self._prime_window()

    def _window(self) -> tuple[tuple[str, ...], ...]:
        return self._coming[self._cursor : self._cursor + PRIME_AHEAD + 1]

    def _prime_window(self) -> None:
        ahead = self._window()
        keep = {*ahead, self.refs}
        for key in list(self.bodies):  # bodies change on the UI thread only (`_keep`)
            if key[0] not in keep:
                self.bodies.pop(key, None)
        ahead = tuple(dict.fromkeys(refs for refs in ahead if refs != self.refs))
        if self.options is not None and ahead:
            self._prime_steps(ahead, self.options)

    @work(thread=True, exclusive=True, group="prime-steps")
    def _prime_steps(self, all_refs: tuple[tuple[str, ...], ...], options: ConsoleOptions) -> None:
        from textual.worker import get_current_worker

        from drill.tui.steps import load_steps

        worker = get_current_worker()
        for refs in all_refs:
            if worker.is_cancelled:
                return
            if (refs, 0, False) in self.bodies:
                continue
            body = prime_first_step(self.app.console, options, load_steps(refs))
            if body is not None:
                try:
                    self.app.call_from_thread(self._keep, refs, body)
                except RuntimeError:  # the app has ended meanwhile
                    return
            time.sleep(PRIME_PAUSE_S)

    def _keep(self, refs: tuple[str, ...], body: RenderedOnce) -> None:
        """A body laid out ahead joins the pane's on the UI thread (which alone lets bodies go), if its card is
        still to come."""
        if refs in self._window():
            self.bodies.setdefault((refs, 0, False), body)

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
        parts.append(
            Columns([RenderedOnce(t) for t in step_tables(view.trace, step, heatmap=heatmap)], padding=(0, 2))
        )
    else:
        parts.append(labelled(step.name, step.output, step.shape, heatmap=heatmap))
    if view.intermediates:
        parts.append(Text(""))
        parts.append(Text(_("worked as the chapter does: weights = ① / ②"), style="bold"))
        tables = [labelled(_(label), values, step.shape) for label, values in view.intermediates]
        parts.append(Columns([RenderedOnce(t) for t in tables], padding=(0, 2)))
    if step.note:
        parts.append(Text(""))
        parts.append(Text(_("note: {note}").format(note=_(step.note)), style="italic"))
    return Group(*parts)
