"""Every figure of a progress report, computed once: ``compute(...) -> ReportData``.

The SQL lives in drill.report.queries (the log is read as aggregates, never row by row); the per-card figures
are numpy over the card rows' columns (drill.report.card_table), with drill.srs.forgetting's curve for
retrievability; the cohort view is drill.report.cohort. Study days are the ones recorded at grade time
(drill.srs's day rules, the store's time zone and ``day_starts_at``). Python sees rows per card, per day and
per quiz attempt, never per review, and makes an object per card only when the caller asks for the per-card
list (the CSV and JSON exports).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from drill.content.sections import covers, section_key
from drill.errors import InputError
from drill.i18n import N_, deferred
from drill.report import card_columns
from drill.report.card_columns import CardColumns
from drill.report.card_table import CardTable
from drill.report.cohort import cohort
from drill.report.data import (
    Calendar,
    CardFigure,
    DayCount,
    Filters,
    Forecast,
    ForecastDay,
    ReportData,
    Retention,
    RetentionFigure,
    SectionMastery,
    SectionRetention,
    Totals,
)
from drill.report.interview import interview_figure, skills_figure
from drill.report.interview_scores import interview_scores
from drill.report.queries import Queries, coding_figures
from drill.report.skills import library_packs
from drill.report.timebase import EPOCH_DAY, DayClock, timezone_name
from drill.srs.days import local_timezone
from drill.srs.forgetting import decay_of

CALENDAR_WEEKS = 26
FORECAST_DAYS = 30
TOP_CARDS = 10

# Where the day start came from, as a report says it (JSON keeps the English: these are `Deferred`s).
SOURCES = {"default": N_("default"), "file": N_("file")}


def parse_since(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(f"--since {text!r} is not a date: use YYYY-MM-DD, e.g. 2026-01-31") from None


def compute(
    source: Any,
    *,
    user: str | None = None,
    since: date | None = None,
    section: str | None = None,
    cohort: bool = False,
    library: Any = None,
    now: datetime | None = None,
    tz: tzinfo | None = None,
    tz_name: str | None = None,
    day_start_hour: int | None = None,
    parameters: Iterable[float] | None = None,
    cards: bool = True,
) -> ReportData:
    """The report for ``user`` over a Store, an Engine or a Connection.

    ``cards=False`` leaves out the per-card list (``ReportData.cards`` is None): the terminal, Markdown and
    HTML reports don't show it, and building a figure per card is most of a large collection's cost.

    ``library`` (a drill.content Library) supplies question text; without it questions are empty.
    ``tz``/``day_start_hour`` default to the machine's zone and the srs config's ``day_starts_at``.
    """
    now = (now or datetime.now(UTC)).astimezone(UTC)
    connectable, store = _connectable(source)
    config = getattr(store, "config", None) or _srs_config()
    if parameters is None:
        parameters = config.parameters
    if day_start_hour is None:
        day_start_hour = config.day_starts_at
        source = config.source("day_starts_at")
        day_source = N_("drill config day_starts_at ({source})", source=deferred(SOURCES.get(source, source)))
    else:
        day_source = deferred(N_("given"))
    if tz is None:
        tz = getattr(store, "tz", None) or local_timezone()
    filters = Filters(since=since, section=section, user=user, cohort=cohort)
    questions = _questions(library)
    report = _Report(DayClock(tz, day_start_hour), decay_of(parameters), now, questions)
    # A caller's Connection is used (and left open); an Engine lends one for the report.
    with nullcontext(connectable) if isinstance(connectable, Connection) else connectable.connect() as conn:
        data = report.run(
            Queries(conn),
            filters,
            getattr(store, "user", None),
            tz_name or timezone_name(tz),
            day_source,
            cards,
        )
    skills, skill_plan = skills_figure(store, library, now, section)
    interview = interview_figure(store, now, section, questions, skill_plan, library_packs(library))
    return replace(data, interview=interview, skills=skills)


def _srs_config():
    from drill.srs.config import load_config

    return load_config()


def _connectable(source: Any) -> tuple[Engine | Connection, Any]:
    """(engine or connection, the Store it came from or None)."""
    if isinstance(source, Engine | Connection):
        return source, None
    engine = getattr(source, "engine", None)
    if isinstance(engine, Engine):
        return engine, source
    raise TypeError(f"compute() needs a Store, Engine or Connection, got {type(source).__name__}")


def _questions(library: Any) -> dict[str, str]:
    """Each card's question as an interviewer asks it: a bank card's 7.24 wording (``Card.front``); a table
    card the row it asks (``asked_line``: its front's prompt and table are shared by every row of the table, so
    the reports' rows all read alike); a code card what its task asks (`drill code`'s prompt; its front is the
    study screen's "space opens the code editor"); with drill's correction of what the question quotes."""
    from drill.content.errata import annotate  # drill's correction beside any span the question quotes

    def asked(card: Any) -> str:
        line = getattr(card, "asked_line", None)
        if line is not None:
            return line()
        task = getattr(card, "task", None)
        if isinstance(task, str):
            from drill.engine.codetasks import get_task
            from drill.errors import DrillError

            try:  # the prompt's first paragraph: what to write (the formula and shapes follow it)
                return get_task(task).prompt.strip().split("\n\n")[0]
            except DrillError:  # a task this drill does not know: its front as it is
                pass
        return getattr(card, "front", card.question)

    def unmarked(
        text: str,
    ) -> str:  # the reports show text as text: no Markdown ``**`` or backticks left in it
        return text.replace("**", "").replace("`", "")

    cards = getattr(library, "cards", None) or {}
    return {cid: annotate(unmarked(asked(card)), sep=" ") for cid, card in cards.items()}


@dataclass(frozen=True)
class _Report:
    clock: DayClock
    decay: float
    now: datetime
    questions: dict[str, str]  # content id -> question text

    def run(
        self,
        queries: Queries,
        filters: Filters,
        preferred: str | None,
        tz_name: str,
        day_source: str,
        with_cards: bool,
    ) -> ReportData:
        user_id, user = queries.resolve_user(filters.user, preferred)
        since_at = self.clock.start_of(filters.since) if filters.since else None
        since_day = (filters.since - EPOCH_DAY).days if filters.since else None

        table = queries.card_table(user_id)
        scope = self.scope(table, filters.section)
        card_ids = None if filters.section is None else scope.db_id.tolist()
        r = scope.retrievability(self.decay, self.now)
        weakest, most_lapsed = scope.weakest(r, TOP_CARDS), scope.most_lapsed(r, TOP_CARDS)
        if with_cards:
            last_ratings = queries.last_ratings(user_id)
            cards = card_columns.build(scope, r, self.questions, last_ratings)
        else:
            listed = [int(scope.db_id[i]) for i in {*weakest, *most_lapsed}]
            last_ratings = queries.last_ratings(user_id, listed) if listed else {}
            cards = None

        # The whole log's figures are summaries the store keeps (study_day_totals; card_states' retention
        # counters, read with the card rows). Only a section or --since needs the log itself.
        where = queries.log_filter(user_id, card_ids, since_day)
        if filters.section is None:
            per_day_totals = queries.summary_day_totals(user_id, since_day)
        else:
            per_day_totals = queries.day_totals(where)
        if since_day is not None:
            per_section = queries.first_of_day_per_section(where)
        else:
            per_section = self.stored_retention(scope)

        per_day = {day: n for day, (n, _ms) in per_day_totals.items()}
        review_seconds = sum(ms for _n, ms in per_day_totals.values()) / 1000
        session_seconds = None if filters.section is not None else queries.session_seconds(user_id, since_at)
        retention = self.retention(per_section)
        return ReportData(
            generated_at=self.now,
            user=user,
            filters=filters,
            timezone=tz_name,
            day_start_hour=self.clock.day_start_hour,
            day_start_source=day_source,
            totals=Totals(
                cards=len(scope),
                by_state=scope.by_state(),
                reviews=sum(per_day.values()),
                review_seconds=review_seconds,
                session_seconds=session_seconds,
                study_seconds=max(review_seconds, session_seconds or 0.0),
                days_studied=len(per_day),
                current_streak=self.streak(set(per_day)),
            ),
            calendar=self.calendar(per_day),
            retention=retention,
            forecast=self.forecast(scope),
            weakest=self.listed(weakest, cards, scope, r, last_ratings),
            most_lapses=self.listed(most_lapsed, cards, scope, r, last_ratings),
            quizzes=queries.quizzes(user_id, since_at),
            coding=coding_figures(queries.conn, user_id, since_at),
            interview_scores=interview_scores(
                queries.conn, user_id, since_at, filters.section, self.questions
            ),
            mastery=self.mastery(scope, r, retention),
            cards=cards,
            cohort=cohort(queries, scope, card_ids, since_day, self.questions) if filters.cohort else None,
        )

    def scope(self, table: CardTable, section: str | None) -> CardTable:
        if section is None:
            return table
        chosen = table.where(table.in_sections(lambda card_section: covers(section, card_section)))
        if not len(chosen):
            known = sorted({s for s in table.sections if s}, key=section_key)
            raise InputError(
                f"--section {section!r}: no cards in that section (sections: {', '.join(known)})"
            )
        return chosen

    def listed(
        self,
        indexes: list[int],
        cards: CardColumns | None,
        scope: CardTable,
        r,
        last_ratings: dict[int, int],
    ) -> list[CardFigure]:
        """The figures of a top ten: from the export's columns when every card was listed, else built here."""
        if cards is not None:
            return [cards[i] for i in indexes]
        return scope.figures(indexes, r, self.questions, last_ratings)

    @staticmethod
    def stored_retention(scope: CardTable) -> list[tuple[str, int, int]]:
        """(section, first-of-day reviews, passed) per section, from the counters the store keeps per card."""
        graded = scope.first_reviews > 0
        cards = scope.per_section(graded)
        firsts = scope.per_section(graded, scope.first_reviews)
        passes = scope.per_section(graded, scope.first_passes)
        return [
            (section, int(firsts[code]), int(passes[code]))
            for code, section in enumerate(scope.sections)
            if cards[code]
        ]

    def streak(self, days: set[int]) -> int:
        today = self.clock.day_number(self.now)
        day = today if today in days else today - 1
        count = 0
        while day in days:
            count += 1
            day -= 1
        return count

    def calendar(self, per_day: dict[int, int]) -> Calendar:
        today = self.clock.day_of(self.now)
        start = today - timedelta(days=today.weekday()) - timedelta(weeks=CALENDAR_WEEKS - 1)
        days = [
            DayCount(day, per_day.get((day - EPOCH_DAY).days, 0))
            for day in (start + timedelta(days=i) for i in range((today - start).days + 1))
        ]
        return Calendar(
            start=start, end=today, days=days, max_reviews=max((d.reviews for d in days), default=0)
        )

    @staticmethod
    def retention(per_card: list[tuple[str, int, int]]) -> Retention:
        """From (section, first-of-day reviews, passed) per card (or per section)."""
        sums: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for section, firsts, passes in per_card:
            total = sums[section]
            total[0] += firsts
            total[1] += passes
        by_section = [
            SectionRetention(s, RetentionFigure.of(*sums[s])) for s in sorted(sums, key=section_key)
        ]
        overall = RetentionFigure.of(sum(v[0] for v in sums.values()), sum(v[1] for v in sums.values()))
        return Retention(overall=overall, by_section=by_section)

    def forecast(self, scope: CardTable) -> Forecast:
        today = self.clock.day_of(self.now)
        starts = [
            self.clock.start_of(today + timedelta(days=i)).timestamp() for i in range(FORECAST_DAYS + 1)
        ]
        overdue, counts = scope.due_counts(starts)
        return Forecast(
            overdue=overdue, days=[ForecastDay(today + timedelta(days=i), n) for i, n in enumerate(counts)]
        )

    @staticmethod
    def mastery(scope: CardTable, r, retention: Retention) -> list[SectionMastery]:
        counts = {name: column.tolist() for name, column in scope.mastery_counts(r).items()}
        rates = {item.section: item.retention.rate for item in retention.by_section}
        return [
            SectionMastery(
                section=section,
                cards=int(counts["cards"][code]),
                new=int(counts["new"][code]),
                learning=int(counts["learning"][code]),
                review=int(counts["review"][code]),
                mastered=int(counts["mastered"][code]),
                suspended=int(counts["out"][code]),
                mean_retrievability=(counts["sum_r"][code] / counts["n_r"][code])
                if counts["n_r"][code]
                else None,
                retention=rates.get(section),
                mastery=(counts["mastered"][code] / counts["active"][code])
                if counts["active"][code]
                else 0.0,
            )
            for code, section in sorted(enumerate(scope.sections), key=lambda item: section_key(item[1]))
            if counts["cards"][code]
        ]
