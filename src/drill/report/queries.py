"""The report's reads: every SQL statement a report runs, over one Connection.

The review log can hold millions of rows, so the report never reads it row by row. Store.grade records what
the report needs as it writes (drill.store.review_days): each log row's study day and whether it was the
card's first grade that day, the user's reviews and answer time per study day (``study_day_totals``) and each
card's first-of-day grades and passes (``card_states``). So the whole log's figures read a row per day and a
row per card; a ``--section`` or ``--since`` report runs indexed aggregates over the log's study_day /
first_of_day columns instead.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, String, and_, case, cast, func, select, true, type_coerce
from sqlalchemy.engine import Connection

from drill.errors import InputError
from drill.report.card_table import CardTable, utc
from drill.report.data import Coding, CodingTask, MistakeCount, QuizPoint
from drill.store.tables import (
    attempts_t,
    cards_t,
    code_attempts_t,
    days_t,
    logs_t,
    sessions_t,
    states_t,
    users_t,
)

CARD_BATCH = 20_000  # card rows fetched (and made columns) at a time


class Queries:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.dialect = conn.dialect.name

    # -- users -------------------------------------------------------------------------------------------

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
        from drill.store.opening import default_user  # the store's one rule for the login name

        wanted = preferred or default_user()
        if wanted in by_name:
            return by_name[wanted], wanted
        if len(rows) == 1:
            return rows[0].id, rows[0].name
        known = ", ".join(row.name for row in rows[:20])
        raise InputError(
            f"no progress for {wanted!r} in this database: choose one with --user (users: {known})"
        )

    def users(self) -> dict[int, str]:
        return {row.id: row.name for row in self.conn.execute(select(users_t.c.id, users_t.c.name))}

    # -- cards -------------------------------------------------------------------------------------------

    def card_table(self, user_id: int) -> CardTable:
        """Every card with the user's state of it, in the collection's order, as columns."""
        joined = cards_t.outerjoin(
            states_t, and_(states_t.c.card_id == cards_t.c.id, states_t.c.user_id == user_id)
        )
        query = (
            select(
                cards_t.c.id,
                cards_t.c.content_id,
                cards_t.c.section,
                type_coerce(cards_t.c.retired, Integer),
                states_t.c.state,
                states_t.c.stability,
                states_t.c.difficulty,
                self._timestamp(states_t.c.due),
                self._timestamp(states_t.c.last_review),
                func.coalesce(states_t.c.reps, 0),
                func.coalesce(states_t.c.lapses, 0),
                type_coerce(states_t.c.suspended, Integer),  # (no per-row bool processing)
                func.coalesce(states_t.c.first_reviews, 0),
                func.coalesce(states_t.c.first_passes, 0),
                func.coalesce(states_t.c.flag, 0),
                func.coalesce(cast(states_t.c.marked, Integer), 0),
            )
            .select_from(joined)
            .order_by(cards_t.c.position, cards_t.c.id)
            .execution_options(yield_per=CARD_BATCH)  # streamed (a server-side cursor on PostgreSQL)
        )
        return CardTable.from_batches(self.conn.execute(query).partitions())

    def _timestamp(self, column):
        """A timestamp column fetched cheaply: SQLite's stored text (parsed at once by numpy in
        drill.report.card_table), else as is."""
        return type_coerce(column, String) if self.dialect == "sqlite" else column

    def card_states(self, card_ids: list[int] | None):
        """(user, card, state, stability, suspended) of every user's cards (of ``card_ids``, or all)."""
        query = select(
            states_t.c.user_id,
            states_t.c.card_id,
            states_t.c.state,
            states_t.c.stability,
            states_t.c.suspended,
        )
        if card_ids is not None:
            query = query.where(states_t.c.card_id.in_(card_ids))
        return self.conn.execute(query)

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

    # -- the review log ----------------------------------------------------------------------------------

    @staticmethod
    def log_filter(user_ids: int | list[int], card_ids: list[int] | None, since_day: int | None):
        conditions = [
            logs_t.c.user_id.in_(user_ids) if isinstance(user_ids, list) else logs_t.c.user_id == user_ids
        ]
        if since_day is not None:
            conditions.append(logs_t.c.study_day >= since_day)
        if card_ids is not None:
            conditions.append(logs_t.c.card_id.in_(card_ids))
        return and_(*conditions)

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
            days_t.c.user_id == user_id, days_t.c.reviews > 0
        )
        if since_day is not None:
            query = query.where(days_t.c.study_day >= since_day)
        return {int(day): (int(n), int(ms or 0)) for day, n, ms in self.conn.execute(query)}

    def first_of_day_per_section(self, where) -> list[tuple[str, int, int]]:
        """(section, first-of-day reviews, of which passed) from the first-of-day rows only, added up by SQL per
        section of the cards reviewed: a row per section, not per card (a month of the 100k-card benchmark's log
        is 86k cards: 0.14 s CPU fetched and mapped to sections in Python, 0.03 s grouped here)."""
        query = (
            select(cards_t.c.section, func.count(), func.sum(_passed()))
            .select_from(logs_t.join(cards_t, cards_t.c.id == logs_t.c.card_id))
            .where(where, logs_t.c.first_of_day == true())
            .group_by(cards_t.c.section)
        )
        return [(section or "", int(n), int(p or 0)) for section, n, p in self.conn.execute(query)]

    def first_of_day_by_user_card(self, where) -> list[tuple[int, int, int, int, int]]:
        """(user, card, reviews, first-of-day reviews, first-of-day passes) over the whole cohort."""
        first = logs_t.c.first_of_day == true()
        query = (
            select(
                logs_t.c.user_id,
                logs_t.c.card_id,
                func.count(),
                func.sum(case((first, 1), else_=0)),
                func.sum(case((and_(first, logs_t.c.rating != 1), 1), else_=0)),
            )
            .where(where)
            .group_by(logs_t.c.user_id, logs_t.c.card_id)
        )
        return [
            (int(u), int(c), int(n), int(f or 0), int(p or 0)) for u, c, n, f, p in self.conn.execute(query)
        ]

    # -- sessions and quizzes ----------------------------------------------------------------------------

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

    def quizzes(self, user_id: int, since_at: datetime | None) -> list[QuizPoint]:
        quiz = attempts_t.c
        query = select(quiz.started_at, quiz.settings, quiz.score, quiz.total).where(quiz.user_id == user_id)
        if since_at is not None:
            query = query.where(quiz.started_at >= since_at)
        points = []
        for started, settings, score, total in self.conn.execute(query.order_by(quiz.started_at, quiz.id)):
            points.append(
                QuizPoint(
                    started_at=utc(started),
                    quiz=_quiz_label(settings),
                    correct=int(score or 0),
                    total=int(total or 0),
                    percent=(score / total) if total else None,
                )
            )
        return points


