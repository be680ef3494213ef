"""Content sync: bring the cards table in line with the content (``Store.sync_content``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, insert, literal, select, update

from drill.errors import StoreError
from drill.srs import Phase
from drill.srs.mix import new_card_places
from drill.store.code_carry import carry_code_progress
from drill.store.tables import cards_t, insert_ignore, states_t

if TYPE_CHECKING:  # pragma: no cover
    from drill.store.api import Store

COUNTS = ("added", "retired", "restored", "updated")


def content_items(source: Any) -> tuple[list[tuple[str, str, str]], set[str]]:
    """(pack, content id, section) in content order, and the packs being synced, from a
    ``drill.content.Library`` or an iterable of ``(pack, content_id, section)``."""
    cards = getattr(source, "cards", None)
    if isinstance(cards, dict):
        items = [(card.pack, card.id, card.section) for card in cards.values()]
        packs = {pack.id for pack in getattr(source, "packs", [])} | {pack for pack, _, _ in items}
        return items, packs
    items = []
    for entry in source:
        pack, content_id, section = entry
        items.append((str(pack), str(content_id), str(section)))
    return items, {pack for pack, _, _ in items}


def content_kinds(source: Any) -> dict[str, str] | None:
    """Each card's kind (content id -> ``qa``, ``cloze``, ...) from a ``drill.content.Library``; None for an
    iterable of ``(pack, content_id, section)`` (its new cards then come in content order)."""
    cards = getattr(source, "cards", None)
    return {card.id: card.kind for card in cards.values()} if isinstance(cards, dict) else None


def sync_cards(
    store: Store, items: list[tuple[str, str, str]], kinds: dict[str, str] | None = None
) -> dict[str, int]:
    """Write ``items`` (the content of ``store.packs``) to the cards table; see ``Store.sync_content``.
    ``kinds`` (content id -> card kind): the user's new cards are numbered in drill.srs.mix's order
    (``card_states.card_position``, the next-new query's order); without them, in content order."""
    counts = dict.fromkeys(COUNTS, 0)
    if not store.packs:
        return counts
    wanted: dict[tuple[str, str], tuple[str, int]] = {}
    positions: dict[str, int] = {}
    for pack, content_id, section in items:
        key = (pack, content_id)
        if key in wanted:
            raise StoreError(f"card id {content_id!r} appears twice in pack {pack!r}")
        positions[pack] = positions.get(pack, -1) + 1
        wanted[key] = (section, positions[pack])
    if store.readonly:
        # Nothing is written; the cards the table does not hold yet are remembered (one read of the packs'
        # keys) so that a read-only forecast (`drill plan --dry-run`) counts them as the new cards a writing
        # open would add, instead of leaving them out.
        with store.transaction() as conn:
            known = {
                (row.pack, row.content_id)
                for row in conn.execute(
                    select(cards_t.c.pack, cards_t.c.content_id).where(cards_t.c.pack.in_(store.packs))
                )
            }
        store.unsynced = [
            (pack, cid, section, pos)
            for (pack, cid), (section, pos) in wanted.items()
            if (pack, cid) not in known
        ]
        return counts
    now = datetime.now(UTC)
    with store.transaction(write=True) as conn:
        existing = {
            (row.pack, row.content_id): row
            for row in conn.execute(
                select(
                    cards_t.c.id,
                    cards_t.c.pack,
                    cards_t.c.content_id,
                    cards_t.c.section,
                    cards_t.c.position,
                    cards_t.c.retired,
                ).where(cards_t.c.pack.in_(store.packs))
            )
        }
        new_rows = [
            {
                "pack": pack,
                "content_id": cid,
                "section": section,
                "position": pos,
                "retired": False,
                "created_at": now,
            }
            for (pack, cid), (section, pos) in wanted.items()
            if (pack, cid) not in existing
        ]
        if new_rows:
            conn.execute(insert_ignore(conn, cards_t), new_rows)
            counts["added"] = len(new_rows)
        for key, row in existing.items():
            if key not in wanted:
                if not row.retired:
                    conn.execute(update(cards_t).where(cards_t.c.id == row.id).values(retired=True))
                    _copy_retired(conn, row.id, True)
                    counts["retired"] += 1
                continue
            section, pos = wanted[key]
            if row.retired:
                counts["restored"] += 1
            elif row.section == section and row.position == pos:
                continue
            else:
                counts["updated"] += 1
            conn.execute(
                update(cards_t)
                .where(cards_t.c.id == row.id)
                .values(section=section, position=pos, retired=False)
            )
            if row.retired:
                _copy_retired(conn, row.id, False)
        # Every card gets a state row for this user ("new", due NULL): see queue.new_query.
        missing = (
            select(
                literal(store.user_id),
                cards_t.c.id,
                cards_t.c.pack,
                cards_t.c.position,
                cards_t.c.retired,
                literal(Phase.NEW.value),
                literal(0),
                literal(0),
                literal(0),
                literal(False),
                literal(False),
            )
            .where(cards_t.c.pack.in_(store.packs))
            .where(
                ~select(states_t.c.card_id)
                .where(states_t.c.user_id == store.user_id, states_t.c.card_id == cards_t.c.id)
                .exists()
            )
        )
        conn.execute(
            insert(states_t).from_select(
                [
                    "user_id",
                    "card_id",
                    "card_pack",
                    "card_position",
                    "card_retired",
                    "state",
                    "step",
                    "reps",
                    "lapses",
                    "suspended",
                    "leech",
                ],
                missing,
            )
        )
        _number_new_cards(store, conn, new_card_places(items, kinds, store.config))
        # What the user learnt on the old drill-code pack's cards goes to these cards (in this transaction).
        carry_code_progress(conn, store.user_id, store.packs)
    return counts


def _copy_retired(conn: Any, row_id: int, retired: bool) -> None:
    """Every user's state row of card ``row_id`` gets the card's retired flag (the copy
    ix_card_states_pack_review holds, so the due-review count reads no card row)."""
    conn.execute(update(states_t).where(states_t.c.card_id == row_id).values(card_retired=retired))


def _number_new_cards(store: Store, conn: Any, wanted: dict[tuple[str, str], int]) -> None:
    """This user's ``card_states.card_position`` set to ``wanted`` where it differs (the new-card order:
    queue.new_query sorts by it; a changed ``new_order`` or ``new_mix`` renumbers here, at the next sync)."""
    rows = conn.execute(
        select(states_t.c.card_id, cards_t.c.pack, cards_t.c.content_id, states_t.c.card_position)
        .select_from(states_t.join(cards_t, cards_t.c.id == states_t.c.card_id))
        .where(states_t.c.user_id == store.user_id, cards_t.c.pack.in_(store.packs))
    )
    changes = [
        {"row_id": row.card_id, "place": wanted[(row.pack, row.content_id)]}
        for row in rows
        if (row.pack, row.content_id) in wanted and row.card_position != wanted[(row.pack, row.content_id)]
    ]
    if changes:
        conn.execute(
            update(states_t)
            .where(states_t.c.user_id == store.user_id, states_t.c.card_id == bindparam("row_id"))
            .values(card_position=bindparam("place")),
            changes,
        )
