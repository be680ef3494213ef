"""FSRS weights per learner: `drill optimize --user NAME` saves the fit in that learner's row, not in the
machine's config file, so two learners on one database (or one learner on two machines) each get their own.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("fsrs_parameters", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("fsrs_parameters")
