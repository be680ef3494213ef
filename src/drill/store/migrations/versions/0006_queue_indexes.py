"""The review queue bounded by the daily limits, not the collection (issue 10 §2).

card_states gets a copy of its card's pack and position (``card_pack``, ``card_position``; kept by
``sync_content``, which alone sets a card's position), so the next-new query reads new cards in content order
from an index instead of sorting every new card; and an index of the rows that are not reviews, so counting
due learning/relearning cards reads those rows only, not every due review.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

NOT_REVIEW = "state != 'review'"  # as drill.store.models.NOT_REVIEW was at this revision

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "card_states", sa.Column("card_pack", sa.String(length=100), nullable=False, server_default="")
    )
    op.add_column("card_states", sa.Column("card_position", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "UPDATE card_states SET "
        "card_pack = (SELECT cards.pack FROM cards WHERE cards.id = card_states.card_id), "
        "card_position = (SELECT cards.position FROM cards WHERE cards.id = card_states.card_id)"
    )
    op.drop_index("ix_card_states_next_due", table_name="card_states")
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


def downgrade() -> None:
    op.drop_index("ix_card_states_not_review", table_name="card_states")
    op.drop_index("ix_card_states_next_due", table_name="card_states")
    op.create_index("ix_card_states_next_due", "card_states", ["user_id", "suspended", "due"])
    with op.batch_alter_table("card_states") as batch:
        batch.drop_column("card_position")
        batch.drop_column("card_pack")
