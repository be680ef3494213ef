"""What ``drill optimize`` reads and writes: the learner's grades one card at a time, and the learner's own
FSRS weights (``users.fsrs_parameters``), which the store's scheduler uses in place of the config's."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from sqlalchemy import String, cast, func, select, update

from drill.store.tables import logs_t, users_t

if TYPE_CHECKING:  # pragma: no cover
    from drill.store.api import Store


def grade_count(store: Store) -> int:
    with store.transaction() as conn:
        return conn.execute(
            select(func.count()).select_from(logs_t).where(logs_t.c.user_id == store.user_id)
        ).scalar_one()


def history_by_card(store: Store) -> Iterator[list[tuple[int, int, str, object]]]:
    """Each card's grades in review order, one list per card: (rating, study day, state before, order key).

    The order key sorts grades of every card in the order they were given: the stored timestamp as the
    database compares it (SQLite's fixed-width text, PostgreSQL's epoch), and the row id after it; no
    datetime is built per row. Rows stream: one card's grades are held at a time."""
    when = (
        cast(logs_t.c.reviewed_at, String) if store.is_sqlite else func.extract("epoch", logs_t.c.reviewed_at)
    )
    query = (
        select(
            logs_t.c.card_id, logs_t.c.rating, logs_t.c.study_day, logs_t.c.state_before, when, logs_t.c.id
        )
        .where(logs_t.c.user_id == store.user_id)
        .order_by(logs_t.c.card_id, logs_t.c.reviewed_at, logs_t.c.id)
    )
    with store.transaction() as conn:
        card = None
        grades: list[tuple[int, int, str, object]] = []
        for card_id, rating, day, state, at, row_id in conn.execute(query):
            if card_id != card:
                if grades:
                    yield grades
                card, grades = card_id, []
            grades.append((rating, day, state, (at, row_id)))
        if grades:
            yield grades


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
