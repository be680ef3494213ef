"""The queue reads the studied packs only: card_states' queue indexes lead with the pack after the user
(user_id, card_pack, suspended, due, ...), so next card, counts and the next due read the rows of the packs
being studied, not every card of the user (a million cards of another pack cost what none do).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

NOT_REVIEW = "state != 'review'"  # as drill.store.models.NOT_REVIEW is at this revision

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_card_states_not_review", table_name="card_states")
    op.drop_index("ix_card_states_next_due", table_name="card_states")
    op.create_index(
        "ix_card_states_pack_due",
        "card_states",
        ["user_id", "card_pack", "suspended", "due", "card_position", "card_id"],
    )
    op.create_index(
        "ix_card_states_pack_not_review",
        "card_states",
        ["user_id", "card_pack", "suspended", "due"],
        sqlite_where=sa.text(NOT_REVIEW),
        postgresql_where=sa.text(NOT_REVIEW),
    )


def downgrade() -> None:
    op.drop_index("ix_card_states_pack_not_review", table_name="card_states")
    op.drop_index("ix_card_states_pack_due", table_name="card_states")
    op.create_index(
        "ix_card_states_next_due",
        "card_states",
        ["user_id", "suspended", "due", "card_pack", "card_position", "card_id"],
    )
    op.create_index(
        "ix_card_states_not_review",
        "card_states",
        ["user_id", "suspended", "due"],
        sqlite_where=sa.text(NOT_REVIEW),
        postgresql_where=sa.text(NOT_REVIEW),
    )
