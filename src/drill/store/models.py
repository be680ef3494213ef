"""The progress schema as SQLAlchemy Core tables (the head revision of the Alembic migrations), named once for
every module that queries them (drill.store.tables hands them on). Core, not ORM declarative classes: nothing
here maps rows to objects, and opening the store then never imports sqlalchemy.orm (~0.15 s of CPU).

Cards are shared by every user of a database (a cohort on PostgreSQL studies the same content); everything
else belongs to one user and every query filters on ``user_id``. Timestamps go through ``UTCDateTime`` so they
always come back timezone-aware UTC, on SQLite too (which stores them naive).

Whenever this module changes, add an Alembic revision in ``drill/store/migrations/versions`` and bump
``HEAD_REVISION``; tests/store/test_store_migrations.py checks the two agree.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator

from drill.store.checks import checks_of

# ix_card_states_pack_not_review's rows (drill.store.queue writes the same condition).
NOT_REVIEW = "state != 'review'"
REVIEW = "state = 'review'"

# The Alembic revision these models correspond to (checked by a test against the migration scripts).
HEAD_REVISION = "0014"

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator):
    """A timestamp that is stored as UTC and always handed back timezone-aware (UTC).

    SQLite has no time zones: SQLAlchemy stores the naive text and returns naive datetimes even for
    ``DateTime(timezone=True)``; py-fsrs refuses naive datetimes. Naive input is refused here too, so a
    local wall-clock time can never be stored as if it were UTC.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: drill stores only timezone-aware times")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


# A JSON document: jsonb on PostgreSQL (validated, comparable, indexable), JSON text on SQLite.
JSONDoc = JSON().with_variant(JSONB(), "postgresql")


def checks(table: str) -> tuple[CheckConstraint, ...]:
    """The table's CHECK constraints (drill.store.checks declares them; named ck_<table>_<name>)."""
    return tuple(CheckConstraint(c.condition, name=c.name) for c in checks_of(table))


def utcnow() -> datetime:
    return datetime.now(UTC)


metadata = MetaData(naming_convention=NAMING)


users_t = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), unique=True, nullable=False),
    Column("created_at", UTCDateTime, default=utcnow, nullable=False),
    # This learner's FSRS-6 weights fitted by `drill optimize` (None: the config's, else FSRS's defaults).
    Column("fsrs_parameters", JSONDoc, nullable=True),
)

# One content card, identified by (pack, content_id) — never by its text, so edits keep progress.
cards_t = Table(
    "cards",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("pack", String(100), nullable=False),
    Column("content_id", String(100), nullable=False),
    Column("section", String(50), default="", nullable=False),
    # Order in the content (new cards are introduced in chapter order).
    Column("position", Integer, default=0, server_default="0", nullable=False),
    # Removed from the content: hidden from study, history kept; re-adding the id clears the flag.
    Column("retired", Boolean, default=False, server_default=false(), nullable=False),
    Column("created_at", UTCDateTime, default=utcnow, nullable=False),
    UniqueConstraint("pack", "content_id", name="uq_cards_pack_content_id"),
    Index("ix_cards_position", "position"),  # new cards in content order
)

