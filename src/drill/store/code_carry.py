"""Progress made on the old ``drill-code`` pack carried to the main deck's ``code-<task>`` cards.

Before the chapter content had code cards, `drill code` kept each task as a card ``code-<task>`` of a pack of
its own, ``drill-code`` (``CODE_PACK``; still used for a content with no code cards). Now the content has them,
so a learner who practised under the old pack would see the tasks as new. ``carry_code_progress`` moves the
user's progress from each old card to the main-deck card of the same content id.

Why a store step and not an Alembic migration: the main deck's cards are made by ``sync_content`` from the
content the learner studies (its pack id is the content's — ``transformer-ch7`` or a ``--content`` pack).
Migrations run when the store opens, before any content is read; a database last used by the old drill has
no main-deck ``code-<task>`` card yet, so a migration would have nowhere to move the progress without
guessing the content's pack. The step runs inside ``sync_content``'s write transaction, right after the
main-deck cards and their state rows are made: creating the cards and carrying the progress commit together
or not at all (a kill leaves the old cards as they were, and the next sync does it), and a sync that finds
nothing left to carry changes nothing (idempotent).

What moves, per user (each user's own sync moves their progress; cards are shared by the users of a database):

- every review log of the old card is re-pointed to the main card (the rows themselves unchanged: their
  before/after states are what the scheduler saw then);
- the card state. When the main card has no history of its own (no review log, still ``new``) it takes the old
  card's state whole. When both have history, the logs of both stay, and the state is the one whose last
  review is later (the most recent measure of the learner's memory of the task; on a tie the main card's):
  its phase, step, stability, difficulty, due, last review and FSRS due. ``reps`` and ``lapses`` are the
  sums; ``suspended`` and ``leech`` hold if either card's did; ``buried_until`` is the later one. The
  first-of-study-day flags of the merged logs are recomputed in time order (a grade is the card's first of
  its study day when no earlier grade of either card fell on that day) and ``first_reviews`` /
  ``first_passes`` counted from them, as ``review_days.rebuild_summaries`` counts them.
- code attempts and solution views need no move: they are kept per task name, not per card, so the main
  card's history already shows them.

The user's state row of the old card is then deleted. An old card no user has any history on is deleted (so
reports do not list a duplicate of the task); one that another user still has history on is retired (hidden
from study) until that user's sync carries it.
"""

from __future__ import annotations

from sqlalchemy import Connection, delete, false, func, select, update

from drill.store.tables import cards_t, logs_t, states_t

CODE_PACK = "drill-code"  # the code tasks' own pack, made when the content has no code cards
CODE_CARD_PREFIX = "code-"  # a code task's card: code-<task> (in CODE_PACK and in the main deck alike)

# The state columns that schedule the card: taken whole from the state whose last review is later.
SCHEDULE = ("state", "step", "stability", "difficulty", "due", "last_review", "fsrs_due")


def code_card_id(task: str) -> str:
    return f"{CODE_CARD_PREFIX}{task}"


def carry_code_progress(conn: Connection, user_id: int, packs: tuple[str, ...]) -> int:
    """Carry ``user_id``'s progress on old ``CODE_PACK`` cards to the cards of the same id in ``packs`` (the
    packs being synced); returns how many cards had progress to carry. Runs in the caller's transaction."""
    if not packs or CODE_PACK in packs:  # the old pack itself is being studied: nothing is superseded
        return 0
    old = {
        row.content_id: row.id
        for row in conn.execute(
            select(cards_t.c.id, cards_t.c.content_id).where(
                cards_t.c.pack == CODE_PACK, cards_t.c.content_id.startswith(CODE_CARD_PREFIX)
            )
        )
    }
    if not old:
        return 0
    targets: dict[str, list[int]] = {}
    for row in conn.execute(
        select(cards_t.c.id, cards_t.c.content_id).where(
            cards_t.c.pack.in_(packs), cards_t.c.content_id.in_(sorted(old)), cards_t.c.retired == false()
        )
    ):
        targets.setdefault(row.content_id, []).append(row.id)
    carried = 0
    for content_id, found in sorted(targets.items()):
        if len(found) != 1:  # the id is in two studied packs: which one is the task's is not ours to guess
            continue
        carried += _carry(conn, user_id, old[content_id], found[0])
        _tidy(conn, old[content_id])
    return carried


