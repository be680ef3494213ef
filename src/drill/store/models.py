"""The progress schema as SQLAlchemy 2 declarative tables (the head revision of the Alembic migrations).

Cards are shared by every user of a database (a cohort on PostgreSQL studies the same content); everything
else belongs to one user and every query filters on ``user_id``. Timestamps go through ``UTCDateTime`` so they
always come back timezone-aware UTC, on SQLite too (which stores them naive).

Whenever this module changes, add an Alembic revision in ``drill/store/migrations/versions`` and bump
``HEAD_REVISION``; tests/store/test_store_migrations.py checks the two agree.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
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


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # This learner's FSRS-6 weights fitted by `drill optimize` (None: the config's, else FSRS's defaults).
    fsrs_parameters: Mapped[list | None] = mapped_column(JSONDoc, nullable=True)


class Card(Base):
    """One content card, identified by (pack, content_id) — never by its text, so edits keep progress."""

    __tablename__ = "cards"
    __table_args__ = (
        UniqueConstraint("pack", "content_id", name="uq_cards_pack_content_id"),
        Index("ix_cards_position", "position"),  # new cards in content order
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pack: Mapped[str] = mapped_column(String(100))
    content_id: Mapped[str] = mapped_column(String(100))
    section: Mapped[str] = mapped_column(String(50), default="")
    # Order in the content (new cards are introduced in chapter order).
    position: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Removed from the content: hidden from study, history kept; re-adding the id clears the flag.
    retired: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CardState(Base):
    """A user's scheduling state for one card (drill.srs.CardState plus the flags the store keeps).

    A card with no row, or a row whose state is "new", is new for that user; ``due`` is NULL for new rows
    so the next-due query never sees them.
    """

    __tablename__ = "card_states"
    __table_args__ = (
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

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    card_id: Mapped[int] = mapped_column(
        ForeignKey("cards.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    # Copies of the card's pack and position (drill.store.sync keeps them: it alone sets a position), so
    # new cards are read in content order from ix_card_states_pack_due instead of sorted.
    card_pack: Mapped[str] = mapped_column(String(100), server_default="")
    card_position: Mapped[int] = mapped_column(Integer, server_default="0")
    # A copy of the card's retired flag (drill.store.sync and code_carry keep it), so the due-review count
    # reads ix_card_states_pack_review alone.
    card_retired: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # drill.srs.Phase: "new", "learning", "review", "relearning".
    state: Mapped[str] = mapped_column(String(12), default="new")
    step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stability: Mapped[float | None] = mapped_column(Float, nullable=True)
    difficulty: Mapped[float | None] = mapped_column(Float, nullable=True)
    due: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    last_review: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    reps: Mapped[int] = mapped_column(Integer, default=0)
    lapses: Mapped[int] = mapped_column(Integer, default=0)
    suspended: Mapped[bool] = mapped_column(Boolean, default=False)
    buried_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    leech: Mapped[bool] = mapped_column(Boolean, default=False)
    # True retention counters, kept by Store.grade/undo_last (drill.store.review_days): the card's
    # first-of-study-day grades, and how many of them were not Again.
    first_reviews: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    first_passes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # FSRS's own due when an interview plan pulled ``due`` in before the interview day (drill.srs.deadline);
    # NULL otherwise. Clearing the plan puts it back, so no interval FSRS chose is lost.
    fsrs_due: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Anki's flag (drill.store.types.FLAGS: 0 none, 1-7 a colour) and its "marked" tag, set in study (ctrl+1..7,
    # *) or the browser; the learner's own notes on the card, kept through grades and resets.
    flag: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")
    marked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class StudyDayTotal(Base):
    """A user's reviews and answer time per study day, kept by Store.grade/undo_last (a summary of
    review_logs, so reports read one row per day instead of every review)."""

    __tablename__ = "study_day_totals"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    study_day: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    reviews: Mapped[int] = mapped_column(Integer, default=0)
    duration_ms: Mapped[int] = mapped_column(Integer, default=0)
    # Of ``reviews``, the grades of a new card and of a card in review (the state before the grade): what
    # the daily new and review limits count. Store.counts and next_card read today's row (as Anki keeps its
    # day's counters), not today's log rows, so they cost the same whatever the day held.
    new_grades: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    review_grades: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class StudyDayExtra(Base):
    """Study more today (Anki's custom study "increase today's new card limit" / "review limit"): how many
    new cards and reviews the learner added to one study day's limits. The queue adds them to ``new_per_day``
    and ``reviews_per_day`` for that day only (drill.store.queue, drill.store.extras)."""

    __tablename__ = "study_day_extras"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    study_day: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    extra_new: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    extra_reviews: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class StudySession(Base):
    __tablename__ = "study_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    reviewed: Mapped[int] = mapped_column(Integer, default=0)


class ReviewLog(Base):
    """One grade. Holds the card's whole state before the grade, so undo restores it exactly."""

    __tablename__ = "review_logs"
    __table_args__ = (
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

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"))
    session_id: Mapped[int | None] = mapped_column(
        ForeignKey("study_sessions.id", ondelete="SET NULL"), nullable=True, index=True
    )
    rating: Mapped[int] = mapped_column(SmallInteger)  # fsrs.Rating: 1 again, 2 hard, 3 good, 4 easy
    reviewed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    duration_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # State before the grade (everything undo needs).
    state_before: Mapped[str] = mapped_column(String(12))  # "new" when this grade introduced the card
    step_before: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stability_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    difficulty_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    due_before: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    last_review_before: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    reps_before: Mapped[int] = mapped_column(Integer, default=0)
    lapses_before: Mapped[int] = mapped_column(Integer, default=0)
    suspended_before: Mapped[bool] = mapped_column(Boolean, default=False)
    buried_until_before: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    leech_before: Mapped[bool] = mapped_column(Boolean, default=False)
    fsrs_due_before: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # State after the grade.
    state_after: Mapped[str] = mapped_column(String(12))
    step_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stability_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    difficulty_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    due_after: Mapped[datetime] = mapped_column(UTCDateTime)
    scheduled_days: Mapped[float] = mapped_column(Float, default=0.0)  # due_after - reviewed_at, in days
    elapsed_days: Mapped[float | None] = mapped_column(Float, nullable=True)  # since the previous review
    leech_after: Mapped[bool] = mapped_column(Boolean, default=False)
    # Recorded at grade time (drill.store.review_days): the local study day (days since 1970-01-01) and
    # whether this is the card's first grade that study day, so reports never recompute days per row.
    study_day: Mapped[int] = mapped_column(Integer)
    first_of_day: Mapped[bool] = mapped_column(Boolean)


class QuizAttempt(Base):
    __tablename__ = "quiz_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    settings: Mapped[dict] = mapped_column(JSONDoc, default=dict)
    score: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)


class QuizAnswer(Base):
    __tablename__ = "quiz_answers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    attempt_id: Mapped[int] = mapped_column(ForeignKey("quiz_attempts.id", ondelete="CASCADE"), index=True)
    item_id: Mapped[str] = mapped_column(
        String(100)
    )  # a quiz id from quizzes.yaml or a generated question id
    kind: Mapped[str] = mapped_column(String(20))  # "chapter" or "generated"
    chosen: Mapped[str | None] = mapped_column(String(20), nullable=True)  # None: no answer (timed out)
    correct: Mapped[bool] = mapped_column(Boolean)
    timed_out: Mapped[bool] = mapped_column(Boolean, default=False)
    duration_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    answered_at: Mapped[datetime] = mapped_column(UTCDateTime)


class InterviewPlan(Base):
    """A user's interview date (``drill plan --interview DATE``) and the recall the plan aims for on that day."""

    __tablename__ = "interview_plans"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    interview_day: Mapped[date] = mapped_column(Date)
    target: Mapped[float] = mapped_column(Float)
    set_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CodeAttempt(Base):
    """One run of `drill code`: the learner's code, the hidden tests' seed and outcome (drill.store.code_attempts)."""

    __tablename__ = "code_attempts"
    __table_args__ = (Index("ix_code_attempts_user_task", "user_id", "task", "ran_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    task: Mapped[str] = mapped_column(String(100))  # a drill.engine.codetasks task name
    ran_at: Mapped[datetime] = mapped_column(UTCDateTime)
    code: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(Integer)
    backend: Mapped[str] = mapped_column(String(10))  # "numpy" or "torch"
    passed: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    all_passed: Mapped[bool] = mapped_column(Boolean)
    mistakes: Mapped[list] = mapped_column(JSONDoc)  # ids from drill.engine.mistakes, in the order first met
    results: Mapped[dict] = mapped_column(
        JSONDoc
    )  # per case: name, status, mistake (the --json document's cases)
    elapsed_ms: Mapped[int] = mapped_column(Integer)  # the run
    writing_ms: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )  # time spent writing since the last run


class CodeSolutionView(Base):
    """The reference solution was shown: after a pass, or asked for (recorded before it is shown)."""

    __tablename__ = "code_solution_views"
    __table_args__ = (Index("ix_code_solution_views_user_task", "user_id", "task"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    task: Mapped[str] = mapped_column(String(100))
    shown_at: Mapped[datetime] = mapped_column(UTCDateTime)
    reason: Mapped[str] = mapped_column(String(10))  # "passed" or "asked"


class InterviewSession(Base):
    """One `drill interview`: when, with which settings; its answers are the scorecard (drill.store.interviews)."""

    __tablename__ = "interview_sessions"
    __table_args__ = (Index("ix_interview_sessions_user_started", "user_id", "started_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # None: stopped early
    settings: Mapped[dict] = mapped_column(
        JSONDoc
    )  # questions, minutes, section, follow-up, thresholds, seed


class InterviewAnswer(Base):
    """One question of a mock interview: the answer, its time, the rubric's ticks and the grade confirmed."""

    __tablename__ = "interview_answers"
    __table_args__ = checks("interview_answers")

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("interview_sessions.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int] = mapped_column(Integer)  # 1, 2, ... in the order asked
    card_id: Mapped[str] = mapped_column(String(100))  # the card's content id
    section: Mapped[str] = mapped_column(String(50))
    follow_up: Mapped[bool] = mapped_column(Boolean)  # asked as a follow-up from the previous one's section
    mode: Mapped[str] = mapped_column(String(10))  # "typed" or "aloud"
    answer: Mapped[str | None] = mapped_column(Text, nullable=True)  # the typed text (None: aloud)
    duration_ms: Mapped[int] = mapped_column(Integer)
    budget_ms: Mapped[int] = mapped_column(Integer)
    timed_out: Mapped[bool] = mapped_column(Boolean)
    points_total: Mapped[int] = mapped_column(Integer)
    points_covered: Mapped[list] = mapped_column(JSONDoc)  # indexes into the card's points
    points_missed: Mapped[list] = mapped_column(JSONDoc)  # the missed points' text, as shown
    traps_hit: Mapped[list] = mapped_column(JSONDoc)  # the traps' text
    coverage: Mapped[float] = mapped_column(Float)
    proposed: Mapped[int] = mapped_column(SmallInteger)  # the rubric's grade, 1-4
    rating: Mapped[int] = mapped_column(SmallInteger)  # the grade confirmed (Store.grade)
    # The grade's log row (NULL once that grade is undone: undo deletes the row).
    review_log_id: Mapped[int | None] = mapped_column(
        ForeignKey("review_logs.id", ondelete="SET NULL"), nullable=True
    )
    answered_at: Mapped[datetime] = mapped_column(UTCDateTime)


class DatabaseIdentity(Base):
    """The database's one row: a random id made with it (migration 0010); its backups carry it
    (drill.store.backup matches backups by it, not by the file's name)."""

    __tablename__ = "database_identity"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


metadata = Base.metadata
