"""Plain values the Store hands out (no SQLAlchemy here, so the TUI and reports can import them cheaply).

Every datetime is timezone-aware UTC. A card is named by its content id (the key of ``Library.cards``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from drill.i18n import N_
from drill.srs.state import Phase, ReviewOutcome

# ``browse(state=...)`` takes a Phase value ("new", "learning", "review", "relearning") or one of these flags.
SUSPENDED = "suspended"
BURIED = "buried"
LEECH = "leech"
MARKED = "marked"
BROWSE_STATES = (*(p.value for p in Phase), SUSPENDED, BURIED, LEECH, MARKED)

# Anki's card flags: 0 none, 1-7 its colours in its order (ctrl+1 … ctrl+7 in study). card_states.flag holds the
# number (drill.store.checks refuses any other); the names are drill's words (translate with ``_()``).
FLAG_NAMES: tuple[str, ...] = (
    N_("no flag"),
    N_("red"),
    N_("orange"),
    N_("green"),
    N_("blue"),
    N_("pink"),
    N_("turquoise"),
    N_("purple"),
)
NO_FLAG = 0
FLAGS = range(len(FLAG_NAMES))


@dataclass(frozen=True)
class DueCard:
    """The card ``next_card`` chose: its ids and why it is shown now."""

    card_id: str  # content id
    pack: str
    section: str
    kind: Phase
    due: datetime | None  # None for a new card
    reps: int
    lapses: int


@dataclass(frozen=True)
class Counts:
    """What is left today (limits applied) and what was done, for the study screen's header."""

    due: int  # learning/relearning/review cards due now (review cards capped by the daily review limit)
    new: int  # new cards still available today (capped by the daily new limit)
    done_today: int  # grades given since the start of the study day
    new_today: int  # new cards introduced today
    reviews_today: int  # review-state cards graded today
    next_due: datetime | None  # the earliest future due time among active cards (e.g. a learning step)
    learning: int = 0  # of ``due``: learning and relearning cards (no daily limit)
    review: int = 0  # of ``due``: review cards (within the daily review limit)
    extra_new: int = 0  # what "study more today" added to today's new limit (drill.store.extras)
    extra_reviews: int = 0  # ... and to today's review limit
    new_held: bool = False  # new cards are left that today's new limit holds back
    reviews_held: bool = False  # due review cards are left that today's review limit holds back


@dataclass(frozen=True)
class GradeResult:
    """What one committed grade did. Returned only after the transaction committed."""

    card_id: str
    log_id: int
    outcome: ReviewOutcome  # before/after states, rating, interval (drill.srs)
    leech: bool  # the card is tagged leech after this grade
    became_leech: bool  # this grade crossed the leech threshold (the card is now suspended)
    suspended: bool

    @property
    def due(self) -> datetime:
        return self.outcome.after.due


@dataclass(frozen=True)
class UndoResult:
    """What ``Store.undo_last`` took back: a grade (``rating``, ``reviewed_at``) or another action
    (``action``: suspend, unsuspend, bury, unbury, make-due, reset; ``rating`` 0) on ``card_ids``."""

    card_id: str
    rating: int
    reviewed_at: datetime | None
    action: str = "grade"
    card_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReviewEntry:
    """One row of a card's history, or of ``review_logs()``."""

    log_id: int
    card_id: str
    pack: str
    section: str
    rating: int
    reviewed_at: datetime
    duration_ms: int | None
    state_before: Phase
    state_after: Phase
    stability_after: float | None
    difficulty_after: float | None
    due_after: datetime
    scheduled_days: float
    elapsed_days: float | None
    session_id: int | None


@dataclass(frozen=True)
class CardInfo:
    """Everything ``drill study``'s card-info panel shows."""

    card_id: str
    pack: str
    section: str
    retired: bool
    kind: Phase
    step: int | None
    stability: float | None
    difficulty: float | None
    retrievability: float | None  # at the ``now`` passed in (None for new cards)
    due: datetime | None
    last_review: datetime | None
    reps: int
    lapses: int
    suspended: bool
    buried_until: datetime | None
    leech: bool
    history: list[ReviewEntry] = field(default_factory=list)
    flag: int = NO_FLAG  # FLAGS: 0 none, 1-7 Anki's colours
    marked: bool = False


@dataclass(frozen=True)
class BrowseRow:
    card_id: str
    pack: str
    section: str
    kind: Phase
    due: datetime | None
    stability: float | None
    difficulty: float | None
    reps: int
    lapses: int
    suspended: bool
    buried: bool
    leech: bool
    flag: int = NO_FLAG
    marked: bool = False


@dataclass(frozen=True)
class QuizAnswerRecord:
    """One answer of a quiz attempt, as the quiz screen records it."""

    item_id: str
    kind: str  # "chapter" or "generated"
    chosen: str | None  # None when time ran out
    correct: bool
    timed_out: bool
    duration_ms: int | None
    answered_at: datetime
