"""The due-review count reads one index: ``card_states.card_retired`` (a copy of the card's retired flag,
filled from ``cards`` here and kept by drill.store.sync and drill.store.code_carry) and the partial index
ix_card_states_pack_review (user, pack, suspended, due, buried until, retired; review rows only), which holds
every column the count's WHERE names, so counting the due reviews reads neither state rows nor card rows.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

REVIEW = "state = 'review'"  # drill.store.models.REVIEW at this revision


def upgrade() -> None:
    op.add_column(
        "card_states", sa.Column("card_retired", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.execute(
        sa.text(
            "UPDATE card_states SET card_retired = :yes "
            "WHERE card_id IN (SELECT id FROM cards WHERE retired = :yes)"
        ).bindparams(yes=True)
    )
    op.create_index(
        "ix_card_states_pack_review",
        "card_states",
        ["user_id", "card_pack", "suspended", "due", "buried_until", "card_retired", "state"],
        sqlite_where=sa.text(REVIEW),
        postgresql_where=sa.text(REVIEW),
    )


def downgrade() -> None:
    op.drop_index("ix_card_states_pack_review", table_name="card_states")
    with op.batch_alter_table("card_states") as batch:
        batch.drop_column("card_retired")
