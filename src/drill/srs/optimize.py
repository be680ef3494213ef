"""Fit the learner's own FSRS-6 weights from their review history (``drill optimize``) with fsrs-rs.

fsrs-rs (the ``fsrs-rs-python`` wheel) is the optimizer Anki itself runs; drill hands it what Anki's
``compute_params`` hands it (rslib/src/scheduler/fsrs/params.rs, ``fsrs_items_for_training`` and
``reviews_for_fsrs`` with ``training = true``):

- each card's grades from the first of its last run of learning grades (a grade given while the card was
  new or learning; a card reset to new starts a new run, and what came before is dropped); a card with no
  learning grade is left out;
- ``delta_t`` is the number of study days since the card's previous grade (the store records each grade's
  study day, counted from ``day_starts_at`` as Anki counts from its rollover hour): grades on the same study
  day are 0 days apart;
- one training item per grade after the card's first, holding the card's grades up to it, kept only when it
  came on a later study day than the grade before (``delta_t > 0``);
- the items in the order their last grades were given.

fsrs-rs returns its default weights when fewer than 8 items remain after its outlier filter, and fits only
the four initial stabilities below 64 (training.rs): drill refuses below 64 and says how many there are. After
the fit, as Anki does, the fitted weights are kept only if they predict the history better (RMSE over bins)
than the learner's current ones, and with more than one relearning step the short-term weights are frozen
when the fit would let a relearning step raise stability.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from drill.errors import DrillError

MIN_TRAINING_ITEMS = 64  # fsrs-rs training.rs: fewer (after its outlier filter) fits only w[0..4]
LEARNING_STATES = frozenset({"new", "learning"})  # Anki's RevlogReviewKind::Learning


class NotEnoughReviews(DrillError):
    """Too little history for fsrs-rs to fit the weights (the message gives the counts)."""

    def __init__(self, message: str, *, usable: int, total: int) -> None:
        super().__init__(message)
        self.usable = usable
        self.total = total


# One grade as the store hands it: (rating 1-4, study day number, state before the grade, order key).
# The order key sorts grades in the order they were given (any comparable value).
Grade = tuple[int, int, str, object]


@dataclass(frozen=True)
class FitResult:
    parameters: tuple[float, ...]  # what to use: the fit, or the current weights when the fit is no better
    fitted: tuple[float, ...]  # fsrs-rs's own result
    kept_current: bool  # the fit did not beat the current weights (as Anki, which then keeps them)
    total_reviews: int  # every grade read
    items: int  # fsrs-rs training items (grades a study day or more after the card's previous)
    cards: int  # cards with at least one training item
    log_loss_before: float  # with the current weights
    log_loss_after: float  # with ``parameters``
    rmse_before: float
    rmse_after: float


def card_sequence(grades: Sequence[Grade]) -> tuple[list[tuple[int, int]], list[tuple[object, int]]]:
    """One card's (rating, delta_t) steps as fsrs-rs gets them, and its training items as (order key of the
    item's last grade, number of steps in the item). ``grades`` are in review order."""
    start = None
    for index in range(len(grades) - 1, -1, -1):
        if grades[index][2] in LEARNING_STATES:
            start = index
        elif start is not None:
            break
    if start is None:
        return [], []
    kept = grades[start:]
    steps = [(int(kept[0][0]), 0)]
    items = []
    previous = kept[0][1]
    for rating, day, _state, key in kept[1:]:
        delta = int(day - previous)
        previous = day
        steps.append((int(rating), delta))
        if delta > 0:
            items.append((key, len(steps)))
    return steps, items


def training_items(cards: Iterable[Sequence[Grade]], progress: Callable[[int], None] | None = None):
    """fsrs-rs FSRSItems for these cards' grades (one sequence per card), in the order of their last
    grades; also (grades read, cards with an item). ``progress(n)`` is told each card's grade count."""
    from array import array

    import numpy as np
    from fsrs_rs_python import FSRSItem, FSRSReview

    made: list = []  # the items in the order they are made, and beside them their order keys:
    firsts: list = []  # per card: (index in made of its first item, how many items it has)
    keys = array("q")  # the store's keys are whole numbers, 8 bytes each (a (key, item) tuple was ~100)
    other: list | None = None  # keys of any other comparable kind
    total = cards_used = 0
    for grades in cards:
        total += len(grades)
        steps, ends = card_sequence(grades)
        if ends:
            cards_used += 1
            reviews = [FSRSReview(rating, delta) for rating, delta in steps]
            firsts.append((len(made), len(ends)))
            for key, count in ends:
                made.append(FSRSItem(reviews[:count]))
                if other is None:
                    try:
                        keys.append(key)  # type: ignore[arg-type]
                        continue
                    except (TypeError, OverflowError):
                        other = list(keys)
                other.append(key)
        if progress is not None:
            progress(len(grades))
    order: Any
    if other is None:
        order = np.argsort(np.frombuffer(keys, dtype=np.int64), kind="stable")
    else:
        order = sorted(range(len(other)), key=other.__getitem__)
    items = TrainingItems(made[i] for i in order)
    place = np.empty(len(made), dtype=np.int64)  # made's index -> its place among the sorted items
    place[np.asarray(order, dtype=np.int64)] = np.arange(len(made), dtype=np.int64)
    items.firsts = sorted((int(place[i]), made[i], count) for i, count in firsts)
    return items, total, cards_used


