"""The day's grades by the card's state before them, kept per study day: study_day_totals gains
``new_grades`` and ``review_grades`` (what the daily new and review limits count), so the queue reads today's
row instead of today's review-log rows. Filled from the log once (grouped by user, study day and state).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "study_day_totals", sa.Column("new_grades", sa.Integer(), server_default="0", nullable=False)
    )
    op.add_column(
        "study_day_totals", sa.Column("review_grades", sa.Integer(), server_default="0", nullable=False)
    )
    from drill.store.review_days import rebuild_grade_counts

    rebuild_grade_counts(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table("study_day_totals") as batch:
        batch.drop_column("review_grades")
        batch.drop_column("new_grades")
