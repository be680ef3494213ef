"""`drill demo`: the chapter's interactive demos. The list (the mode's screen) and one demo (`DemoScreen`).

A demo's controls are keys first: tab / shift+tab choose a control, ←/→ or −/+ move it, enter is the
chapter's "next" (or steps the first control, or opens the demo the selection names). Each control shows its
value and range. The view below is the demo's parts (`flatten(demo.view())`), each in its own widget: after a
move a part that is the same object or equal text is left alone, and a heatmap (`HeatmapSpec`) repaints only
the cells that changed, so a held key costs what changed, not the whole view. `d` on the study screen pushes
the demo of the card's section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from drill.i18n import N_, _
from drill.tui.keys import show_help
from drill.tui.options import AppOptions
from drill.tui.screens.base import ModeScreen
from drill.tui.text import visible
from drill.tui.widgets.footer import StudyFooter
from drill.tui.widgets.heatmap import Heatmap
from drill.tui.widgets.parts import Part, flatten, part_widget, part_widgets, show_parts

if TYPE_CHECKING:
    from drill.content.demos import DemoInfo
    from drill.tui.demos.base import Demo


def make_demo(info: DemoInfo, content_path: str | None = None) -> Demo | None:
    """The demo named by ``info``, or None when drill has not built it yet."""
    from drill.tui.demos import DEMO_CLASSES

    cls = DEMO_CLASSES.get(info.name)
    if cls is None:
        return None
    if cls.name == "attention":
        from drill.content.demos import load_attention

        return cls(info, load_attention())
    if cls.name in ("attn-handcalc", "scaling"):  # they show what the chapter printed beside drill's numbers
        from drill.content import load_content

        return cls(info, load_content(content_path).checks)
    return cls(info)


def demo_for_section(demos: list[DemoInfo], section: str) -> DemoInfo | None:
    return next((d for d in demos if d.section == section), None)


def info_text(info: DemoInfo) -> Text:
    text = Text(no_wrap=False)
    text.append(f"{info.section}  ", style="bold")
    text.append(info.name, style="bold")
    text.append("  ")
    text.append(visible(info.title))
    text.append("\n")
    text.append(visible(info.description), style="italic")
    from drill.content.errata import correction_lines  # drill's correction of a span the note quotes

    for line in correction_lines(info.description):
        text.append("\n" + visible(line))
    return text


PLOT_ROWS = 12  # the least a plot gets: axes, ticks and a label around 7 or 8 rows of curve
VIEW_ROWS = 6  # ... unless that leaves the numbers above it fewer rows than this
PLOT_MIN_ROWS = 8  # and never fewer than demo.tcss's min-height (or the screen itself would scroll)


class DemoScreen(Screen[None]):
    """One demo: its title and the chapter's description, its controls, the view, and a plot if it has one."""

    CSS_PATH = "../styles/demo.tcss"
    # A matrix as wide as the view: a number that gets wider (−0.5 after 0.5) repaints the matrix and does
    # not lay the screen out again.
    DEFAULT_CSS = "#demo-view > Heatmap { width: 1fr; }"
    HELP_TITLE = N_("drill demo — keys")
    PALETTE_GROUP = N_("Demo")
    AUTO_FOCUS = "#demo-view"

    BINDINGS = [
        Binding("tab", "focus_control(1)", N_("Next control"), key_display="tab", priority=True),
        Binding("shift+tab", "focus_control(-1)", N_("Previous control"), show=False, priority=True),
        Binding("right", "move(1)", N_("Increase"), key_display="→", priority=True),
        Binding("plus", "move(1)", N_("Increase"), key_display="+", show=False),
        Binding("left", "move(-1)", N_("Decrease"), key_display="←", priority=True),
        Binding("minus", "move(-1)", N_("Decrease"), key_display="−", show=False),
        Binding(
            "enter", "next", N_("Next"), tooltip=N_("the chapter's “next”, or the demo the selection names")
        ),
        Binding("escape", "back", N_("Back")),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("q", "quit", N_("Quit")),
    ]

    focused_control: reactive[int] = reactive(0, init=False)

    def __init__(self, info: DemoInfo, demo: Demo) -> None:
        super().__init__()
        self.info = info
        self.demo = demo
        self._pending = 0  # moves made since the last redraw

    def compose(self) -> ComposeResult:
        yield Static(info_text(self.info), id="demo-title")
        yield Part(self.controls_text(), id="demo-controls")
        with VerticalScroll(id="demo-view", classes="with-plot" if hasattr(self.demo, "plot") else ""):
            yield from (part_widget(part) for part in flatten(self.demo.view()))
        if hasattr(self.demo, "plot"):
            from textual.containers import Horizontal
            from textual_plot import PlotWidget

            with Horizontal(id="demo-plots"):
                yield PlotWidget(id="demo-plot", allow_pan_and_zoom=False)
                if hasattr(self.demo, "curve"):  # a second plot beside the first (dot-product's curve)
                    yield PlotWidget(id="demo-curve", allow_pan_and_zoom=False)
        yield StudyFooter()

    def on_mount(self) -> None:
        self.refresh_plot()
        self.call_after_refresh(self.fit_plots)

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_plots)

    def fit_plots(self) -> None:
        """The numbers above a plot take at most half of what the title, the controls and the footer leave,
        and never so much that the plots get fewer than PLOT_ROWS lines (at 80×24 they were squashed into
        4) unless the numbers would get fewer than VIEW_ROWS: on a short terminal the numbers scroll."""
        if not hasattr(self.demo, "plot") or not self.is_mounted:
            return
        fixed = sum(self.query_one(name).outer_size.height for name in ("#demo-title", "#demo-controls")) + 1
        left = self.size.height - fixed
        view = self.query_one("#demo-view", VerticalScroll)
        rows = max(min(VIEW_ROWS, left // 2), min(left // 2, left - PLOT_ROWS))
        view.styles.max_height = max(2, min(rows, left - PLOT_MIN_ROWS))

    # --- showing ------------------------------------------------------------------------------------------

    def refresh_controls(self) -> None:
        self.query_one("#demo-controls", Part).show(self.controls_text())

    def controls_text(self) -> Text:
        """The controls on as many lines as the width needs, a control never split across two."""
        text = Text(no_wrap=False)
        width = (self.size.width or self.app.size.width) - 2  # the controls' padding
        used = 0
        for i, control in enumerate(self.demo.controls):
            item = control.text(i == self.focused_control)
            if i and used + 3 + item.cell_len > width:
                text.append("\n")
                used = 0
            elif i:
                text.append("   ")
                used += 3
            text.append_text(item)
            used += item.cell_len
        if not self.demo.controls:
            text.append(_("no controls"), style="dim")
        return text

    def refresh_view(self) -> None:
        """Show the demo's parts now, updated in place (widgets/parts.py)."""
        show_parts(self.query_one("#demo-view", VerticalScroll), flatten(self.demo.view()))
        self.refresh_plot()

    def parts(self) -> list[Part | Heatmap]:
        """The widgets showing the view's parts, in order (tests read them)."""
        return part_widgets(self.query_one("#demo-view", VerticalScroll))

    def refresh_plot(self) -> None:
        if hasattr(self.demo, "plot"):
            from textual_plot import PlotWidget

            self.demo.plot(self.query_one("#demo-plot", PlotWidget))
            if hasattr(self.demo, "curve"):
                self.demo.curve(self.query_one("#demo-curve", PlotWidget))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is offered (footer, help) only where the demo has a "next" or opens another demo."""
        if action == "next":
            return self.demo.has_next()
        return True

    def watch_focused_control(self) -> None:
        self.refresh_controls()

    # --- keys ---------------------------------------------------------------------------------------------

    def action_focus_control(self, delta: int) -> None:
        if self.demo.controls:
            self.focused_control = (self.focused_control + delta) % len(self.demo.controls)

    def action_move(self, steps: int) -> None:
        if not self.demo.controls:
            return
        if self.demo.move(self.demo.controls[self.focused_control], steps):
            self._changed()

    def _changed(self) -> None:
        """Redraw once for all the moves already queued: keys held down or typed fast are taken at once and
        the screen shows the last value, never a backlog of intermediate ones."""
        self._pending += 1
        if self._pending == 1:
            self.call_later(self._redraw)

    def _redraw(self) -> None:
        self._pending = 0
        self.refresh_controls()
        self.refresh_view()

    def action_next(self) -> None:
        linked = self.demo.opens()
        if linked is not None:
            self.open_linked(linked)
        elif self.demo.enter():
            self._changed()

    def open_linked(self, name: str) -> None:
        """Push the demo ``name`` (the transformer block's modules open their own demos)."""
        from drill.content.demos import load_demos

        info = next((d for d in load_demos() if d.name == name), None)
        options = getattr(self.app, "options", None)
        demo = make_demo(info, getattr(options, "content_path", None)) if info is not None else None
        if info is None or demo is None:
            self.notify(_("{name}: not in drill yet").format(name=name), severity="warning")
            return
        self.app.push_screen(DemoScreen(info, demo))

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_help(self) -> None:
        show_help(self)

    def action_quit(self) -> None:
        self.app.exit()


class DemoListScreen(ModeScreen):
    """The 15 demos by section, in the chapter's words; enter opens one. `drill demo NAME` opens NAME at once."""

    CSS_PATH = "../styles/demo.tcss"
    HELP_TITLE = N_("drill demo — keys")
    PALETTE_GROUP = N_("Demos")
    AUTO_FOCUS = "#demo-list"

    BINDINGS = [
        Binding("enter", "open", N_("Open"), priority=True),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("q", "quit", N_("Quit")),
    ]

    def __init__(self, options: AppOptions) -> None:
        super().__init__(options)
        from drill.content.demos import load_demos

        self.demos = load_demos(options.extra.get("demos_file"))

    def compose(self) -> ComposeResult:
        yield Static(Text(_("drill demo · the chapter's interactive demos"), style="bold"), id="demo-head")
        yield OptionList(*(self._option(info) for info in self.demos), id="demo-list")
        yield StudyFooter()

    def _option(self, info: DemoInfo) -> Option:
        from drill.tui.demos import DEMO_CLASSES

        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{info.section:<5} ", style="bold")
        text.append(f"{info.name:<18} ")
        text.append(visible(info.title))
        if info.name not in DEMO_CLASSES:
            text.append("  " + _("(not in drill yet)"), style="dim")
        return Option(text, id=info.name)

    def on_mount(self) -> None:
        name = self.options.extra.get("demo")
        if name:
            self.open(name)

    def open(self, name: str) -> None:
        info = next(d for d in self.demos if d.name == name)
        demo = make_demo(info, self.options.content_path)
        if demo is None:
            self.notify(_("{name}: not in drill yet").format(name=name), severity="warning")
            return
        self.app.push_screen(DemoScreen(info, demo))

    def action_open(self) -> None:
        option_list = self.query_one("#demo-list", OptionList)
        if option_list.highlighted is not None:
            self.open(self.demos[option_list.highlighted].name)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.open(self.demos[event.option_index].name)
