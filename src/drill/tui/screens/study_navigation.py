"""The screens the study screen opens: card info, the browser (and search), the section's demo, the interview
date, custom study. A part of `StudyScreen` (tui/screens/study.py) on its state (`StudyState`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drill.i18n import _
from drill.tui.screens.study_state import StudyState
from drill.tui.text import visible

if TYPE_CHECKING:
    from drill.tui.models.custom_study import StudyFilter
    from drill.tui.models.study import StudySession
    from drill.tui.screens.browser import BrowserScreen


class StudyNavigation(StudyState):
    """The screens the study screen opens, and the session's browser."""

    def action_info(self) -> None:
        if self.card is None or not self._ready(self.action_info) or self.session is None:
            return
        from drill.tui.models.sections import section_titles
        from drill.tui.screens.card_info import CardInfoScreen

        info = self.session.card_info(self.card.id)
        self.app.push_screen(CardInfoScreen(self.card, info, section_titles(self.session.library)))

    def action_demo(self) -> None:
        if self.card is None:
            return
        from drill.content.demos import load_demos
        from drill.tui.screens.demo import DemoScreen, demo_for_section, make_demo

        info = demo_for_section(load_demos(), self.card.section)
        demo = make_demo(info, self.options.content_path) if info is not None else None
        if info is None or demo is None:
            self.notify(_("no demo for section {section} in drill yet").format(section=self.card.section))
            return
        self.app.push_screen(DemoScreen(info, demo))

    def action_interview_plan(self) -> None:
        if not self._ready(self.action_interview_plan) or self.session is None or self.session.readonly:
            return
        from drill.tui.screens.plan import PlanScreen

        self.app.push_screen(PlanScreen(self.session), self._plan_closed)

    def _plan_closed(self, changed: bool | None) -> None:
        if changed and self.session is not None:
            self.refresh_counts()
            if self.card is not None:
                self.grade_bar.set_intervals(self.session.intervals(self.card.id))

    def action_custom_study(self) -> None:
        if not self._ready(self.action_custom_study) or self.session is None:
            return
        from drill.tui.screens.custom_study import CustomStudyScreen

        self.app.push_screen(CustomStudyScreen(self.session.sections()), self._custom_chosen)

    def _custom_chosen(self, study: StudyFilter | None) -> None:
        """Start the chosen custom session in place of this one (the current card is left ungraded)."""
        if study is None or self.session is None:
            return
        from drill.tui.models.custom_study import CustomQueue

        self.options.study = study
        self.session.options = self.options
        self.session.queue = CustomQueue(self.session.library, self.session.store, study)
        self.show_next()

    def action_study_more(self) -> None:
        """+: add new cards and reviews to today's limits (Store.study_more), then go on with today's cards."""
        if not self._ready(self.action_study_more) or self.session is None:
            return
        session = self.session
        if session.readonly:
            self.notify(_("READ-ONLY: grades are not saved"), severity="error")
            return
        if session.mode in ("ahead", "forgotten", "preview"):
            self.notify(
                _("This custom study has no daily limit; press c for today's cards, then + to study more."),
                timeout=4,
            )
            return
        from drill.tui.screens.study_more import StudyMoreScreen

        counts = session.store.counts(session.now())
        config = session.store.config
        extra = (counts.extra_new, counts.extra_reviews)
        self.app.push_screen(
            StudyMoreScreen(config.new_per_day, config.reviews_per_day, extra), self._more_chosen
        )

    def _more_chosen(self, more: tuple[int, int] | None) -> None:
        if more is None or self.session is None:
            return
        from drill.errors import DrillError

        try:
            self.session.study_more(*more)
        except DrillError as err:
            self.notify(str(err), severity="error")
            return
        self.notify(
            _("Added to today's limits: {new} new cards, {reviews} reviews.").format(
                new=more[0], reviews=more[1]
            ),
            timeout=3,
        )
        if self.card is None:  # the end, or waiting: today's cards go on
            self.show_next()
        else:
            self.refresh_counts()

    def action_search(self) -> None:
        self._open_browser(focus_search=True)

    def action_browse(self) -> None:
        self._open_browser(focus_search=False)

    def _open_browser(self, focus_search: bool) -> None:
        """The session's one browser (installed, so closing it keeps it)."""
        if not self._ready(lambda: self._open_browser(focus_search)) or self.session is None:
            return
        browser = self._session_browser(self.session)
        browser.opening(focus_search=focus_search)
        self.app.push_screen(browser, self._open_from_browser)

    def _session_browser(self, session: StudySession) -> BrowserScreen:
        from drill.tui.screens.browser import BrowserScreen

        browser = self._browser
        if browser is None or browser.session is not session:
            self._drop_browser()
            browser = self._browser = BrowserScreen(session)
            self.app.install_screen(browser, f"drill-browser-{id(browser)}")
        return browser

    def _drop_browser(self) -> None:
        """Uninstall the browser and let it go (the study screen is going), unless it is on screen."""
        browser, self._browser = self._browser, None
        if browser is not None and browser not in self.app.screen_stack:
            self.app.uninstall_screen(browser)
            if browser.is_running:
                browser.remove()

    def _open_from_browser(self, card_id: str | None) -> None:
        if card_id is None:
            if self.ended:
                self.show_next()
            return
        assert self.session is not None
        card = self.session.card(card_id)
        if card is not None:
            self.show_card(card)
            self._say_if_early(card_id)

    def _say_if_early(self, card_id: str) -> None:
        """A card opened from the browser before it is due: the screen says so while it is shown (grading it
        now is an early review: it counts, and FSRS reschedules it from today)."""
        assert self.session is not None
        info = self.session.card_info(card_id)
        now = self.session.now()
        if info.kind.value != "new" and info.due is not None and info.due > now:
            self.notify(
                _("Ahead of schedule: {id} is due {due}. Grading it now is an early review.").format(
                    id=visible(card_id), due=info.due.astimezone().strftime("%Y-%m-%d %H:%M")
                ),
                title=_("Early review"),
                timeout=8,
                markup=False,  # text is text: the id is never markup
            )
