"""`drill interview` scorecards: one row per mock interview and one per question asked in it.

Two new tables; nothing existing changes.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from drill.store.models import UTCDateTime

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "interview_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=False),
        sa.Column("finished_at", UTCDateTime(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_interview_sessions_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_interview_sessions"),
    )
    op.create_index("ix_interview_sessions_user_started", "interview_sessions", ["user_id", "started_at"])
    op.create_table(
        "interview_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.String(length=100), nullable=False),
        sa.Column("section", sa.String(length=50), nullable=False),
        sa.Column("follow_up", sa.Boolean(), nullable=False),
        sa.Column("mode", sa.String(length=10), nullable=False),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("budget_ms", sa.Integer(), nullable=False),
        sa.Column("timed_out", sa.Boolean(), nullable=False),
        sa.Column("points_total", sa.Integer(), nullable=False),
        sa.Column("points_covered", sa.JSON(), nullable=False),
        sa.Column("points_missed", sa.JSON(), nullable=False),
        sa.Column("traps_hit", sa.JSON(), nullable=False),
        sa.Column("coverage", sa.Float(), nullable=False),
        sa.Column("proposed", sa.SmallInteger(), nullable=False),
        sa.Column("rating", sa.SmallInteger(), nullable=False),
        sa.Column("review_log_id", sa.Integer(), nullable=True),
        sa.Column("answered_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["interview_sessions.id"],
            name="fk_interview_answers_session_id_interview_sessions",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_interview_answers"),
    )
    op.create_index("ix_interview_answers_session_id", "interview_answers", ["session_id"])


def downgrade() -> None:
    op.drop_index("ix_interview_answers_session_id", table_name="interview_answers")
    op.drop_table("interview_answers")
    op.drop_index("ix_interview_sessions_user_started", table_name="interview_sessions")
    op.drop_table("interview_sessions")
