"""The store's tables as SQLAlchemy Core objects, named once for every module that queries them (the store's
own modules and the reports), and the one statement helper they share."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, insert

from drill.store.models import (
    Card,
    CardState,
    CodeAttempt,
    CodeSolutionView,
    InterviewAnswer,
    InterviewPlan,
    InterviewSession,
    QuizAnswer,
    QuizAttempt,
    ReviewLog,
    StudyDayExtra,
    StudyDayTotal,
    StudySession,
    User,
)


def _table(model: Any) -> Table:
    """The model's table, typed as the Table it is (mapped classes declare ``__table__`` as a FromClause)."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


users_t = _table(User)
cards_t = _table(Card)
states_t = _table(CardState)
logs_t = _table(ReviewLog)
days_t = _table(StudyDayTotal)
extras_t = _table(StudyDayExtra)
sessions_t = _table(StudySession)
attempts_t = _table(QuizAttempt)
answers_t = _table(QuizAnswer)
plans_t = _table(InterviewPlan)
code_attempts_t = _table(CodeAttempt)
solution_views_t = _table(CodeSolutionView)
interview_sessions_t = _table(InterviewSession)
interview_answers_t = _table(InterviewAnswer)


def insert_ignore(engine_or_conn, table):
    """INSERT that skips rows clashing with a unique key (another drill inserted them first)."""
    name = engine_or_conn.dialect.name
    if name == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table).on_conflict_do_nothing()
    if name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table).on_conflict_do_nothing()
    return insert(table)
