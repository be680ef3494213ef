"""The store's tables (declared in drill.store.models, as SQLAlchemy Core objects) for every module that
queries them (the store's own modules and the reports), and the one statement helper they share."""

from __future__ import annotations

from sqlalchemy import insert

from drill.store.models import (
    answers_t,
    attempts_t,
    cards_t,
    code_attempts_t,
    days_t,
    extras_t,
    interview_answers_t,
    interview_sessions_t,
    logs_t,
    plans_t,
    sessions_t,
    solution_views_t,
    states_t,
    users_t,
)

__all__ = [
    "answers_t",
    "attempts_t",
    "cards_t",
    "code_attempts_t",
    "days_t",
    "extras_t",
    "insert_ignore",
    "interview_answers_t",
    "interview_sessions_t",
    "logs_t",
    "plans_t",
    "sessions_t",
    "solution_views_t",
    "states_t",
    "users_t",
]


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