def _state(conn: Connection, user_id: int, card_id: int):
    return conn.execute(
        select(states_t).where(states_t.c.user_id == user_id, states_t.c.card_id == card_id)
    ).first()


def _log_count(conn: Connection, user_id: int, card_id: int) -> int:
    return conn.execute(
        select(func.count()).where(logs_t.c.user_id == user_id, logs_t.c.card_id == card_id)
    ).scalar_one()


def _has_history(state, logs: int) -> bool:
    return logs > 0 or (state is not None and state.state != "new")


def _carry(conn: Connection, user_id: int, old_id: int, new_id: int) -> int:
    old_state = _state(conn, user_id, old_id)
    if not _has_history(old_state, _log_count(conn, user_id, old_id)):
        _drop_state(conn, user_id, old_id)
        return 0
    new_state = _state(conn, user_id, new_id)  # sync made it ("new") if the user had none
    if new_state is None:  # not synced for this user: leave everything where it is
        return 0
    new_has = _has_history(new_state, _log_count(conn, user_id, new_id))
    conn.execute(
        update(logs_t).where(logs_t.c.user_id == user_id, logs_t.c.card_id == old_id).values(card_id=new_id)
    )
    if new_has and _later(new_state, old_state):
        winner = new_state
    else:
        winner = old_state
    values = {name: getattr(winner, name) for name in SCHEDULE}
    values["reps"] = old_state.reps + (new_state.reps if new_has else 0)
    values["lapses"] = old_state.lapses + (new_state.lapses if new_has else 0)
    values["suspended"] = bool(old_state.suspended or new_state.suspended)
    values["leech"] = bool(old_state.leech or (new_has and new_state.leech))
    buried = [b for b in (old_state.buried_until, new_state.buried_until) if b is not None]
    values["buried_until"] = max(buried) if buried else None
    values.update(_first_of_day(conn, user_id, new_id))
    conn.execute(
        update(states_t).where(states_t.c.user_id == user_id, states_t.c.card_id == new_id).values(**values)
    )
    _drop_state(conn, user_id, old_id)
    return 1


def _later(new_state, old_state) -> bool:
    """The main card's last review is as late as the old card's or later (None is earliest)."""
    if old_state.last_review is None:
        return True
    return new_state.last_review is not None and new_state.last_review >= old_state.last_review


def _first_of_day(conn: Connection, user_id: int, card_id: int) -> dict[str, int]:
    """Recompute the card's logs' first-of-study-day flags in time order; its first_reviews/first_passes."""
    rows = conn.execute(
        select(logs_t.c.id, logs_t.c.study_day, logs_t.c.rating, logs_t.c.first_of_day)
        .where(logs_t.c.user_id == user_id, logs_t.c.card_id == card_id)
        .order_by(logs_t.c.reviewed_at, logs_t.c.id)
    ).all()
    firsts = passes = 0
    last_day = None
    for row in rows:
        first = last_day is None or row.study_day > last_day
        last_day = row.study_day if last_day is None else max(last_day, row.study_day)
        firsts += first
        passes += first and row.rating != 1
        if bool(row.first_of_day) != first:
            conn.execute(update(logs_t).where(logs_t.c.id == row.id).values(first_of_day=first))
    return {"first_reviews": firsts, "first_passes": passes}


def _drop_state(conn: Connection, user_id: int, card_id: int) -> None:
    conn.execute(delete(states_t).where(states_t.c.user_id == user_id, states_t.c.card_id == card_id))


def _tidy(conn: Connection, old_id: int) -> None:
    """Delete the old card when no user has history on it (their untouched "new" rows go with it); else
    retire it until those users' syncs carry theirs."""
    logs = conn.execute(select(func.count()).where(logs_t.c.card_id == old_id)).scalar_one()
    studied = conn.execute(
        select(func.count()).where(states_t.c.card_id == old_id, states_t.c.state != "new")
    ).scalar_one()
    if logs == 0 and studied == 0:
        conn.execute(delete(states_t).where(states_t.c.card_id == old_id))
        conn.execute(delete(cards_t).where(cards_t.c.id == old_id))
    else:
        conn.execute(update(cards_t).where(cards_t.c.id == old_id).values(retired=True))
        conn.execute(update(states_t).where(states_t.c.card_id == old_id).values(card_retired=True))


__all__ = ["CODE_CARD_PREFIX", "CODE_PACK", "carry_code_progress", "code_card_id"]
