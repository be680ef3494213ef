"""Every figure of a progress report, computed once: ``compute(...) -> ReportData``.

The review log can hold millions of rows, so the report never reads it row by row. Store.grade records what
the report needs as it writes (drill.store.review_days): each log row's study day and whether it was the
card's first grade that day, the user's reviews and answer time per study day (``study_day_totals``) and each
card's first-of-day grades and passes (``card_states``). So the whole log's figures read a row per day and a
row per card; a ``--section`` or ``--since`` report runs indexed aggregates over the log's study_day /
first_of_day columns instead. Study days are the ones recorded at grade time (drill.srs's day rules, the
store's time zone and ``day_starts_at``). Python sees rows per card, per day and per quiz attempt, never per
review; the per-card figures are computed over the card rows' columns (drill.report.card_table), and a
Python object per card is made only when the caller asks for the per-card list (the CSV and JSON exports).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from sqlalchemy import (
    Engine,
    Integer,
    String,
    and_,
    case,
    func,
    select,
    true,
    type_coerce,
)
from sqlalchemy.engine import Connection

from drill.errors import InputError
from drill.report.card_table import CardTable, utc
from drill.report.data import (
    MASTERED_STABILITY_DAYS,
    Calendar,
    CardFigure,
    Cohort,
    CohortUser,
    DayCount,
    Filters,
    Forecast,
    ForecastDay,
    QuestionFailure,
    QuizPoint,
    ReportData,
    Retention,
    RetentionFigure,
    SectionMastery,
    SectionRetention,
    Totals,
)
from drill.report.timebase import EPOCH_DAY, DayClock, timezone_name
from drill.srs.days import local_timezone
from drill.store.tables import attempts_t as quiz_t
from drill.store.tables import cards_t, days_t, logs_t, sessions_t, states_t, users_t

CALENDAR_WEEKS = 26
FORECAST_DAYS = 30
TOP_CARDS = 10


@dataclass(frozen=True)
class Decay:
    """FSRS-6 forgetting curve: R(t) = (1 + factor * t / S) ** decay, t in whole elapsed days (as py-fsrs)."""

    decay: float
    factor: float

    @classmethod
    def from_parameters(cls, parameters: Iterable[float] | None = None) -> Decay:
        if parameters is None:
            from fsrs.scheduler import DEFAULT_PARAMETERS

            parameters = DEFAULT_PARAMETERS
        decay = -float(tuple(parameters)[20])
        return cls(decay=decay, factor=0.9 ** (1 / decay) - 1)

    def retrievability(self, stability: float | None, elapsed_seconds: float | None) -> float | None:
        """R after ``elapsed_seconds`` since the last review, counted in whole days as py-fsrs counts them
        (``(now - last_review).days``)."""
        if not stability or stability <= 0 or elapsed_seconds is None:
            return None
        return self.retrievabilities([stability], [elapsed_seconds])[0]

    def retrievabilities(self, stability, elapsed_seconds) -> list[float | None]:
        """``retrievability`` for many cards at once (NaN stability or time: None)."""
        r = self.retrievability_array(stability, elapsed_seconds)
        return [None if value != value else value for value in r.tolist()]

    def retrievability_array(self, stability, elapsed_seconds):
        """R for many cards at once, as a numpy array (NaN where the stability or the time is unknown)."""
        import numpy as np

        stability = np.asarray(stability, dtype=np.float64)
        elapsed = np.asarray(elapsed_seconds, dtype=np.float64)
        known = (stability > 0) & ~np.isnan(elapsed)  # (NaN > 0 is False)
        days = np.maximum(0.0, np.floor_divide(np.where(known, elapsed, 0.0), 86400.0))
        with np.errstate(divide="ignore", invalid="ignore"):
            r = (1 + self.factor * days / np.where(known, stability, 1.0)) ** self.decay
        return np.where(known, r, np.nan)


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
    engine_or_conn, store = _connectable(source)
    config = getattr(store, "config", None) or _srs_config()
    if parameters is None:
        parameters = config.parameters
    if day_start_hour is None:
        day_start_hour = config.day_starts_at
        day_source = f"drill config day_starts_at ({config.source('day_starts_at')})"
    else:
        day_source = "given"
    if tz is None:
        tz = getattr(store, "tz", None) or local_timezone()
    clock = DayClock(tz, day_start_hour)
    decay = Decay.from_parameters(parameters)

    preferred = getattr(store, "user", None)
    with _connect(engine_or_conn) as conn, _gc_paused():
        engine = engine_or_conn if isinstance(engine_or_conn, Engine) else None
        return _Computation(conn, clock, decay, now, library, engine=engine).run(
            user=user,
            preferred=preferred,
            filters=Filters(since=since, section=section, user=user, cohort=cohort),
            tz_name=tz_name or timezone_name(tz),
            day_source=day_source,
            with_cards=cards,
        )


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


class _gc_paused:
    """The cyclic garbage collector off while the figures are built: a report makes a few hundred thousand
    small acyclic objects (a row and a figure per card), and the collector's passes over them cost more than
    building them. Restored afterwards (and left alone if someone else turned it off)."""

    def __enter__(self) -> None:
        import gc

        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        import gc

        if self.was_enabled:
            gc.enable()


class _connect:
    """A connection from an Engine (closed afterwards) or the Connection itself (left open)."""

    def __init__(self, source: Engine | Connection) -> None:
        self.source = source
        self.conn: Connection | None = None

    def __enter__(self) -> Connection:
        if isinstance(self.source, Connection):
            return self.source
        self.conn = self.source.connect()
        return self.conn

    def __exit__(self, *exc: object) -> None:
        if self.conn is not None:
            self.conn.close()


class _Background:
    """Runs ``fn(computation)`` on worker threads with their own connections when the computation has an
    Engine; otherwise (a caller's Connection, which is not thread-safe) runs it inline, in order."""

    def __init__(self, computation: _Computation) -> None:
        self.computation = computation
        self.pool = None

    def __enter__(self) -> _Background:
        if self.computation.engine is not None:
            from concurrent.futures import ThreadPoolExecutor

            self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="drill-report")
        return self

    def submit(self, fn):
        from concurrent.futures import Future

        if self.pool is None:
            done: Future = Future()
            try:
                done.set_result(fn(self.computation))
            except BaseException as err:  # noqa: BLE001 - re-raised by .result(), as a worker's would be
                done.set_exception(err)
            return done
        return self.pool.submit(self._on_own_connection, fn)

    def _on_own_connection(self, fn):
        comp = self.computation
        with comp.engine.connect() as conn:
            return fn(_Computation(conn, comp.clock, comp.decay, comp.now, comp.library))

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


