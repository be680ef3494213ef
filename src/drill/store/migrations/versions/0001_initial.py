"""The first schema: users, cards, card states, review logs, quiz attempts and answers.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from drill.store.models import UTCDateTime

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name", name="uq_users_name"),
    )
    op.create_table(
        "cards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("pack", sa.String(100), nullable=False),
        sa.Column("content_id", sa.String(100), nullable=False),
        sa.Column("section", sa.String(50), nullable=False),
        sa.Column("retired", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_cards"),
        sa.UniqueConstraint("pack", "content_id", name="uq_cards_pack_content_id"),
    )
    op.create_table(
        "card_states",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("step", sa.Integer(), nullable=True),
        sa.Column("stability", sa.Float(), nullable=True),
        sa.Column("difficulty", sa.Float(), nullable=True),
        sa.Column("due", UTCDateTime(), nullable=True),
        sa.Column("last_review", UTCDateTime(), nullable=True),
        sa.Column("reps", sa.Integer(), nullable=False),
        sa.Column("lapses", sa.Integer(), nullable=False),
        sa.Column("suspended", sa.Boolean(), nullable=False),
        sa.Column("buried_until", UTCDateTime(), nullable=True),
        sa.Column("leech", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["card_id"], ["cards.id"], name="fk_card_states_card_id_cards", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_card_states_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "card_id", name="pk_card_states"),
    )
    op.create_index("ix_card_states_card_id", "card_states", ["card_id"])
    op.create_index("ix_card_states_next_due", "card_states", ["user_id", "suspended", "due"])
    op.create_table(
        "review_logs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.SmallInteger(), nullable=False),
        sa.Column("reviewed_at", UTCDateTime(), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=True),
        sa.Column("state_before", sa.String(12), nullable=False),
        sa.Column("step_before", sa.Integer(), nullable=True),
        sa.Column("stability_before", sa.Float(), nullable=True),
        sa.Column("difficulty_before", sa.Float(), nullable=True),
        sa.Column("due_before", UTCDateTime(), nullable=True),
        sa.Column("last_review_before", UTCDateTime(), nullable=True),
        sa.Column("reps_before", sa.Integer(), nullable=False),
        sa.Column("lapses_before", sa.Integer(), nullable=False),
        sa.Column("suspended_before", sa.Boolean(), nullable=False),
        sa.Column("buried_until_before", UTCDateTime(), nullable=True),
        sa.Column("leech_before", sa.Boolean(), nullable=False),
        sa.Column("state_after", sa.String(12), nullable=False),
        sa.Column("step_after", sa.Integer(), nullable=True),
        sa.Column("stability_after", sa.Float(), nullable=True),
        sa.Column("difficulty_after", sa.Float(), nullable=True),
        sa.Column("due_after", UTCDateTime(), nullable=False),
        sa.Column("scheduled_days", sa.Float(), nullable=False),
        sa.Column("elapsed_days", sa.Float(), nullable=True),
        sa.Column("leech_after", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["card_id"], ["cards.id"], name="fk_review_logs_card_id_cards", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_review_logs_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_review_logs"),
    )
    op.create_index("ix_review_logs_card", "review_logs", ["card_id", "user_id", "state_before", "rating"])
    op.create_index(
        "ix_review_logs_user_reviewed",
        "review_logs",
        ["user_id", "reviewed_at", "card_id", "rating", "state_before"],
    )
    op.create_table(
        "quiz_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=False),
        sa.Column("finished_at", UTCDateTime(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_quiz_attempts_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_quiz_attempts"),
    )
    op.create_index("ix_quiz_attempts_user_id", "quiz_attempts", ["user_id"])
    op.create_table(
        "quiz_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("attempt_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("chosen", sa.String(20), nullable=True),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("timed_out", sa.Boolean(), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=True),
        sa.Column("answered_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["attempt_id"],
            ["quiz_attempts.id"],
            name="fk_quiz_answers_attempt_id_quiz_attempts",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_quiz_answers"),
    )
    op.create_index("ix_quiz_answers_attempt_id", "quiz_answers", ["attempt_id"])


def downgrade() -> None:
    for table in ("quiz_answers", "quiz_attempts", "review_logs", "card_states", "cards", "users"):
        op.drop_table(table)
