"""The scheduling state of one card, and the outcome of grading it: the types the store persists.

Representation (what the store keeps in its columns):

- ``CardState.state`` is a :class:`Phase` (a ``StrEnum``: ``"new"``, ``"learning"``, ``"review"``,
  ``"relearning"``; it compares equal to those strings, so a plain string column holds it).
  py-fsrs has no "new" state: a never-reviewed card is ``State.Learning`` with step 0 and stability None.
  We keep ``"new"`` explicitly so counts and daily limits can tell "never seen" from "in learning";
  :meth:`CardState.to_fsrs` maps it to what py-fsrs expects.
- ``step`` is the learning/relearning step index (None in review; 0 for new cards).
- ``stability`` / ``difficulty`` are None until the first grade.
- ``due`` and ``last_review`` are timezone-aware UTC datetimes (``as_utc`` normalises naive ones, which
  SQLite hands back, by treating them as UTC).
- ``reps`` (grades given) and ``lapses`` (Again on a card in review) are counted here: fsrs 6 tracks neither.

py-fsrs is imported only inside the functions that need it (it costs ~60 ms; nothing heavy behind it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING

from drill.errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    import fsrs


class Phase(StrEnum):
    NEW = "new"
    LEARNING = "learning"
    REVIEW = "review"
    RELEARNING = "relearning"


class Grade(IntEnum):
    """The four answers, numbered as py-fsrs (and Anki) number them."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4


GRADES: tuple[Grade, ...] = tuple(Grade)


def as_utc(moment: datetime) -> datetime:
    """An aware UTC datetime. Naive datetimes are taken to be UTC (SQLite returns them naive)."""
    if not isinstance(moment, datetime):
        raise TypeError(f"expected a datetime, got {type(moment).__name__}")
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _as_utc_or_none(moment: datetime | None) -> datetime | None:
    return None if moment is None else as_utc(moment)


def to_grade(rating: object) -> Grade:
    """Validate a rating (1 Again, 2 Hard, 3 Good, 4 Easy; ints, Grade or fsrs.Rating) -> Grade."""
    if isinstance(rating, bool) or not isinstance(rating, int):
        raise InputError(f"rating must be 1 (Again), 2 (Hard), 3 (Good) or 4 (Easy), got {rating!r}")
    try:
        return Grade(int(rating))
    except ValueError:
        raise InputError(
            f"rating must be 1 (Again), 2 (Hard), 3 (Good) or 4 (Easy), got {rating!r}"
        ) from None


@dataclass(frozen=True, slots=True)
class CardState:
    state: Phase = Phase.NEW
    step: int | None = 0
    stability: float | None = None
    difficulty: float | None = None
    due: datetime = field(default_factory=lambda: datetime.now(UTC))
    last_review: datetime | None = None
    reps: int = 0
    lapses: int = 0

    def __post_init__(self) -> None:
        # Normalise what the store hands back: plain strings, naive datetimes.
        object.__setattr__(self, "state", Phase(self.state))
        object.__setattr__(self, "due", as_utc(self.due))
        object.__setattr__(self, "last_review", _as_utc_or_none(self.last_review))

    @property
    def is_new(self) -> bool:
        return self.state is Phase.NEW

    def to_fsrs(self, card_id: int = 0) -> fsrs.Card:
        """The py-fsrs card for this state (card_id is irrelevant to scheduling)."""
        from fsrs import Card, State

        if self.state is Phase.NEW:
            return Card(card_id=card_id, state=State.Learning, step=0, due=self.due)
        fsrs_state = {
            Phase.LEARNING: State.Learning,
            Phase.REVIEW: State.Review,
            Phase.RELEARNING: State.Relearning,
        }[self.state]
        return Card(
            card_id=card_id,
            state=fsrs_state,
            step=self.step,
            stability=self.stability,
            difficulty=self.difficulty,
            due=self.due,
            last_review=self.last_review,
        )

    @classmethod
    def from_fsrs(cls, card: fsrs.Card, *, reps: int, lapses: int) -> CardState:
        """Our state from a py-fsrs card; reps/lapses come from us (fsrs doesn't count them)."""
        from fsrs import State

        if card.state == State.Learning and card.last_review is None and card.stability is None:
            phase = Phase.NEW
        else:
            phase = {
                State.Learning: Phase.LEARNING,
                State.Review: Phase.REVIEW,
                State.Relearning: Phase.RELEARNING,
            }[State(card.state)]
        return cls(
            state=phase,
            step=card.step,
            stability=card.stability,
            difficulty=card.difficulty,
            due=card.due,
            last_review=card.last_review,
            reps=reps,
            lapses=lapses,
        )


def new_card_state(now: datetime) -> CardState:
    """A never-reviewed card, due at ``now``."""
    return CardState(state=Phase.NEW, step=0, due=as_utc(now))


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    """One grade: everything the review-log row needs, and ``before`` so undo restores the card exactly."""

    before: CardState
    after: CardState
    rating: Grade
    reviewed_at: datetime  # aware UTC
    interval: timedelta  # after.due - reviewed_at (fuzz included)
    elapsed_days: float | None  # since the previous review; None for a new card
    is_lapse: bool  # Again on a card that was in review

    @property
    def scheduled_days(self) -> float:
        return self.interval.total_seconds() / 86400.0

    @property
    def stability(self) -> float | None:
        return self.after.stability

    @property
    def difficulty(self) -> float | None:
        return self.after.difficulty

    @property
    def due(self) -> datetime:
        return self.after.due


__all__ = [
    "GRADES",
    "UTC",
    "CardState",
    "Grade",
    "Phase",
    "ReviewOutcome",
    "as_utc",
    "new_card_state",
    "to_grade",
]
