"""Study more today: study_day_extras holds the new cards and reviews a learner added to one study day's
daily limits (user, study day, extra new, extra reviews); the queue adds them to that day's limits.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "study_day_extras",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("study_day", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("extra_new", sa.Integer(), server_default="0", nullable=False),
        sa.Column("extra_reviews", sa.Integer(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_study_day_extras_user_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "study_day", name="pk_study_day_extras"),
    )


def downgrade() -> None:
    op.drop_table("study_day_extras")
