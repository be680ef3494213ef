"""A database knows who it is: one row holding a random id, made when the database is made (or upgraded), so
backups are matched to their database by that id, not by the file's name (drill.store.backup).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "database_identity",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.bulk_insert(table, [{"id": uuid.uuid4().hex, "created_at": datetime.now(UTC)}])


def downgrade() -> None:
    op.drop_table("database_identity")