class TrainingItems(list):
    """``training_items``'s result: fsrs-rs's items in order, and ``firsts``: per card, (place of its first
    item, that item, how many items the card has). A card's every item begins with its first one."""

    firsts: list = []


def usable_items(items: list) -> int:
    """How many items fsrs-rs trains on after its outlier filter (training.rs ``prepare_training_data``);
    0 when they are only first reviews, which fit nothing but the initial stabilities.

    The filter keeps or drops a training item by its beginning (the first rating and the days to the first
    review a day or more later: the card's first item), so for ``training_items``'s result it is asked about
    each card's first item only and each kept one counts its card's items — the same count without fsrs-rs
    copying every item (tests/srs/test_srs_optimize.py compares the two)."""
    from fsrs_rs_python import filter_outlier

    firsts = getattr(items, "firsts", None)
    if not firsts:
        first = [item for item in items if item.long_term_review_cnt() == 1]
        first_kept, train = filter_outlier(first, items)
        return 0 if len(train) == len(first_kept) else len(train)
    first = [item for _place, item, _count in firsts]
    first_kept, kept = filter_outlier(first, first)  # kept: those of ``first`` it keeps, in order
    usable = j = 0
    for item, (_place, _item, count) in zip(first, firsts, strict=True):
        if j < len(kept) and _same(kept[j], item):
            usable += count
            j += 1
    return 0 if usable == len(first_kept) else usable


def _same(a, b) -> bool:
    return a.long_term_review_cnt() == b.long_term_review_cnt() and [repr(r) for r in a.reviews] == [
        repr(r) for r in b.reviews
    ]


def not_enough_message(usable: int, total: int) -> str:
    from drill.i18n import _

    return _(
        "`drill optimize` needs {needed} reviews that fsrs-rs can learn from (a grade on a later study day "
        "than the card's previous one, after fsrs-rs sets outliers aside); you have {usable} ({total} grades "
        "in all). Keep reviewing and try again."
    ).format(needed=MIN_TRAINING_ITEMS, usable=usable, total=total)


def require_enough(items: list, total: int) -> int:
    usable = usable_items(items)
    if usable < MIN_TRAINING_ITEMS:
        raise NotEnoughReviews(not_enough_message(usable, total), usable=usable, total=total)
    return usable


def within_bounds(weights: Iterable[float]) -> tuple[float, ...]:
    """fsrs-rs clips to FSRS's bounds in 32-bit floats (0.8 comes back as 0.800000012): clip to py-fsrs's
    64-bit bounds, which the scheduler checks."""
    from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

    return tuple(
        min(max(float(w), low), high)
        for w, low, high in zip(weights, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
    )


def compute(items: list, relearning_steps: int, *, enable_short_term: bool = True) -> tuple[float, ...]:
    """fsrs-rs's fit of these items, as Anki calls it (default training configuration)."""
    from fsrs_rs_python import FSRS

    return tuple(
        float(w)
        for w in FSRS([]).compute_parameters(
            items, enable_short_term=enable_short_term, num_relearning_steps=relearning_steps
        )
    )


def _short_term_raises_stability(weights: Sequence[float], relearning_steps: int) -> bool:
    """Anki's check (params.rs): does a lapse followed by the relearning steps end above where it began?"""
    from fsrs_rs_python import FSRS, MemoryState

    model = FSRS(list(weights))
    memory = model.next_states(MemoryState(1.0, 1.0), 0.9, 2).again.memory
    for _ in range(relearning_steps):
        memory = model.next_states(memory, 0.9, 0).good.memory
    return memory.stability > 1.0


RMSE_NOISE = 1e-6  # float32 noise between two fits of the same items (see fit)


def fit(
    items: list,
    *,
    total_reviews: int,
    cards: int,
    current: Sequence[float] | None = None,
    relearning_steps: int = 1,
) -> FitResult:
    """Fit FSRS-6 weights to ``items`` (from ``training_items``); NotEnoughReviews below fsrs-rs's minimum."""
    from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS

    require_enough(items, total_reviews)
    fitted = compute(items, relearning_steps)
    if relearning_steps > 1 and _short_term_raises_stability(fitted, relearning_steps):
        fitted = compute(items, relearning_steps, enable_short_term=False)
    fitted = within_bounds(fitted)
    before_weights = tuple(current) if current else tuple(DEFAULT_PARAMETERS)
    before = FSRS(list(before_weights)).evaluate(items)
    after = FSRS(list(fitted)).evaluate(items)
    # fsrs-rs trains in float32 over threads: two fits of the same items differ near 1e-8 in RMSE, so a fit
    # only beats the current weights when it is lower by more than that noise (else Anki's rule keeps them)
    kept = before.rmse_bins <= after.rmse_bins + RMSE_NOISE
    chosen = before_weights if kept else fitted
    final = before if kept else after
    return FitResult(
        parameters=tuple(float(w) for w in chosen),
        fitted=fitted,
        kept_current=kept,
        total_reviews=total_reviews,
        items=len(items),
        cards=cards,
        log_loss_before=float(before.log_loss),
        log_loss_after=float(final.log_loss),
        rmse_before=float(before.rmse_bins),
        rmse_after=float(final.rmse_bins),
    )


__all__ = [
    "MIN_TRAINING_ITEMS",
    "FitResult",
    "Grade",
    "NotEnoughReviews",
    "card_sequence",
    "compute",
    "fit",
    "not_enough_message",
    "require_enough",
    "training_items",
    "usable_items",
    "within_bounds",
]
