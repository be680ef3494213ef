"""Each review log row records its study day and whether it was the card's first grade that day; summaries.

Reports count reviews per study day and true retention (the first grade of a card each study day) with
indexed aggregates over these two columns instead of recomputing local days for every row. Existing rows
are backfilled in batches with the same function Store.grade uses (drill.store.review_days), in the
machine's time zone and the configured ``day_starts_at`` — the day definition the store has been using.
Two summaries Store.grade/undo_last keep from then on are filled from the log: ``study_day_totals`` (reviews
and answer time per user and study day) and card_states' ``first_reviews``/``first_passes``.

On SQLite the columns are added in place (ADD COLUMN), filled, then the table is rebuilt once (batch mode,
foreign keys off as for every migration) to make them NOT NULL and add the indexes.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from drill.store.models import UTCDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

BATCH = 20_000


def _recreate() -> str:
    return "always" if op.get_bind().dialect.name == "sqlite" else "auto"


def _day_settings():
    from drill.errors import DrillError
    from drill.srs.config import DEFAULT_CONFIG, load_config
    from drill.srs.days import local_timezone

    try:
        day_starts_at = load_config().day_starts_at
    except DrillError:  # an unreadable config: drill's default, as the scheduler would fall back to
        day_starts_at = DEFAULT_CONFIG.day_starts_at
    return day_starts_at, local_timezone()


def _backfill() -> None:
    from drill.store.review_days import review_day_fields

    day_starts_at, tz = _day_settings()
    conn = op.get_bind()
    logs = sa.table(
        "review_logs",
        sa.column("id", sa.Integer()),
        sa.column("reviewed_at", UTCDateTime()),
        sa.column("last_review_before", UTCDateTime()),
        sa.column("study_day", sa.Integer()),
        sa.column("first_of_day", sa.Boolean()),
    )
    update = (
        sa.update(logs)
        .where(logs.c.id == sa.bindparam("b_id"))
        .values(study_day=sa.bindparam("b_day"), first_of_day=sa.bindparam("b_first"))
    )
    last_id = None
    while True:
        query = (
            sa.select(logs.c.id, logs.c.reviewed_at, logs.c.last_review_before)
            .order_by(logs.c.id)
            .limit(BATCH)
        )
        if last_id is not None:
            query = query.where(logs.c.id > last_id)
        rows = conn.execute(query).all()
        if not rows:
            return
        params = []
        for log_id, reviewed_at, previous in rows:
            day, first = review_day_fields(reviewed_at, previous, day_starts_at, tz)
            params.append({"b_id": log_id, "b_day": day, "b_first": first})
        conn.execute(update, params)
        last_id = rows[-1][0]


def upgrade() -> None:
    with op.batch_alter_table("review_logs", recreate="auto") as batch:  # SQLite: plain ADD COLUMN
        batch.add_column(sa.Column("study_day", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("first_of_day", sa.Boolean(), nullable=True))
    _backfill()
    with op.batch_alter_table("review_logs", recreate=_recreate()) as batch:
        batch.alter_column("study_day", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("first_of_day", existing_type=sa.Boolean(), nullable=False)
        batch.create_index("ix_review_logs_user_day", ["user_id", "study_day", "card_id", "duration_ms"])
        batch.create_index(
            "ix_review_logs_user_first", ["user_id", "first_of_day", "study_day", "card_id", "rating"]
        )
    with op.batch_alter_table("card_states", recreate="auto") as batch:  # SQLite: plain ADD COLUMN
        batch.add_column(sa.Column("first_reviews", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("first_passes", sa.Integer(), server_default="0", nullable=False))
    op.create_table(
        "study_day_totals",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("study_day", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("reviews", sa.Integer(), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_study_day_totals_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "study_day", name="pk_study_day_totals"),
    )
    from drill.store.review_days import rebuild_summaries

    rebuild_summaries(op.get_bind(), grade_counts=False)  # (their columns come with 0011)


def downgrade() -> None:
    op.drop_table("study_day_totals")
    with op.batch_alter_table("card_states", recreate=_recreate()) as batch:
        batch.drop_column("first_passes")
        batch.drop_column("first_reviews")
    with op.batch_alter_table("review_logs", recreate=_recreate()) as batch:
        batch.drop_index("ix_review_logs_user_first")
        batch.drop_index("ix_review_logs_user_day")
        batch.drop_column("first_of_day")
        batch.drop_column("study_day")