# A user's scheduling state for one card (drill.srs.CardState plus the flags the store keeps).
# A card with no row, or a row whose state is "new", is new for that user; ``due`` is NULL for new rows
# so the next-due query never sees them.
states_t = Table(
    "card_states",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("card_id", Integer, ForeignKey("cards.id", ondelete="CASCADE"), primary_key=True, index=True),
    # Copies of the card's pack and position (drill.store.sync keeps them: it alone sets a position), so
    # new cards are read in content order from ix_card_states_pack_due instead of sorted.
    Column("card_pack", String(100), server_default="", nullable=False),
    Column("card_position", Integer, server_default="0", nullable=False),
    # A copy of the card's retired flag (drill.store.sync and code_carry keep it), so the due-review count
    # reads ix_card_states_pack_review alone.
    Column("card_retired", Boolean, server_default=false(), nullable=False),
    # drill.srs.Phase: "new", "learning", "review", "relearning".
    Column("state", String(12), default="new", nullable=False),
    Column("step", Integer, nullable=True),
    Column("stability", Float, nullable=True),
    Column("difficulty", Float, nullable=True),
    Column("due", UTCDateTime, nullable=True),
    Column("last_review", UTCDateTime, nullable=True),
    Column("reps", Integer, default=0, nullable=False),
    Column("lapses", Integer, default=0, nullable=False),
    Column("suspended", Boolean, default=False, nullable=False),
    Column("buried_until", UTCDateTime, nullable=True),
    Column("leech", Boolean, default=False, nullable=False),
    # True retention counters, kept by Store.grade/undo_last (drill.store.review_days): the card's
    # first-of-study-day grades, and how many of them were not Again.
    Column("first_reviews", Integer, default=0, server_default="0", nullable=False),
    Column("first_passes", Integer, default=0, server_default="0", nullable=False),
    # FSRS's own due when an interview plan pulled ``due`` in before the interview day (drill.srs.deadline);
    # NULL otherwise. Clearing the plan puts it back, so no interval FSRS chose is lost.
    Column("fsrs_due", UTCDateTime, nullable=True),
    # Anki's flag (drill.store.types.FLAGS: 0 none, 1-7 a colour) and its "marked" tag, set in study (ctrl+1..7,
    # *) or the browser; the learner's own notes on the card, kept through grades and resets.
    Column("flag", SmallInteger, default=0, server_default="0", nullable=False),
    Column("marked", Boolean, default=False, server_default=false(), nullable=False),
    # The queue reads the studied packs only (a million cards of another pack cost nothing): the next-due
    # query WHERE user_id = ? AND card_pack IN (...) AND suspended = false AND due <= ? ORDER BY due; and
    # the next-new query: ... AND due IS NULL ORDER BY card_pack, card_position, card_id (content order).
    Index(
        "ix_card_states_pack_due",
        "user_id",
        "card_pack",
        "suspended",
        "due",
        "card_position",
        "card_id",
    ),
    # Due learning and relearning cards (no daily limit: counted in full) without reading due reviews:
    # the queue's WHERE state != 'review' (written as this literal, so the planners can match it).
    Index(
        "ix_card_states_pack_not_review",
        "user_id",
        "card_pack",
        "suspended",
        "due",
        sqlite_where=text(NOT_REVIEW),
        postgresql_where=text(NOT_REVIEW),
    ),
    # Due reviews counted up to what is left of the daily review limit from this index alone: every
    # column the count's WHERE names is here (the card's retired flag too, as ``card_retired``), so
    # neither the state rows nor the card rows are read for it.
    Index(
        "ix_card_states_pack_review",
        "user_id",
        "card_pack",
        "suspended",
        "due",
        "buried_until",
        "card_retired",
        "state",  # also in the WHERE: SQLite counts only an index's own columns as covered
        sqlite_where=text(REVIEW),
        postgresql_where=text(REVIEW),
    ),
    *checks("card_states"),
)

# A user's reviews and answer time per study day, kept by Store.grade/undo_last (a summary of
# review_logs, so reports read one row per day instead of every review).
days_t = Table(
    "study_day_totals",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("study_day", Integer, primary_key=True, autoincrement=False),
    Column("reviews", Integer, default=0, nullable=False),
    Column("duration_ms", Integer, default=0, nullable=False),
    # Of ``reviews``, the grades of a new card and of a card in review (the state before the grade): what
    # the daily new and review limits count. Store.counts and next_card read today's row (as Anki keeps its
    # day's counters), not today's log rows, so they cost the same whatever the day held.
    Column("new_grades", Integer, default=0, server_default="0", nullable=False),
    Column("review_grades", Integer, default=0, server_default="0", nullable=False),
)

# Study more today (Anki's custom study "increase today's new card limit" / "review limit"): how many
# new cards and reviews the learner added to one study day's limits. The queue adds them to ``new_per_day``
# and ``reviews_per_day`` for that day only (drill.store.queue, drill.store.extras).
extras_t = Table(
    "study_day_extras",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("study_day", Integer, primary_key=True, autoincrement=False),
    Column("extra_new", Integer, default=0, server_default="0", nullable=False),
    Column("extra_reviews", Integer, default=0, server_default="0", nullable=False),
)

