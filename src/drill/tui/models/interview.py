"""The interview rubric, apart from any screen: a bank card's key points and the section's traps, ticked by the
learner, and the FSRS grade proposed from them (the learner confirms or changes it before anything is saved).

Proposed grade from coverage = points ticked / points (thresholds in `Thresholds`, documented and overridable):

- coverage ≥ ``easy`` (default 1.0) → Easy
- coverage ≥ ``good`` (default 0.75) → Good
- coverage ≥ ``hard`` (default 0.4) → Hard
- below → Again

Each trap hit lowers the proposal by one grade (never below Again): an answer that states a pitfall as fact is
not a covered answer. Pure Python: no textual, no fsrs (grades are their numbers 1–4, as `drill.srs.Rating`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.errors import InputError

AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4


@dataclass(frozen=True)
class Thresholds:
    easy: float = 1.0
    good: float = 0.75
    hard: float = 0.4

    def __post_init__(self) -> None:
        if not 0.0 <= self.hard <= self.good <= self.easy <= 1.0:
            raise InputError(
                f"rubric thresholds must satisfy 0 <= hard <= good <= easy <= 1, got "
                f"hard={self.hard}, good={self.good}, easy={self.easy}"
            )


@dataclass
class Rubric:
    """One question's rubric: the card's points (verbatim clauses) and the section's pitfalls as traps."""

    card_id: str
    points: tuple[str, ...]
    traps: tuple[str, ...] = ()
    covered: set[int] = field(default_factory=set)
    hit: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not self.points:
            raise InputError(f"card {self.card_id} has no points: its rubric would be empty")

    def toggle_point(self, index: int) -> None:
        self._toggle(self.covered, index, len(self.points), "point")

    def toggle_trap(self, index: int) -> None:
        self._toggle(self.hit, index, len(self.traps), "trap")

    @staticmethod
    def _toggle(ticked: set[int], index: int, size: int, what: str) -> None:
        if not 0 <= index < size:
            raise InputError(f"no {what} {index + 1} (there are {size})")
        ticked.symmetric_difference_update({index})

    @property
    def coverage(self) -> float:
        return len(self.covered) / len(self.points)

    def missed(self) -> list[str]:
        return [p for i, p in enumerate(self.points) if i not in self.covered]

    def proposed_grade(self, thresholds: Thresholds | None = None) -> int:
        return propose_grade(self.coverage, len(self.hit), thresholds)


def propose_grade(coverage: float, traps_hit: int = 0, thresholds: Thresholds | None = None) -> int:
    """The grade the rubric suggests for ``coverage`` in [0, 1] with ``traps_hit`` traps (see the module text)."""
    t = thresholds or Thresholds()
    if not 0.0 <= coverage <= 1.0:
        raise InputError(f"coverage must be between 0 and 1, got {coverage}")
    if coverage >= t.easy:
        grade = EASY
    elif coverage >= t.good:
        grade = GOOD
    elif coverage >= t.hard:
        grade = HARD
    else:
        grade = AGAIN
    return max(AGAIN, grade - traps_hit)
