"""What ``drill optimize`` reads and writes: the learner's grades one card at a time, and the learner's own
FSRS weights (``users.fsrs_parameters``), which the store's scheduler uses in place of the config's."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from sqlalchemy import func, select, update

from drill.store.tables import logs_t, users_t

if TYPE_CHECKING:  # pragma: no cover
    from drill.store.api import Store


def grade_count(store: Store) -> int:
    with store.transaction() as conn:
        return conn.execute(
            select(func.count()).select_from(logs_t).where(logs_t.c.user_id == store.user_id)
        ).scalar_one()


def history_by_card(store: Store) -> Iterator[list[tuple[int, int, str, int]]]:
    """Each card's grades in review order, one list per card: (rating, study day, state before, order key).

    The order key is the grade's place among all this user's grades (by time, then row id): one scan of the
    (user_id, reviewed_at) index in that order, no sort and no datetime built per row. Cards come in the order
    of their first grade. Until the scan ends every card's grades are held, so they are held packed — two
    machine integers a grade in one array per card (16 bytes; a tuple of four Python ints was ~130) — and
    each card's list is unpacked only as it is handed over."""
    from array import array

    query = (
        select(logs_t.c.card_id, logs_t.c.rating, logs_t.c.study_day, logs_t.c.state_before)
        .where(logs_t.c.user_id == store.user_id)
        .order_by(logs_t.c.reviewed_at, logs_t.c.id)
    )
    by_card: dict[int, array] = {}
    codes: dict[str, int] = {}  # state -> 0..7, packed beside the rating
    names: list[str] = []
    with store.transaction() as conn:
        for place, (card_id, rating, day, state) in enumerate(conn.execute(query)):
            code = codes.get(state)
            if code is None:
                if len(names) == 8:
                    raise ValueError(f"more than 8 review states in the log: {[*names, state]}")
                code = codes[state] = len(names)
                names.append(state)
            packed = by_card.get(card_id)
            if packed is None:
                packed = by_card[card_id] = array("q")
            packed.append(place)
            packed.append(day * 64 + code * 8 + rating)  # rating 1-4, code < 8: day is packed >> 6
    while by_card:  # hand each card over and let it go
        packed = by_card.pop(next(iter(by_card)))
        yield [
            (grade & 7, grade >> 6, names[(grade >> 3) & 7], place)
            for place, grade in zip(packed[0::2], packed[1::2], strict=True)
        ]


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
