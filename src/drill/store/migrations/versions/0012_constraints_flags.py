"""The database refuses what drill never writes, and cards carry Anki's flag and mark.

- CHECK constraints (drill.store.checks, those ``since`` this revision): ratings 1-4, the four phases, counts
  not negative, a flag 0-7. Before anything is altered every row is checked against them: a database holding a
  row that breaks one is refused with one line naming the table, the row, the column and its value, and nothing
  is changed (drill.store.migrate.upgrade runs the whole upgrade as one transaction and rolls it back).
- ``interview_answers.review_log_id`` references ``review_logs`` (ON DELETE SET NULL: undoing the grade
  deletes its log row). Ids left pointing at a row an earlier drill's undo deleted are set to NULL first — what
  the reference would have done then; they name no grade.
- PostgreSQL: the JSON columns become ``jsonb`` (SQLite has one JSON text type: nothing to do).
- ``card_states.flag`` (0 none, 1-7 Anki's colours) and ``card_states.marked``.

On SQLite the constraints need table rebuilds (batch mode): they run inside the upgrade's one transaction
with foreign keys off (drill.store.migrate), so a kill leaves the old schema or the new one.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from drill.errors import StoreError
from drill.store.checks import checks_of, first_violation

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

CHECKED_TABLES = ("card_states", "review_logs", "interview_answers")
JSON_COLUMNS = (  # every JSON column at this revision
    ("users", "fsrs_parameters"),
    ("quiz_attempts", "settings"),
    ("code_attempts", "mistakes"),
    ("code_attempts", "results"),
    ("interview_sessions", "settings"),
    ("interview_answers", "points_covered"),
    ("interview_answers", "points_missed"),
    ("interview_answers", "traps_hit"),
)
REVIEW_LOG_FK = "fk_interview_answers_review_log_id_review_logs"


def upgrade() -> None:
    conn = op.get_bind()
    # 1. Read only: every existing row against the constraints (the flag column is new: all 0).
    found = first_violation(
        conn, [c for t in CHECKED_TABLES for c in checks_of(t, revision) if c.column != "flag"]
    )
    if found is not None:
        raise StoreError(
            f"the schema upgrade to {revision} was refused, nothing was changed: {found}; correct or delete "
            f"that row, then run drill again"
        )
    # 2. Dangling interview grade ids (the grade was undone before the reference existed).
    op.execute(
        "UPDATE interview_answers SET review_log_id = NULL WHERE review_log_id IS NOT NULL AND NOT EXISTS "
        "(SELECT 1 FROM review_logs WHERE review_logs.id = interview_answers.review_log_id)"
    )
    # 3. The new columns, the constraints and the reference (one rebuild per table on SQLite).
    with op.batch_alter_table("card_states") as batch:
        batch.add_column(sa.Column("flag", sa.SmallInteger(), server_default="0", nullable=False))
        batch.add_column(sa.Column("marked", sa.Boolean(), server_default=sa.false(), nullable=False))
        for check in checks_of("card_states", revision):
            batch.create_check_constraint(op.f(check.constraint_name), check.condition)
    with op.batch_alter_table("review_logs") as batch:
        for check in checks_of("review_logs", revision):
            batch.create_check_constraint(op.f(check.constraint_name), check.condition)
    with op.batch_alter_table("interview_answers") as batch:
        for check in checks_of("interview_answers", revision):
            batch.create_check_constraint(op.f(check.constraint_name), check.condition)
        batch.create_foreign_key(
            op.f(REVIEW_LOG_FK), "review_logs", ["review_log_id"], ["id"], ondelete="SET NULL"
        )
    if conn.dialect.name == "postgresql":
        for table, column in JSON_COLUMNS:
            op.alter_column(
                table,
                column,
                type_=postgresql.JSONB(),
                existing_type=sa.JSON(),
                postgresql_using=f"{column}::jsonb",
            )


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        for table, column in JSON_COLUMNS:
            op.alter_column(
                table,
                column,
                type_=sa.JSON(),
                existing_type=postgresql.JSONB(),
                postgresql_using=f"{column}::json",
            )
    with op.batch_alter_table("interview_answers") as batch:
        batch.drop_constraint(op.f(REVIEW_LOG_FK), type_="foreignkey")
        for check in checks_of("interview_answers", revision):
            batch.drop_constraint(op.f(check.constraint_name), type_="check")
    with op.batch_alter_table("review_logs") as batch:
        for check in checks_of("review_logs", revision):
            batch.drop_constraint(op.f(check.constraint_name), type_="check")
    with op.batch_alter_table("card_states") as batch:
        for check in checks_of("card_states", revision):
            batch.drop_constraint(op.f(check.constraint_name), type_="check")
        batch.drop_column("marked")
        batch.drop_column("flag")