sessions_t = Table(
    "study_sessions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False),
    Column("started_at", UTCDateTime, nullable=False),
    Column("ended_at", UTCDateTime, nullable=True),
    Column("reviewed", Integer, default=0, nullable=False),
)

# One grade. Holds the card's whole state before the grade, so undo restores it exactly.
logs_t = Table(
    "review_logs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("card_id", Integer, ForeignKey("cards.id", ondelete="CASCADE"), nullable=False),
    Column(
        "session_id", Integer, ForeignKey("study_sessions.id", ondelete="SET NULL"), nullable=True, index=True
    ),
    Column("rating", SmallInteger, nullable=False),  # fsrs.Rating: 1 again, 2 hard, 3 good, 4 easy
    Column("reviewed_at", UTCDateTime, nullable=False),
    Column("duration_ms", Integer, nullable=True),
    # State before the grade (everything undo needs).
    Column("state_before", String(12), nullable=False),  # "new" when this grade introduced the card
    Column("step_before", Integer, nullable=True),
    Column("stability_before", Float, nullable=True),
    Column("difficulty_before", Float, nullable=True),
    Column("due_before", UTCDateTime, nullable=True),
    Column("last_review_before", UTCDateTime, nullable=True),
    Column("reps_before", Integer, default=0, nullable=False),
    Column("lapses_before", Integer, default=0, nullable=False),
    Column("suspended_before", Boolean, default=False, nullable=False),
    Column("buried_until_before", UTCDateTime, nullable=True),
    Column("leech_before", Boolean, default=False, nullable=False),
    Column("fsrs_due_before", UTCDateTime, nullable=True),
    # State after the grade.
    Column("state_after", String(12), nullable=False),
    Column("step_after", Integer, nullable=True),
    Column("stability_after", Float, nullable=True),
    Column("difficulty_after", Float, nullable=True),
    Column("due_after", UTCDateTime, nullable=False),
    Column("scheduled_days", Float, default=0.0, nullable=False),  # due_after - reviewed_at, in days
    Column("elapsed_days", Float, nullable=True),  # since the previous review
    Column("leech_after", Boolean, default=False, nullable=False),
    # Recorded at grade time (drill.store.review_days): the local study day (days since 1970-01-01) and
    # whether this is the card's first grade that study day, so reports never recompute days per row.
    Column("study_day", Integer, nullable=False),
    Column("first_of_day", Boolean, nullable=False),
    # Report aggregates and the daily-limit counts: WHERE user_id = ? AND reviewed_at >= ?. It also
    # covers card_id, rating and state_before, so reviews-per-day, retention and the daily counts are
    # answered from the index without reading the wide log rows.
    Index("ix_review_logs_user_reviewed", "user_id", "reviewed_at", "card_id", "rating", "state_before"),
    # A card's history; also covers per-card aggregates (retention per card or section) in one pass.
    Index("ix_review_logs_card", "card_id", "user_id", "state_before", "rating"),
    # Reports over part of the log (a section, --since): reviews and answer time per study day, and true
    # retention (the first grade of each card's study day) per card since a day, from these indexes.
    # (The whole log's figures come from study_day_totals and card_states' counters.)
    Index("ix_review_logs_user_day", "user_id", "study_day", "card_id", "duration_ms"),
    Index("ix_review_logs_user_first", "user_id", "first_of_day", "study_day", "card_id", "rating"),
    *checks("review_logs"),
)

attempts_t = Table(
    "quiz_attempts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False),
    Column("started_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime, nullable=True),
    Column("settings", JSONDoc, default=dict, nullable=False),
    Column("score", Integer, default=0, nullable=False),
    Column("total", Integer, default=0, nullable=False),
)

answers_t = Table(
    "quiz_answers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "attempt_id", Integer, ForeignKey("quiz_attempts.id", ondelete="CASCADE"), index=True, nullable=False
    ),
    Column("item_id", String(100), nullable=False),  # a quiz id from quizzes.yaml or a generated question id
    Column("kind", String(20), nullable=False),  # "chapter" or "generated"
    Column("chosen", String(20), nullable=True),  # None: no answer (timed out)
    Column("correct", Boolean, nullable=False),
    Column("timed_out", Boolean, default=False, nullable=False),
    Column("duration_ms", Integer, nullable=True),
    Column("answered_at", UTCDateTime, nullable=False),
)

