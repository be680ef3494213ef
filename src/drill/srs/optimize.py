"""Fit the learner's own FSRS-6 weights from their review history (``drill optimize``).

Uses py-fsrs's Optimizer, which needs the ``fsrs[optimizer]`` extra (torch, pandas, tqdm, numpy); drill
exposes it as ``pip install 'drill[optimizer]'``. Nothing heavy is imported until a fit is asked for.

py-fsrs only learns from reviews made at least a day after the card's previous review (among each card's
first 64 reviews), and it needs a full mini-batch of them (512); with fewer it silently returns its defaults.
We count them first and say how many more are needed instead.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from drill.errors import DrillError
from drill.srs.state import as_utc, to_grade

# fsrs.optimizer.mini_batch_size and max_seq_len (tests check these against the installed fsrs).
MIN_REVIEWS = 512
MAX_SEQ_LEN = 64
EXTRA_HINT = "pip install 'drill[optimizer]'"
_EXTRA_MODULES = ("torch", "pandas", "tqdm", "numpy")


class OptimizerMissing(DrillError):
    """The optimizer extra is not installed."""


class NotEnoughReviews(DrillError):
    """Too little history to fit parameters (the message says how many more reviews are needed)."""

    def __init__(self, message: str, *, countable: int, total: int) -> None:
        super().__init__(message)
        self.countable = countable
        self.total = total


class ReviewRecord(Protocol):
    """What a fit needs from a review-log row (drill.store's ReviewEntry has these)."""

    card_id: str | int
    rating: int
    reviewed_at: datetime
    duration_ms: int | None


@dataclass(frozen=True)
class FitResult:
    parameters: tuple[float, ...]
    total_reviews: int  # every grade given
    countable_reviews: int  # the ones py-fsrs learns from
    cards: int
    loss_before: float | None  # py-fsrs's log loss with its default weights
    loss_after: float | None  # ... and with the fitted weights


def missing_modules() -> list[str]:
    return [name for name in _EXTRA_MODULES if importlib.util.find_spec(name) is None]


def optimizer_available() -> bool:
    return not missing_modules()


def _histories(records: Iterable[ReviewRecord]) -> dict[str | int, list[tuple[datetime, int, int | None]]]:
    by_card: dict[str | int, list[tuple[datetime, int, int | None]]] = {}
    for record in records:
        by_card.setdefault(record.card_id, []).append(
            (as_utc(record.reviewed_at), int(to_grade(record.rating)), record.duration_ms)
        )
    for history in by_card.values():
        history.sort(key=lambda item: item[0])
    return by_card


def _count_countable(by_card) -> int:
    count = 0
    for history in by_card.values():
        first = history[:MAX_SEQ_LEN]
        count += sum(1 for prev, cur in zip(first, first[1:], strict=False) if (cur[0] - prev[0]).days > 0)
    return count


def countable_reviews(records: Iterable[ReviewRecord]) -> int:
    """How many of these reviews py-fsrs's optimizer learns from."""
    return _count_countable(_histories(records))


def not_enough_message(countable: int, total: int) -> str:
    return (
        f"`drill optimize` needs at least {MIN_REVIEWS} reviews made a day or more after the card's "
        f"previous review (py-fsrs's minimum); you have {countable} of those ({total} grades in all). "
        f"Keep reviewing: {MIN_REVIEWS - countable} more needed."
    )


def require_enough(records: list[ReviewRecord]) -> int:
    """The countable reviews in ``records``; NotEnoughReviews (saying how many more) below MIN_REVIEWS."""
    countable = countable_reviews(records)
    if countable < MIN_REVIEWS:
        raise NotEnoughReviews(
            not_enough_message(countable, len(records)), countable=countable, total=len(records)
        )
    return countable


def fit_parameters(records: Iterable[ReviewRecord]) -> FitResult:
    """Fit FSRS-6 weights to these review-log records. Deterministic (py-fsrs seeds its shuffle)."""
    records = list(records)
    countable = require_enough(records)
    by_card = _histories(records)
    missing = missing_modules()
    if missing:
        raise OptimizerMissing(
            f"`drill optimize` needs the optimizer extra ({', '.join(missing)} not installed): {EXTRA_HINT}"
        )

    from fsrs import Rating, ReviewLog
    from fsrs.optimizer import Optimizer
    from fsrs.scheduler import DEFAULT_PARAMETERS

    # py-fsrs orders card histories by integer card id (it expects creation timestamps): number the cards
    # in the order they were first reviewed.
    first_seen = sorted(by_card, key=lambda card: by_card[card][0][0])
    logs = [
        ReviewLog(card_id=number, rating=Rating(rating), review_datetime=when, review_duration=duration)
        for number, card in enumerate(first_seen, start=1)
        for when, rating, duration in by_card[card]
    ]
    optimizer = Optimizer(logs)
    parameters = tuple(float(w) for w in optimizer.compute_optimal_parameters(verbose=False))
    loss_before = loss_after = None
    compute_loss = getattr(optimizer, "_compute_batch_loss", None)  # private in py-fsrs: report it if present
    if callable(compute_loss):
        try:
            loss_before = float(compute_loss(parameters=list(DEFAULT_PARAMETERS)))
            loss_after = float(compute_loss(parameters=list(parameters)))
        except Exception:  # noqa: BLE001 - a diagnostic only; the fit itself succeeded
            loss_before = loss_after = None
    return FitResult(
        parameters=parameters,
        total_reviews=len(records),
        countable_reviews=countable,
        cards=len(by_card),
        loss_before=loss_before,
        loss_after=loss_after,
    )


__all__ = [
    "EXTRA_HINT",
    "MIN_REVIEWS",
    "require_enough",
    "FitResult",
    "NotEnoughReviews",
    "OptimizerMissing",
    "ReviewRecord",
    "countable_reviews",
    "fit_parameters",
    "missing_modules",
    "not_enough_message",
    "optimizer_available",
]
