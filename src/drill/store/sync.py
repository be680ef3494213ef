"""Content sync: bring the cards table in line with the content (``Store.sync_content``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, literal, select, update

from drill.errors import StoreError
from drill.srs import Phase
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


def sync_cards(store: Store, items: list[tuple[str, str, str]]) -> dict[str, int]:
    """Write ``items`` (the content of ``store.packs``) to the cards table; see ``Store.sync_content``."""
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
            if row.position != pos:  # every user's copy of the position (queue.new_query's order)
                conn.execute(update(states_t).where(states_t.c.card_id == row.id).values(card_position=pos))
        # Every card gets a state row for this user ("new", due NULL): see queue.new_query.
        missing = (
            select(
                literal(store.user_id),
                cards_t.c.id,
                cards_t.c.pack,
                cards_t.c.position,
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
        # What the user learnt on the old drill-code pack's cards goes to these cards (in this transaction).
        carry_code_progress(conn, store.user_id, store.packs)
    return counts