# A user's interview date (``drill plan --interview DATE``) and the recall the plan aims for on that day.
plans_t = Table(
    "interview_plans",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("interview_day", Date, nullable=False),
    Column("target", Float, nullable=False),
    Column("set_at", UTCDateTime, nullable=False),
)

# One run of `drill code`: the learner's code, the hidden tests' seed and outcome (drill.store.code_attempts).
code_attempts_t = Table(
    "code_attempts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("task", String(100), nullable=False),  # a drill.engine.codetasks task name
    Column("ran_at", UTCDateTime, nullable=False),
    Column("code", Text, nullable=False),
    Column("seed", Integer, nullable=False),
    Column("backend", String(10), nullable=False),  # "numpy" or "torch"
    Column("passed", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("all_passed", Boolean, nullable=False),
    Column("mistakes", JSONDoc, nullable=False),  # ids from drill.engine.mistakes, in the order first met
    Column(
        "results", JSONDoc, nullable=False
    ),  # per case: name, status, mistake (the --json document's cases)
    Column("elapsed_ms", Integer, nullable=False),  # the run
    Column("writing_ms", Integer, nullable=True),  # time spent writing since the last run
    Index("ix_code_attempts_user_task", "user_id", "task", "ran_at"),
)

# The reference solution was shown: after a pass, or asked for (recorded before it is shown).
solution_views_t = Table(
    "code_solution_views",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("task", String(100), nullable=False),
    Column("shown_at", UTCDateTime, nullable=False),
    Column("reason", String(10), nullable=False),  # "passed" or "asked"
    Index("ix_code_solution_views_user_task", "user_id", "task"),
)

# One `drill interview`: when, with which settings; its answers are the scorecard (drill.store.interviews).
interview_sessions_t = Table(
    "interview_sessions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("started_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime, nullable=True),  # None: stopped early
    Column("settings", JSONDoc, nullable=False),  # questions, minutes, section, follow-up, thresholds, seed
    Index("ix_interview_sessions_user_started", "user_id", "started_at"),
)

# One question of a mock interview: the answer, its time, the rubric's ticks and the grade confirmed.
interview_answers_t = Table(
    "interview_answers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "session_id",
        Integer,
        ForeignKey("interview_sessions.id", ondelete="CASCADE"),
        index=True,
        nullable=False,
    ),
    Column("position", Integer, nullable=False),  # 1, 2, ... in the order asked
    Column("card_id", String(100), nullable=False),  # the card's content id
    Column("section", String(50), nullable=False),
    Column("follow_up", Boolean, nullable=False),  # asked as a follow-up from the previous one's section
    Column("mode", String(10), nullable=False),  # "typed" or "aloud"
    Column("answer", Text, nullable=True),  # the typed text (None: aloud)
    Column("duration_ms", Integer, nullable=False),
    Column("budget_ms", Integer, nullable=False),
    Column("timed_out", Boolean, nullable=False),
    Column("points_total", Integer, nullable=False),
    Column("points_covered", JSONDoc, nullable=False),  # indexes into the card's points
    Column("points_missed", JSONDoc, nullable=False),  # the missed points' text, as shown
    Column("traps_hit", JSONDoc, nullable=False),  # the traps' text
    Column("coverage", Float, nullable=False),
    Column("proposed", SmallInteger, nullable=False),  # the rubric's grade, 1-4
    Column("rating", SmallInteger, nullable=False),  # the grade confirmed (Store.grade)
    # The grade's log row (NULL once that grade is undone: undo deletes the row).
    Column("review_log_id", Integer, ForeignKey("review_logs.id", ondelete="SET NULL"), nullable=True),
    Column("answered_at", UTCDateTime, nullable=False),
    *checks("interview_answers"),
)

# The database's one row: a random id made with it (migration 0010); its backups carry it
# (drill.store.backup matches backups by it, not by the file's name).
identity_t = Table(
    "database_identity",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", UTCDateTime, nullable=False),
)
