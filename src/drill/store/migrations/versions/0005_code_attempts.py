"""`drill code` attempts: every run's code, seed and outcome, and each showing of a reference solution.

Two new tables; nothing existing changes.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from drill.store.models import UTCDateTime

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "code_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("task", sa.String(length=100), nullable=False),
        sa.Column("ran_at", UTCDateTime(), nullable=False),
        sa.Column("code", sa.Text(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("backend", sa.String(length=10), nullable=False),
        sa.Column("passed", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("all_passed", sa.Boolean(), nullable=False),
        sa.Column("mistakes", sa.JSON(), nullable=False),
        sa.Column("results", sa.JSON(), nullable=False),
        sa.Column("elapsed_ms", sa.Integer(), nullable=False),
        sa.Column("writing_ms", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_code_attempts_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_code_attempts"),
    )
    op.create_index("ix_code_attempts_user_task", "code_attempts", ["user_id", "task", "ran_at"])
    op.create_table(
        "code_solution_views",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("task", sa.String(length=100), nullable=False),
        sa.Column("shown_at", UTCDateTime(), nullable=False),
        sa.Column("reason", sa.String(length=10), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_code_solution_views_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_code_solution_views"),
    )
    op.create_index("ix_code_solution_views_user_task", "code_solution_views", ["user_id", "task"])


def downgrade() -> None:
    op.drop_index("ix_code_solution_views_user_task", table_name="code_solution_views")
    op.drop_table("code_solution_views")
    op.drop_index("ix_code_attempts_user_task", table_name="code_attempts")
    op.drop_table("code_attempts")
