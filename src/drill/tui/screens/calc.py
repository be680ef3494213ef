"""`drill calc`: a full-screen step-through of one computation with editable inputs.

Left: the steps (an OptionList); right: the current step's formula, shape, and its inputs and output as
heatmaps with their numbers (widgets/heatmap.py: 1-based names, shaded by value, characters under NO_COLOR),
side by side. A recomputation that keeps the step's shapes (c, p, r, an edit) updates the heatmaps in place:
only the cells whose numbers changed are repainted.
←/→ step; c causal mask, p padding mask, h number of heads, e edit X and the weights, r random inputs —
each recomputed through drill.engine.attention; l picks another of the chapter's examples. A softmax step also
shows the exponentials and row sums it is worked from (screens/calc_blocks.py). The shell paints first; the trace (numpy) is built in a
worker. A change the engine refuses shows an inline message naming the shapes; the screen never crashes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from drill.errors import DrillError
from drill.i18n import N_, _
from drill.tui.options import AppOptions
from drill.tui.screens.base import ModeScreen
from drill.tui.screens.calc_blocks import (
    WORKED_TITLE,
    pack_lines,
    step_blocks,
    step_head,
    worked_blocks,
)
from drill.tui.text import visible
from drill.tui.widgets.footer import StudyFooter
from drill.tui.widgets.matrix_editor import MatrixEditor
from drill.tui.widgets.parts import PartsView

if TYPE_CHECKING:
    from drill.engine.trace import Trace
    from drill.tui.models.calc import CalcModel

EDITOR_NAMES = ("X", "W_Q", "W_K", "W_V", "W_O", "pad")


class CalcScreen(ModeScreen):
    CSS_PATH = "../styles/calc.tcss"
    AUTO_FOCUS = "#calc-steps"
    HELP_TITLE = N_("drill calc — keys")
    PALETTE_GROUP = N_("Calc")
    # at 80 columns not every key fits the footer: these leave it first (help and the palette keep them),
    # so `l Examples` stays
    FOOTER_GIVES_WAY = ("random", "padding")

    BINDINGS = [
        Binding("left", "step(-1)", N_("Prev step"), key_display="←", tooltip=N_("↑/↓ in the step list too")),
        Binding("right", "step(1)", N_("Next step"), key_display="→"),
        Binding("c", "causal", N_("Causal"), tooltip=N_("the causal mask on/off (future keys get −∞)")),
        Binding(
            "p",
            "padding",
            N_("Padding"),
            tooltip=N_("the padding mask on/off (the last token is PAD unless typed)"),
        ),
        Binding(
            "h", "heads", N_("Heads"), tooltip=N_("cycles through the numbers of heads the weights allow")
        ),
        Binding(
            "e", "edit", N_("Edit"), tooltip=N_("X, W_Q, W_K, W_V, W_O and the pad mask (enter applies)")
        ),
        Binding("r", "random", N_("Random"), tooltip=N_("random inputs of the same shapes")),
        Binding("l", "examples", N_("Examples"), tooltip=N_("the chapter's examples: enter loads one")),
        Binding("escape", "close_editor", N_("Close editor"), show=False),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("q", "quit", N_("Quit")),
    ]

    def __init__(self, options: AppOptions) -> None:
        super().__init__(options)
        self.model: CalcModel | None = None  # once the worker has built the first trace
        self.index = 0
        self._formulas: dict[str, str] = {}

    @property
    def trace(self) -> Trace:
        assert self.model is not None, "no trace before the model is built"
        return self.model.trace

    # --- layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(Text(_("drill calc · computing…")), id="calc-header")
        with Horizontal(id="calc-body"):
            yield OptionList(id="calc-steps")
            with VerticalScroll(id="calc-view"):
                yield Static(Text(_("computing…"), style="italic"), id="calc-step")
                yield Vertical(id="calc-matrices")
                yield Static(id="calc-worked-title")
                yield Vertical(id="calc-worked")
                yield Static(id="calc-note")
        yield MatrixEditor(EDITOR_NAMES, id="calc-editor")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one(MatrixEditor).display = False
        # The loading worker starts once the shell is on screen: its imports (sqlalchemy, numpy) never compete
        # with the first paint.
        self.call_after_refresh(self.load)

    # --- loading ------------------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def load(self) -> None:
        try:
            from drill.tui.models.calc import CalcModel, build_initial

            extra = self.options.extra
            model = CalcModel(build_initial(extra), seed=extra.get("seed") or 0)
            self._prepare_formulas(model.trace)
        except DrillError as err:
            self.app.call_from_thread(self.drill_app.fail, err)
            return
        self.app.call_from_thread(self._ready, model)

    def _ready(self, model: CalcModel) -> None:
        self.model = model
        self.show_trace(keep=None)

    def _prepare_formulas(self, trace: Trace) -> None:
        from drill.content.latex import render_latex

        for step in trace.steps:
            if step.formula and step.formula not in self._formulas:
                try:
                    self._formulas[step.formula] = render_latex(step.formula)
                except Exception:  # a formula the renderer can't handle is shown as written
                    self._formulas[step.formula] = step.formula

    # --- showing ------------------------------------------------------------------------------------------

    def show_trace(self, keep: str | None) -> None:
        """Refill the step list after a (re)computation, staying on step ``keep`` if it still exists."""
        trace = self.trace
        self._prepare_formulas(trace)
        names = trace.names()
        if keep in names:
            self.index = names.index(keep)
        else:
            self.index = min(self.index, len(names) - 1)
        steps = self.query_one("#calc-steps", OptionList)
        steps.clear_options()
        steps.add_options(
            [
                Option(Text(f"{i + 1:>2} {visible(_(step.title))}", overflow="ellipsis"), id=step.name)
                for i, step in enumerate(trace.steps)
            ]
        )
        steps.highlighted = self.index
        self.render_step()
        self.refresh_header()
        self.load_editor()

    def render_step(self) -> None:
        step = self.trace.steps[self.index]
        formula = self._formulas.get(step.formula, step.formula)
        self.query_one("#calc-step", Static).update(step_head(self.trace, self.index, formula))
        self._fill(self.query_one("#calc-matrices", Vertical), step_blocks(self.trace, self.index))
        worked = worked_blocks(self.trace, self.index)
        title = Text(_(WORKED_TITLE), style="bold") if worked else Text("")
        self.query_one("#calc-worked-title", Static).update(title)
        self.query_one("#calc-worked-title").display = bool(worked)
        self._fill(self.query_one("#calc-worked", Vertical), worked)
        note = Text(_("note: {note}").format(note=_(step.note)), style="bold") if step.note else Text("")
        self.query_one("#calc-note", Static).update(note)
        self.query_one("#calc-view", VerticalScroll).scroll_home(animate=False)

    def _fill(self, box: Vertical, blocks: list[list]) -> None:
        """Show ``blocks`` in ``box``, as many side by side on a line as the pane's width takes (80 columns:
        W_O's step puts the output under its two inputs); the views are updated in place when the lines
        keep their lengths."""
        view = self.query_one("#calc-view", VerticalScroll)
        lines = pack_lines(blocks, view.content_size.width or max(1, self.app.size.width - 30))
        rows = list(box.query_children(Horizontal))
        if [len(line) for line in lines] == [len(list(row.query_children(PartsView))) for row in rows]:
            for row, line in zip(rows, lines, strict=True):
                for part_view, parts in zip(row.query_children(PartsView), line, strict=True):
                    part_view.show(parts)
        else:
            box.remove_children()
            box.mount_all(
                Horizontal(*(PartsView(parts, classes="calc-matrix") for parts in line), classes="calc-line")
                for line in lines
            )
        box.display = bool(blocks)

    def on_resize(self) -> None:
        if self.model is not None:
            self.render_step()

    def matrix_views(self) -> list[PartsView]:
        """The step's matrices as shown: inputs, then the output (tests read them)."""
        return list(self.query_one("#calc-matrices", Vertical).query(PartsView).results(PartsView))

    def worked_views(self) -> list[PartsView]:
        """A softmax's exponentials and row sums as shown (empty for other steps)."""
        return list(self.query_one("#calc-worked", Vertical).query(PartsView).results(PartsView))

    def refresh_header(self) -> None:
        """The switches first (they change with a key), then the title: all words, colour only accents. On a
        narrow terminal the line wraps (at most two lines) rather than cutting the example's title."""
        assert self.model is not None
        state = self.model.state
        text = Text()
        text.append("drill calc", style="bold")
        if state is not None:
            s, d = state.x.shape
            text.append(f" · S={s} d={d}")
            if state.kv_heads != state.heads:
                heads = _("heads {count}/KV {kv}").format(count=state.heads, kv=state.kv_heads)
            else:
                heads = _("heads {count}").format(count=state.heads)
            text.append(f" · {heads}", style="bold")
            text.append(
                " · " + (_("causal ON") if state.causal else _("causal off")),
                style="bold" if state.causal else "",
            )
            if state.pad is not None:
                pad = "".join("1" if v else "0" for v in state.pad)
                text.append(" · " + _("pad ON {mask}").format(mask=pad), style="bold")
            else:
                text.append(" · " + _("pad off"))
        else:
            text.append(" · " + _("fixed example"), style="dim")
        text.append("  │  ")
        text.append(visible(_(self.trace.title)), style="dim")
        self.query_one("#calc-header", Static).update(text)

    def load_editor(self) -> None:
        assert self.model is not None
        state = self.model.state
        editor = self.query_one(MatrixEditor)
        if state is None:
            editor.load({})
            return
        from drill.engine.notation import dims
        from drill.tui.models.calc import matrix_text

        values = {}
        for name, value in state.matrices().items():
            values[name] = (dims(value), "" if value is None else matrix_text(value))
        if state.pad is not None:
            values["pad"] = (dims(state.pad), ",".join("1" if v else "0" for v in state.pad))
        else:
            values["pad"] = ("", "")
        editor.load(values)

    # --- changes ------------------------------------------------------------------------------------------

    def _change(self, what: str, change: Callable[[], object]) -> bool:
        """Run a model change; on refusal say why (inline when editing, as a notice otherwise)."""
        keep = self.trace.steps[self.index].name
        try:
            change()
        except DrillError as err:
            editor = self.query_one(MatrixEditor)
            if editor.display:
                editor.show_error(what if what in EDITOR_NAMES else None, str(err))
            else:
                self.notify(str(err), title=_("not changed"), severity="warning", timeout=6)
            return False
        self.query_one(MatrixEditor).show_error(None, None)
        self.show_trace(keep)
        return True

    def action_step(self, delta: int) -> None:
        if self.model is None:
            return
        new = max(0, min(len(self.trace.steps) - 1, self.index + delta))
        if new != self.index:
            self.index = new
            self.query_one("#calc-steps", OptionList).highlighted = new
            self.render_step()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.model is None or event.option_index == self.index:
            return
        self.index = event.option_index
        self.render_step()

    def action_causal(self) -> None:
        if self.model is not None:
            self._change("causal", self.model.toggle_causal)

    def action_padding(self) -> None:
        if self.model is not None:
            self._change("pad", self.model.toggle_pad)

    def action_heads(self) -> None:
        if self.model is not None:
            self._change("heads", self.model.cycle_heads)

    def action_random(self) -> None:
        if self.model is not None:
            self._change("random", self.model.randomize)

    def action_edit(self) -> None:
        if self.model is None:
            return
        if not self.model.editable:
            self.notify(
                _("{example} is a fixed example; press r for attention inputs you can edit").format(
                    example=self.trace.example or _("this trace")
                ),
                severity="warning",
            )
            return
        editor = self.query_one(MatrixEditor)
        editor.display = True
        self.load_editor()
        editor.focus_first()

    def action_close_editor(self) -> None:
        editor = self.query_one(MatrixEditor)
        if editor.display:
            editor.display = False
            editor.show_error(None, None)
            self.query_one("#calc-steps", OptionList).focus()

    def action_examples(self) -> None:
        if self.model is None:
            return
        from drill.tui.screens.calc_examples import ExamplePicker

        self.app.push_screen(ExamplePicker(self.trace.example), self._picked)

    def _picked(self, name: str | None) -> None:
        if name is not None:
            self.query_one("#calc-header", Static).update(Text(_("drill calc · computing…")))
            self.load_example(name)

    @work(thread=True, exclusive=True, group="load")
    def load_example(self, name: str) -> None:
        """The chosen example, built in a worker like the first trace; the screen starts at its first step."""
        from drill.engine.examples import build_example
        from drill.tui.models.calc import CalcModel

        try:
            model = CalcModel(build_example(name), seed=self.model.seed if self.model else 0)
            self._prepare_formulas(model.trace)
        except DrillError as err:
            self.app.call_from_thread(self.notify, str(err), severity="error")
            return
        self.app.call_from_thread(self._loaded, model)

    def _loaded(self, model: CalcModel) -> None:
        self.model = model
        self.index = 0
        self.action_close_editor()
        self.show_trace(keep=None)

    def on_matrix_editor_apply(self, message: MatrixEditor.Apply) -> None:
        model = self.model
        if model is None:
            return
        self._change(message.name, lambda: model.set_matrix(message.name, message.text))