def coding_figures(conn: Connection, user_id: int, since_at: datetime | None) -> Coding:
    """`drill code` runs: one row per run (a learner makes tens, not thousands), added up here."""
    t = code_attempts_t.c
    query = select(t.task, t.all_passed, t.mistakes, t.elapsed_ms, t.writing_ms).where(t.user_id == user_id)
    if since_at is not None:
        query = query.where(t.ran_at >= since_at)
    tried, passed, runs, ms, counts = set(), set(), 0, 0, Counter()
    per_task: dict[str, list] = {}  # task -> [runs, passed, ms, Counter of mistakes]
    for task, all_passed, mistakes, elapsed_ms, writing_ms in conn.execute(query):
        runs += 1
        tried.add(task)
        if all_passed:
            passed.add(task)
        spent = int(elapsed_ms or 0) + int(writing_ms or 0)
        ms += spent
        diagnosed = {str(m) for m in mistakes or ()}
        counts.update(diagnosed)
        figures = per_task.setdefault(task, [0, False, 0, Counter()])
        figures[0] += 1
        figures[1] = figures[1] or bool(all_passed)
        figures[2] += spent
        figures[3].update(diagnosed)
    top = [MistakeCount(m, n) for m, n in _most_often(counts)[:5]]
    tasks = [
        CodingTask(task, n, ok, spent / 1000.0, [m for m, _ in _most_often(found)])
        for task, (n, ok, spent, found) in sorted(per_task.items())
    ]
    return Coding(len(tried), len(passed), runs, ms / 1000.0, top, tasks)


def _most_often(counts: Counter) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def _passed():
    """1 for a grade other than Again."""
    return case((logs_t.c.rating != 1, 1), else_=0)


def _quiz_label(settings: Any) -> str:
    if isinstance(settings, dict):
        for key in ("quiz", "quiz_id", "name", "mode", "source"):
            value = settings.get(key)
            if isinstance(value, str) and value:
                return value
    return "quiz"