def section_key(section: str) -> tuple:
    """Natural order: 7.2 before 7.10."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"[.\s]+", section))


def in_section(card_section: str, wanted: str) -> bool:
    return card_section == wanted or card_section.startswith(wanted + ".")


class _Computation:
    def __init__(self, conn: Connection, clock: DayClock, decay: Decay, now: datetime, library: Any,
                 engine: Engine | None = None) -> None:
        self.conn = conn
        self.engine = engine  # when given, the heavy log aggregates run on their own connections, in parallel
        self.clock = clock
        self.decay = decay
        self.now = now
        self.library = library
        self.dialect = conn.dialect.name

    # -- SQL pieces --------------------------------------------------------------------------------------

    def log_filter(self, user_ids, card_ids: list[int] | None, since_day: int | None):
        conditions = [logs_t.c.user_id.in_(user_ids) if isinstance(user_ids, list) else logs_t.c.user_id == user_ids]
        if since_day is not None:
            conditions.append(logs_t.c.study_day >= since_day)
        if card_ids is not None:
            conditions.append(logs_t.c.card_id.in_(card_ids))
        return and_(*conditions)

    @staticmethod
    def passed():
        """1 for a grade other than Again."""
        return case((logs_t.c.rating != 1, 1), else_=0)

    def day_totals(self, where) -> dict[int, tuple[int, int]]:
        """study day -> (reviews, answer ms): one GROUP BY over the covering (user, study_day, ...) index."""
        query = (
            select(logs_t.c.study_day, func.count(), func.coalesce(func.sum(logs_t.c.duration_ms), 0))
            .where(where)
            .group_by(logs_t.c.study_day)
        )
        return {int(day): (int(n), int(ms or 0)) for day, n, ms in self.conn.execute(query)}

    def summary_day_totals(self, user_id: int, since_day: int | None) -> dict[int, tuple[int, int]]:
        """study day -> (reviews, answer ms) from the totals the store keeps per study day (a row per day)."""
        query = select(days_t.c.study_day, days_t.c.reviews, days_t.c.duration_ms).where(
            days_t.c.user_id == user_id, days_t.c.reviews > 0)
        if since_day is not None:
            query = query.where(days_t.c.study_day >= since_day)
        return {int(day): (int(n), int(ms or 0)) for day, n, ms in self.conn.execute(query)}

    def first_of_day_per_card(self, where) -> dict[int, tuple[int, int]]:
        """card -> (first-of-day reviews, of which passed): the first-of-day rows only, grouped by card in the
        order of the (user, first_of_day, card, ...) index — no sort, no per-review row in Python."""
        query = (
            select(logs_t.c.card_id, func.count(), func.sum(self.passed()))
            .where(where, logs_t.c.first_of_day == true())
            .group_by(logs_t.c.card_id)
        )
        return {int(card): (int(n), int(p or 0)) for card, n, p in self.conn.execute(query)}

    # -- the report ----------------------------------------------------------------------------------------

    def run(self, *, user: str | None, preferred: str | None, filters: Filters, tz_name: str,
            day_source: str, with_cards: bool = True) -> ReportData:
        user_id, user = self.resolve_user(user, preferred)
        since_at = self.clock.start_of(filters.since) if filters.since else None
        since_day = (filters.since - EPOCH_DAY).days if filters.since else None

        with _Background(self) as background:
            # The whole log's figures are summaries the store keeps (study_day_totals; card_states' retention
            # counters, read with the card rows). Only a section or --since needs the log itself. With an
            # Engine, the SQL-bound queries (the database works without the GIL) run on their own connections
            # while this thread reads the card rows and computes the per-card figures over their columns.
            last_ratings = background.submit(lambda comp: comp.last_ratings(user_id)) if with_cards else None
            table = self.card_table(user_id)
            scope = self.scope(table, filters.section)
            card_ids = None if filters.section is None else scope.db_id.tolist()
            where = self.log_filter(user_id, card_ids, since_day)
            if filters.section is None:
                day_totals = background.submit(lambda comp: comp.summary_day_totals(user_id, since_day))
            else:
                day_totals = background.submit(lambda comp: comp.day_totals(where))
            firsts = (background.submit(lambda comp: comp.first_of_day_per_card(where))
                      if since_day is not None else None)
            r = scope.retrievability(self.decay, self.now)
            weakest, most_lapsed = scope.weakest(r, TOP_CARDS), scope.most_lapsed(r, TOP_CARDS)
            if last_ratings is None:
                listed = [int(scope.db_id[i]) for i in {*weakest, *most_lapsed}]
                last_ratings = self.last_ratings(user_id, listed) if listed else {}
            else:
                last_ratings = last_ratings.result()
            cards = self.card_figures(scope, range(len(scope)), r, last_ratings) if with_cards else None
            per_day_totals = day_totals.result()
            if firsts is not None:
                sections = dict(zip(table.db_id.tolist(), (table.sections[c] for c in table.section_code.tolist()),
                                    strict=True))
                per_section = [(sections.get(card_id, ""), n, passed) for card_id, (n, passed) in
                               firsts.result().items()]
            else:
                per_section = self.stored_retention(scope)
        per_day = {day: n for day, (n, _ms) in per_day_totals.items()}
        reviews = sum(per_day.values())
        review_ms = sum(ms for _n, ms in per_day_totals.values())
        retention = self.retention(per_section)
        return ReportData(
            generated_at=self.now,
            user=user,
            filters=filters,
            timezone=tz_name,
            day_start_hour=self.clock.day_start_hour,
            day_start_source=day_source,
            totals=self.totals(scope, reviews, review_ms, per_day, user_id, since_at, filters.section is not None),
            calendar=self.calendar(per_day),
            retention=retention,
            forecast=self.forecast(scope),
            weakest=self.listed(weakest, cards, scope, r, last_ratings),
            most_lapses=self.listed(most_lapsed, cards, scope, r, last_ratings),
            quizzes=self.quizzes(user_id, since_at),
            mastery=self.mastery(scope, r, retention),
            cards=cards,
            cohort=self.cohort(scope, card_ids, since_at) if filters.cohort else None,
        )

    def resolve_user(self, name: str | None, preferred: str | None) -> tuple[int, str]:
        """--user NAME (must exist); else the store's user (the login name) if it has progress, else the only
        user of the database."""
        rows = self.conn.execute(select(users_t.c.id, users_t.c.name).order_by(users_t.c.name)).all()
        if not rows:
            raise InputError("this database has no progress yet: study some cards first (`drill study`)")
        by_name = {row.name: row.id for row in rows}
        if name is not None:
            if name in by_name:
                return by_name[name], name
            known = ", ".join(row.name for row in rows[:20])
            raise InputError(f"--user {name!r}: no such user in this database (users: {known})")
        wanted = preferred or _login_name()
        if wanted in by_name:
            return by_name[wanted], wanted
        if len(rows) == 1:
            return rows[0].id, rows[0].name
        known = ", ".join(row.name for row in rows[:20])
        raise InputError(f"no progress for {wanted!r} in this database: choose one with --user (users: {known})")

    def timestamp_column(self, column):
        """A timestamp column fetched cheaply: SQLite's stored text (parsed by numpy in
        ``card_table.timestamps`` / ``epoch_seconds``), else as is."""
        return type_coerce(column, String) if self.dialect == "sqlite" else column

    def plain_rows(self, query) -> list[tuple]:
        """All rows of ``query`` as plain tuples. On SQLite straight from the driver's cursor (the statement
        compiled by SQLAlchemy, its integer parameters inlined): building a Row per card costs more than the
        query."""
        if self.dialect != "sqlite":
            return self.conn.execute(query).fetchall()
        sql = str(query.compile(dialect=self.conn.dialect, compile_kwargs={"literal_binds": True}))
        return self.conn.connection.driver_connection.execute(sql).fetchall()

    def card_table(self, user_id: int) -> CardTable:
        """Every card with the user's state of it, in the collection's order, as columns."""
        joined = cards_t.outerjoin(
            states_t, and_(states_t.c.card_id == cards_t.c.id, states_t.c.user_id == user_id)
        )
        query = select(
            cards_t.c.id, cards_t.c.content_id, cards_t.c.section, type_coerce(cards_t.c.retired, Integer),
            states_t.c.state, states_t.c.stability, states_t.c.difficulty, self.timestamp_column(states_t.c.due),
            self.timestamp_column(states_t.c.last_review), func.coalesce(states_t.c.reps, 0),
            func.coalesce(states_t.c.lapses, 0),
            type_coerce(states_t.c.suspended, Integer),  # (no per-row bool processing)
            func.coalesce(states_t.c.first_reviews, 0), func.coalesce(states_t.c.first_passes, 0),
        ).select_from(joined).order_by(cards_t.c.position, cards_t.c.id)
        return CardTable.from_rows(self.plain_rows(query))

    def scope(self, table: CardTable, section: str | None) -> CardTable:
        if section is None:
            return table
        chosen = table.where(table.in_sections(lambda card_section: in_section(card_section, section)))
        if not len(chosen):
            known = sorted({s for s in table.sections if s}, key=section_key)
            raise InputError(f"--section {section!r}: no cards in that section (sections: {', '.join(known)})")
        return chosen

    def questions(self) -> dict[str, str]:
        cards = getattr(self.library, "cards", None) or {}
        return {cid: card.question for cid, card in cards.items()}

    def card_figures(self, scope: CardTable, indexes, r, last_ratings: dict[int, int]) -> list[CardFigure]:
        return scope.figures(indexes, r, self.questions(), last_ratings)

    def listed(self, indexes: list[int], cards: list[CardFigure] | None, scope: CardTable, r,
               last_ratings: dict[int, int]) -> list[CardFigure]:
        """The figures of a top ten: the export's own objects when every card was built, else built here."""
        if cards is not None:
            return [cards[i] for i in indexes]
        return self.card_figures(scope, indexes, r, last_ratings)

    def stored_retention(self, scope: CardTable) -> list[tuple[str, int, int]]:
        """(section, first-of-day reviews, passed) per section, from the counters the store keeps per card."""
        graded = scope.first_reviews > 0
        cards = scope.per_section(graded)
        firsts = scope.per_section(graded, scope.first_reviews)
        passes = scope.per_section(graded, scope.first_passes)
        return [(section, int(firsts[code]), int(passes[code]))
                for code, section in enumerate(scope.sections) if cards[code]]

    def last_ratings(self, user_id: int, card_ids: list[int] | None = None) -> dict[int, int]:
        """Each card's latest grade (of ``card_ids``, or all): the log row at the card's last_review (an index
        look-up per card)."""
        query = (
            select(logs_t.c.card_id, logs_t.c.rating, logs_t.c.id)
            .select_from(
                logs_t.join(
                    states_t,
                    and_(
                        states_t.c.user_id == logs_t.c.user_id,
                        states_t.c.card_id == logs_t.c.card_id,
                        states_t.c.last_review == logs_t.c.reviewed_at,
                    ),
                )
            )
            .where(states_t.c.user_id == user_id, logs_t.c.user_id == user_id)
        )
        if card_ids is not None:
            query = query.where(states_t.c.card_id.in_(card_ids))
        latest: dict[int, tuple[int, int]] = {}
        for card_id, rating, log_id in self.conn.execute(query):
            if card_id not in latest or log_id > latest[card_id][0]:
                latest[card_id] = (log_id, rating)
        return {card_id: rating for card_id, (_, rating) in latest.items()}

    def totals(self, scope: CardTable, reviews, review_ms, per_day, user_id, since_at,
               section_filtered: bool) -> Totals:
        review_seconds = review_ms / 1000
        session_seconds = None if section_filtered else self.session_seconds(user_id, since_at)
        return Totals(
            cards=len(scope),
            by_state=scope.by_state(),
            reviews=reviews,
            review_seconds=review_seconds,
            session_seconds=session_seconds,
            study_seconds=max(review_seconds, session_seconds or 0.0),
            days_studied=len(per_day),
            current_streak=self.streak(set(per_day)),
        )

    def streak(self, days: set[int]) -> int:
        today = self.clock.day_number(self.now)
        day = today if today in days else today - 1
        count = 0
        while day in days:
            count += 1
            day -= 1
        return count

    def session_seconds(self, user_id: int, since_at: datetime | None) -> float:
        query = select(sessions_t.c.started_at, sessions_t.c.ended_at).where(
            sessions_t.c.user_id == user_id, sessions_t.c.ended_at.is_not(None)
        )
        if since_at is not None:
            query = query.where(sessions_t.c.started_at >= since_at)
        total = 0.0
        for started, ended in self.conn.execute(query):
            total += max(0.0, (utc(ended) - utc(started)).total_seconds())
        return total

    def calendar(self, per_day: dict[int, int]) -> Calendar:
        today = self.clock.day_of(self.now)
        start = today - timedelta(days=today.weekday()) - timedelta(weeks=CALENDAR_WEEKS - 1)
        days = [DayCount(day, per_day.get((day - EPOCH_DAY).days, 0))
                for day in (start + timedelta(days=i) for i in range((today - start).days + 1))]
        return Calendar(start=start, end=today, days=days, max_reviews=max((d.reviews for d in days), default=0))

    def retention(self, per_card: list[tuple[str, int, int]]) -> Retention:
        """From (section, first-of-day reviews, passed) per card."""
        sums: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for section, firsts, passes in per_card:
            total = sums[section]
            total[0] += firsts
            total[1] += passes
        by_section = [SectionRetention(s, _retention(*sums[s])) for s in sorted(sums, key=section_key)]
        overall = _retention(sum(v[0] for v in sums.values()), sum(v[1] for v in sums.values()))
        return Retention(overall=overall, by_section=by_section)

    def forecast(self, scope: CardTable) -> Forecast:
        today = self.clock.day_of(self.now)
        starts = [self.clock.start_of(today + timedelta(days=i)).timestamp() for i in range(FORECAST_DAYS + 1)]
        overdue, counts = scope.due_counts(starts)
        return Forecast(overdue=overdue, days=[ForecastDay(today + timedelta(days=i), n)
                                               for i, n in enumerate(counts)])

    def quizzes(self, user_id: int, since_at: datetime | None) -> list[QuizPoint]:
        query = select(quiz_t.c.started_at, quiz_t.c.settings, quiz_t.c.score, quiz_t.c.total).where(
            quiz_t.c.user_id == user_id
        )
        if since_at is not None:
            query = query.where(quiz_t.c.started_at >= since_at)
        points = []
        for started, settings, score, total in self.conn.execute(query.order_by(quiz_t.c.started_at, quiz_t.c.id)):
            points.append(QuizPoint(
                started_at=utc(started),
                quiz=_quiz_label(settings),
                correct=int(score or 0),
                total=int(total or 0),
                percent=(score / total) if total else None,
            ))
        return points

    def mastery(self, scope: CardTable, r, retention: Retention) -> list[SectionMastery]:
        counts = {name: column.tolist() for name, column in scope.mastery_counts(r).items()}
        rates = {item.section: item.retention.rate for item in retention.by_section}
        return [
            SectionMastery(
                section=section, cards=int(counts["cards"][code]), new=int(counts["new"][code]),
                learning=int(counts["learning"][code]), review=int(counts["review"][code]),
                mastered=int(counts["mastered"][code]), suspended=int(counts["out"][code]),
                mean_retrievability=(counts["sum_r"][code] / counts["n_r"][code]) if counts["n_r"][code] else None,
                retention=rates.get(section),
                mastery=(counts["mastered"][code] / counts["active"][code]) if counts["active"][code] else 0.0,
            )
            for code, section in sorted(enumerate(scope.sections), key=lambda item: section_key(item[1]))
            if counts["cards"][code]
        ]

    # -- cohort --------------------------------------------------------------------------------------------

    def cohort(self, scope: CardTable, card_ids: list[int] | None, since_at: datetime | None) -> Cohort:
        users = {r.id: r.name for r in self.conn.execute(select(users_t.c.id, users_t.c.name))}
        # db id -> (content id, section, retired) of the cards in scope
        in_scope = {db_id: _ScopeCard(cid, scope.sections[code], retired) for db_id, cid, code, retired in zip(
            scope.db_id.tolist(), scope.content_id.tolist(), scope.section_code.tolist(), scope.retired.tolist(),
            strict=True)}
        active_cards = int(len(scope) - scope.retired.sum())

        seen: dict[int, int] = defaultdict(int)
        mastered: dict[int, int] = defaultdict(int)
        state_query = select(
            states_t.c.user_id, states_t.c.card_id, states_t.c.state, states_t.c.stability, states_t.c.suspended
        )
        if card_ids is not None:
            state_query = state_query.where(states_t.c.card_id.in_(card_ids))
        for uid, cid, state, stability, suspended in self.conn.execute(state_query):
            card = in_scope.get(cid)
            if card is None or (state or "new") == "new":
                continue
            seen[uid] += 1
            if not card.retired and not suspended and state == "review" and (stability or 0) >= MASTERED_STABILITY_DAYS:
                mastered[uid] += 1

        since_day = self.clock.day_number(since_at) if since_at is not None else None
        where = self.log_filter(list(users), card_ids, since_day)
        per_user_card = self.first_of_day_by_user_card(where)
        reviews: dict[int, int] = defaultdict(int)
        user_ret: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        card_ret: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])  # users, firsts, fails
        for uid, cid, n, firsts, passes in per_user_card:
            reviews[uid] += n
            user_ret[uid][0] += firsts
            user_ret[uid][1] += passes
            card_ret[cid][0] += 1
            card_ret[cid][1] += firsts
            card_ret[cid][2] += firsts - passes

        ranked = sorted(
            users,
            key=lambda uid: (-(mastered[uid] / active_cards if active_cards else 0), -seen[uid], -reviews[uid],
                             users[uid]),
        )
        cohort_users = [
            CohortUser(
                rank=i + 1, user=users[uid], cards_seen=seen[uid], mastered=mastered[uid], reviews=reviews[uid],
                retention=_retention(*user_ret[uid]).rate if uid in user_ret else None,
                progress=(mastered[uid] / active_cards) if active_cards else 0.0,
            )
            for i, uid in enumerate(ranked)
        ]
        texts = self.questions()
        questions = []
        for cid, (n_users, firsts, fails) in card_ret.items():
            card = in_scope.get(cid)
            if card is None:
                continue
            questions.append(QuestionFailure(
                card=card.content_id, section=card.section, question=texts.get(card.content_id, ""),
                users=n_users, reviews=firsts, failures=fails, failure_rate=(fails / firsts) if firsts else None,
            ))
        questions.sort(key=lambda q: (-(q.failure_rate or 0), -q.failures, section_key(q.section), q.card))
        return Cohort(users=cohort_users, questions=questions)

    def first_of_day_by_user_card(self, where) -> list[tuple[int, int, int, int, int]]:
        """(user, card, reviews, first-of-day reviews, first-of-day passes) over the whole cohort."""
        first = logs_t.c.first_of_day == true()
        query = (
            select(logs_t.c.user_id, logs_t.c.card_id, func.count(), func.sum(case((first, 1), else_=0)),
                   func.sum(case((and_(first, logs_t.c.rating != 1), 1), else_=0)))
            .where(where)
            .group_by(logs_t.c.user_id, logs_t.c.card_id)
        )
        return [(int(u), int(c), int(n), int(f or 0), int(p or 0)) for u, c, n, f, p in self.conn.execute(query)]


@dataclass(frozen=True, slots=True)
class _ScopeCard:
    content_id: str
    section: str
    retired: bool


def _retention(reviews: int, passed: int) -> RetentionFigure:
    return RetentionFigure(reviews=reviews, passed=passed, rate=(passed / reviews) if reviews else None)


def _quiz_label(settings: Any) -> str:
    if isinstance(settings, dict):
        for key in ("quiz", "quiz_id", "name", "mode", "source"):
            value = settings.get(key)
            if isinstance(value, str) and value:
                return value
    return "quiz"


def _login_name() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name on this system
        return "learner"
