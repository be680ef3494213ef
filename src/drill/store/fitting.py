"""What ``drill optimize`` reads and writes: the learner's grades in the order given, and the learner's own
FSRS weights (``users.fsrs_parameters``), which the store's scheduler uses in place of the config's."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from sqlalchemy import func, select, update

from drill.store.tables import logs_t, users_t

if TYPE_CHECKING:  # pragma: no cover
    from drill.store.api import Store


def grade_count(store: Store) -> int:
    with store.transaction() as conn:
        return conn.execute(
            select(func.count()).select_from(logs_t).where(logs_t.c.user_id == store.user_id)
        ).scalar_one()


def grades_in_order(store: Store) -> Iterator[tuple[int, int, int, str]]:
    """Every grade of this user in the order given (by time, then row id), streamed: (card id, rating, study
    day, state before). One scan of the (user_id, reviewed_at) index in that order, no sort and no datetime
    built per row; nothing is held here, the reader keeps what it needs of each row.

    The query, compiled by the connection's dialect, runs on the driver's cursor of the store's connection
    (in its transaction) and its plain tuples are handed on as the driver makes them: no Row per grade, the
    read's share of SQLAlchemy (at 200k grades ~0.05 s of its 0.37). One row at a time, not fetchmany's
    thousands: a chunk's rows freed together fill Python's free list of tuples, which then holds ~20 arenas
    of the read's memory through the fit (at 2M grades: +20 MB on the fit's peak with chunks of 4096). A
    driver error is raised as SQLAlchemy's would be (DBAPIError), for the store's error messages."""
    from sqlalchemy import exc

    query = (
        select(logs_t.c.card_id, logs_t.c.rating, logs_t.c.study_day, logs_t.c.state_before)
        .where(logs_t.c.user_id == store.user_id)
        .order_by(logs_t.c.reviewed_at, logs_t.c.id)
    )
    with store.transaction() as conn:
        compiled = query.compile(dialect=conn.dialect)
        statement, params = str(compiled), compiled.params
        if conn.dialect.positional:
            params = [params[name] for name in compiled.positiontup or ()]
        base = conn.dialect.loaded_dbapi.Error
        cursor = conn.connection.cursor()
        try:
            cursor.execute(statement, params)
            # one row at a time (see above); DB-API's optional iteration, which sqlite3 and psycopg have
            yield from cast("Iterator[tuple[int, int, int, str]]", cursor)
        except base as err:
            raise exc.DBAPIError.instance(statement, params, err, base, dialect=conn.dialect) from err
        finally:
            cursor.close()


def learner_parameters(store: Store) -> tuple[float, ...] | None:
    with store.transaction() as conn:
        found = conn.execute(
            select(users_t.c.fsrs_parameters).where(users_t.c.id == store.user_id)
        ).scalar_one_or_none()
    return tuple(float(w) for w in found) if found else None


def save_parameters(store: Store, parameters: tuple[float, ...] | None) -> None:
    """Save (None: clear) the learner's weights; the store schedules with them from now on."""
    with store.transaction(write=True) as conn:
        conn.execute(
            update(users_t)
            .where(users_t.c.id == store.user_id)
            .values(fsrs_parameters=list(parameters) if parameters else None)
        )
    if parameters:
        store.config = replace(store.config, parameters=tuple(parameters))
    else:
        from drill.srs import load_config

        store.config = replace(store.config, parameters=load_config().parameters)
