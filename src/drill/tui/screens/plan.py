"""The interview date from the study screen (as `drill plan --interview`): type a date, see the forecast, set it.

Enter on a date shows the readiness forecast and the daily workload for it; enter again on the same date sets it.
The forecast and the store's write run in a thread worker, so the screen never waits on them.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from drill.i18n import N_, _

if TYPE_CHECKING:
    from collections.abc import Sequence

    from drill.srs.readiness import Readiness
    from drill.srs.skillready import SkillReadiness
    from drill.tui.models.study import StudySession


def forecast_text(ready: Readiness, day: date, new_limit: int, skills: Sequence[SkillReadiness] = ()) -> Text:
    """The forecast as plain Text (no markup): readiness overall and per skill (drill.srs.skillready: on the
    day if the plan is followed / if you stop now, never-tried items named), the plan's new cards a day (the
    one figure `drill plan` and the reports state) and the next days' workload."""
    from drill.content.skills import never_tried_text, skill_name
    from drill.i18n import pad
    from drill.report.skills import new_cards_text

    text = Text()
    text.append(
        _(
            "{day}: {days} days left · ready if you follow the plan: {followed}%, if you stop now: {idle}%"
        ).format(
            day=day.isoformat(),
            days=ready.days_left,
            followed=round(100 * ready.if_followed),
            idle=round(100 * ready.if_no_reviews),
        )
        + "\n",
        style="bold",
    )
    if skills:
        text.append(_("By skill, on the day (if you follow the plan / if you stop now):") + "\n")
        for row in skills:
            followed = round(100 * (row.if_followed or 0.0))
            stopped = round(100 * (row.if_stopped or 0.0))
            text.append(f"  {pad(skill_name(row.skill), 10)} {followed:>3}% / {stopped:>3}%")
            if row.never_tried:
                text.append("  " + never_tried_text(row.skill, row.never_tried, row.items), style="yellow")
            text.append("\n")
    pace = ready.pace
    if pace.remaining:
        text.append(
            new_cards_text(pace.remaining, pace.needed_per_day, new_limit, ready.days_left) + "\n",
            style="yellow" if not pace.reachable else "",
        )
    text.append(_("Daily workload (reviews + new):") + " ")
    text.append("  ".join(f"+{d.day}: {d.reviews}+{d.new}" for d in ready.days[:10]))
    if len(ready.days) > 10:
        text.append(" …")
    return text


class PlanScreen(ModalScreen[bool]):
    """Set, move or remove the interview date. Dismissed with True when the plan changed."""

    BINDINGS = [
        Binding("escape", "close", N_("Close")),
        Binding("ctrl+x", "clear_plan", N_("Remove the date"), key_display="ctrl+x", priority=True),
    ]
    DEFAULT_CSS = """
    PlanScreen { align: center middle; }
    #plan-box { width: 90%; max-width: 100; height: auto; padding: 1 2; border: round $accent; background: $panel; }
    #plan-forecast { height: auto; margin-top: 1; }
    .hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, session: StudySession) -> None:
        super().__init__()
        self.session = session
        self._previewed: date | None = None

    def compose(self) -> ComposeResult:
        current = self.session.interview
        with Vertical(id="plan-box"):
            yield Static(Text(_("Interview date"), style="bold"))
            yield Input(
                value=current.day.isoformat() if current else "", placeholder="YYYY-MM-DD", id="plan-date"
            )
            yield Static(Text(""), id="plan-forecast")
            yield Static(
                Text(_("enter: forecast · enter again: set the date · ctrl+x: remove it · escape: close")),
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one("#plan-date", Input).focus()

    def _say(self, text: Text | str) -> None:
        self.query_one("#plan-forecast", Static).update(text if isinstance(text, Text) else Text(text))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            day = date.fromisoformat(event.value.strip())
        except ValueError:
            self._say(
                Text(_("{value!r} is not a date: use YYYY-MM-DD").format(value=event.value), style="red")
            )
            self._previewed = None
            return
        if day == self._previewed:
            self.commit(day)
        else:
            self.preview(day)

    @work(thread=True, exclusive=True, group="plan")
    def preview(self, day: date) -> None:
        from drill.srs.deadline import DEFAULT_TARGET
        from drill.store.plans import Plan, deadline_of

        store, now = self.session.store, self.session.now()
        target = self.session.interview.deadline.target if self.session.interview else DEFAULT_TARGET
        deadline = deadline_of(store, Plan(day, target, now))
        assert deadline is not None  # a plan always has one
        if deadline.at <= now:
            message = Text(
                _("the interview day {day} has already begun").format(day=day.isoformat()), style="red"
            )
            self.app.call_from_thread(self._say, message)
            return
        from drill.report.skills import plan_cards, plan_for, plan_readiness
        from drill.srs.skillready import skill_readiness

        cards = plan_cards(store, self.session.library)
        plan = plan_for(store, self.session.library, now, deadline, cards=cards)
        ready = plan_readiness(store, now, deadline, plan)
        skills = skill_readiness(cards, now, store.config, plan, deadline.at)
        text = forecast_text(ready, day, store.config.new_per_day, skills)
        text.append("\n" + _("Press enter again to set this date."), style="italic")
        self.app.call_from_thread(self._previewed_day, day, text)

    def _previewed_day(self, day: date, text: Text) -> None:
        self._previewed = day
        self._say(text)

    @work(thread=True, exclusive=True, group="plan")
    def commit(self, day: date) -> None:
        target = self.session.interview.deadline.target if self.session.interview else None
        from drill.srs.deadline import DEFAULT_TARGET

        moved = self.session.set_interview(day, target or DEFAULT_TARGET)
        self.app.call_from_thread(
            self._done,
            _("Interview date set to {day}; {n} cards brought forward.").format(day=day.isoformat(), n=moved),
        )

    @work(thread=True, exclusive=True, group="plan")
    def action_clear_plan(self) -> None:
        restored = self.session.clear_interview()
        self.app.call_from_thread(
            self._done, _("Interview date removed; {n} cards back on FSRS's own schedule.").format(n=restored)
        )

    def _done(self, message: str) -> None:
        self.app.notify(message)
        self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(False)
