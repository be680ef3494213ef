"""The store's tables as SQLAlchemy Core objects, named once for every module that queries them (the store's
own modules and the reports), and the one statement helper they share."""

from __future__ import annotations

from sqlalchemy import insert

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
    StudyDayTotal,
    StudySession,
    User,
)

users_t = User.__table__
cards_t = Card.__table__
states_t = CardState.__table__
logs_t = ReviewLog.__table__
days_t = StudyDayTotal.__table__
sessions_t = StudySession.__table__
attempts_t = QuizAttempt.__table__
answers_t = QuizAnswer.__table__
plans_t = InterviewPlan.__table__
code_attempts_t = CodeAttempt.__table__
solution_views_t = CodeSolutionView.__table__
interview_sessions_t = InterviewSession.__table__
interview_answers_t = InterviewAnswer.__table__


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
