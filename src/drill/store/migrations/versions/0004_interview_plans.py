"""Interview day: a plan per user (``interview_plans``), and where a plan pulled a card's due in, FSRS's own due
beside it (``card_states.fsrs_due``; ``review_logs.fsrs_due_before`` so undo restores it).

Nullable columns only: ADD COLUMN in place on SQLite and PostgreSQL alike, no table rebuild.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from drill.store.models import UTCDateTime

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "interview_plans",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("interview_day", sa.Date(), nullable=False),
        sa.Column("target", sa.Float(), nullable=False),
        sa.Column("set_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_interview_plans_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name="pk_interview_plans"),
    )
    op.add_column("card_states", sa.Column("fsrs_due", UTCDateTime(), nullable=True))
    op.add_column("review_logs", sa.Column("fsrs_due_before", UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("review_logs") as batch:
        batch.drop_column("fsrs_due_before")
    with op.batch_alter_table("card_states") as batch:
        batch.drop_column("fsrs_due")
    op.drop_table("interview_plans")
