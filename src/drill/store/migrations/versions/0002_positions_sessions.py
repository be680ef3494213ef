"""Cards keep their content order; study sessions, and each review log names its session.

On SQLite both ALTERs rebuild their table (batch mode). ``cards`` is the parent of card_states and
review_logs (ON DELETE CASCADE): drill.store.migrate turns foreign keys off around every migration, because
with them on, dropping the old ``cards`` table during the rebuild would delete every review.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from drill.store.models import UTCDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _recreate() -> str:
    # SQLite: rebuild the table (copy, drop, rename) — the path that needs foreign keys off. Elsewhere the
    # server ALTERs in place (a rebuild on PostgreSQL would have to drop the primary key others reference).
    return "always" if op.get_bind().dialect.name == "sqlite" else "auto"


def upgrade() -> None:
    with op.batch_alter_table("cards", recreate=_recreate()) as batch:
        batch.add_column(sa.Column("position", sa.Integer(), server_default="0", nullable=False))
        batch.create_index("ix_cards_position", ["position"])

    op.create_table(
        "study_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=False),
        sa.Column("ended_at", UTCDateTime(), nullable=True),
        sa.Column("reviewed", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_study_sessions_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_study_sessions"),
    )
    op.create_index("ix_study_sessions_user_id", "study_sessions", ["user_id"])

    with op.batch_alter_table("review_logs", recreate=_recreate()) as batch:
        batch.add_column(sa.Column("session_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_review_logs_session_id_study_sessions",
            "study_sessions",
            ["session_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch.create_index("ix_review_logs_session_id", ["session_id"])


def downgrade() -> None:
    with op.batch_alter_table("review_logs", recreate=_recreate()) as batch:
        batch.drop_index("ix_review_logs_session_id")
        batch.drop_constraint("fk_review_logs_session_id_study_sessions", type_="foreignkey")
        batch.drop_column("session_id")
    op.drop_index("ix_study_sessions_user_id", table_name="study_sessions")
    op.drop_table("study_sessions")
    with op.batch_alter_table("cards", recreate=_recreate()) as batch:
        batch.drop_index("ix_cards_position")
        batch.drop_column("position")
