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

import collections.abc
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from drill.errors import DrillError

MIN_TRAINING_ITEMS = 64  # fsrs-rs training.rs: fewer (after its outlier filter) fits only w[0..4]
LEARNING_STATES = frozenset({"new", "learning"})  # Anki's RevlogReviewKind::Learning
# The most steps (every item's reviews, summed) whose items the fit holds as a list for its three passes: ~10
# bytes a step (measured), so ~80 MB at most. 200k grades have 5.5M steps (52 MB); at 2M grades, ~60M steps
# (~600 MB) are made as fsrs-rs reads them, pass after pass, so they are whole only in fsrs-rs's own copy.
HELD_STEPS = 8_000_000


class NotEnoughReviews(DrillError):
    """Too little history for fsrs-rs to fit the weights (the message gives the counts)."""

    def __init__(self, message: str, *, usable: int, total: int) -> None:
        super().__init__(message)
        self.usable = usable
        self.total = total


# One grade as the store hands it, every grade of the learner in the order given: (card id, rating 1-4, study
# day number, state before the grade).
Grade = tuple[object, int, int, str]


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


def training_items(grades: Iterable[Grade], progress: Callable[[int], None] | None = None):
    """fsrs-rs's training items for these grades (every grade, in the order given), in the order of their last
    grades, as a ``TrainingItems``; also (grades read, cards with an item). ``progress(n)`` is told of the
    grades read, a few thousand at a time.

    One pass in review order: a card's steps start again at the first grade of each run of learning grades (so
    what is kept at the end is from the first of its last run), and a grade on a later study day than the
    card's previous one ends an item, in review order; an item made before its card began another run is
    dropped at the end."""
    from array import array

    from fsrs_rs_python import FSRSReview

    learning = LEARNING_STATES
    # Per card: [its run's number, the study day of its previous grade, whether that grade was a learning one,
    # the run's steps packed as rating (1-4) + 8 * delta_t]. Small objects kept through the read, all let go
    # after it (a Python object kept into the fit would hold the rows' freed pages: at 2M grades 14 MB).
    cards: dict[object, list] = {}
    runs = 0
    made = array("q")  # per item, in review order: its run's number << 32 | its number of steps
    total = 0
    for card, rating, day, state in grades:
        total += 1
        if not total & 4095 and progress is not None:
            progress(4096)
        now = cards.get(card)
        if state in learning:
            if now is None or not now[2]:  # a run of learning grades begins: what came before is dropped
                cards[card] = [runs, day, True, array("q", (rating,))]
                runs += 1
                continue
        elif now is None:  # not learnt yet: nothing to keep
            continue
        else:
            now[2] = False
        delta = day - now[1]
        now[1] = day
        steps = now[3]
        steps.append(rating + 8 * delta)
        if delta > 0:
            made.append(now[0] << 32 | len(steps))
    if progress is not None and total & 4095:
        progress(total & 4095)
    final = {run: steps for run, _day, _learning, steps in cards.values()}  # each card's last run
    del cards
    # The items of the cards' last runs, in review order; every item of a card starts where its steps do.
    packed = array("q")  # the steps of the cards with an item, card after card
    starts, lengths = array("i"), array("i")
    first_places, counts = array("q"), array("i")  # per card: its first item's place, its number of items
    at: dict[int, tuple[int, int]] = {}  # run -> (where its steps start, its card's place in counts)
    for item in made:
        run = item >> 32
        found = at.get(run)
        if found is None:
            steps = final.get(run)
            if steps is None:  # its card began another run after it
                continue
            found = at[run] = (len(packed), len(counts))
            packed.extend(steps)
            first_places.append(len(starts))
            counts.append(0)
        starts.append(found[0])
        lengths.append(item & 0xFFFFFFFF)
        counts[found[1]] += 1
    del made, final, at
    # One FSRSReview per (rating, delta_t), shared by the cards, in one list of every card's steps (no object
    # per card); a delta_t fsrs-rs cannot hold (below 0) fails here as FSRSReview(rating, delta_t) does.
    pool = {code: FSRSReview(code & 7, code >> 3) for code in set(packed)}
    steps_list = list(map(pool.__getitem__, packed))
    del packed, pool
    return TrainingItems(steps_list, starts, lengths, first_places, counts), total, len(counts)


class TrainingItems(collections.abc.Sequence):
    """``training_items``'s result: fsrs-rs's FSRSItems in order, held as the cards' steps (FSRSReviews in one
    list, card after card) and per item where its card's steps start and its length. fsrs-rs copies the items on every
    call; here each item is made as fsrs-rs (or anyone) reads it and let go once copied, so the history's
    items are whole in memory only once, in fsrs-rs (at 2M grades a list of FSRSItems held ~600 MB beside
    fsrs-rs's own copy).

    ``firsts()``: per card, (its first item, how many items the card has), in the order of those first items.
    A card's every item begins with its first one. ``usable``: ``usable_items``'s count, kept once counted (the
    command refuses before it says "Fitting", and ``fit`` checks again)."""

    def __init__(self, steps: list, starts: Any, lengths: Any, first_places: Any, counts: Any) -> None:
        self._steps, self._starts, self._lengths = steps, starts, lengths
        self._first_places, self._counts = first_places, counts
        self.usable: int | None = None

    def held(self) -> Sequence:
        """The items for the fit's passes (fsrs-rs's fit, then the two evaluations): below ``HELD_STEPS`` made
        once, as a list; above it, this sequence, which makes them anew on each pass and lets them go (each
        pass then costs ~0.05 s of CPU per million steps in making them)."""
        return list(self) if sum(self._lengths) <= HELD_STEPS else self

    def firsts(self) -> Iterator[tuple[Any, int]]:
        for place, count in zip(self._first_places, self._counts, strict=True):
            yield self[place], count

    def __len__(self) -> int:
        return len(self._starts)

    def __iter__(self) -> Iterator[Any]:
        from fsrs_rs_python import FSRSItem

        steps = self._steps
        for start, length in zip(self._starts, self._lengths, strict=True):
            yield FSRSItem(steps[start : start + length])

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list: ...
    def __getitem__(self, index: int | slice) -> Any:
        from fsrs_rs_python import FSRSItem

        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        start = self._starts[index]
        return FSRSItem(self._steps[start : start + self._lengths[index]])


def usable_items(items: Sequence) -> int:
    """How many items fsrs-rs trains on after its outlier filter (training.rs ``prepare_training_data``);
    0 when they are only first reviews, which fit nothing but the initial stabilities.

    The filter keeps or drops a training item by its beginning (the first rating and the days to the first
    review a day or more later: the card's first item), so for ``training_items``'s result it is asked about
    each card's first item only and each kept one counts its card's items — the same count without fsrs-rs
    copying every item (tests/srs/test_srs_optimize.py compares the two)."""
    from fsrs_rs_python import filter_outlier

    if not isinstance(items, TrainingItems):
        first = [item for item in items if item.long_term_review_cnt() == 1]
        first_kept, train = filter_outlier(first, items)
        return 0 if len(train) == len(first_kept) else len(train)
    if items.usable is None:
        items.usable = _usable_of_firsts(items)
    return items.usable


def _usable_of_firsts(items: TrainingItems) -> int:
    from fsrs_rs_python import filter_outlier

    firsts = list(items.firsts())
    first = [item for item, _count in firsts]
    first_kept, kept = filter_outlier(first, first)  # kept: those of ``first`` it keeps, in order
    usable = j = 0
    for item, count in firsts:
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


def compute(items: Sequence, relearning_steps: int, *, enable_short_term: bool = True) -> tuple[float, ...]:
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
    passes = items.held() if isinstance(items, TrainingItems) else items
    fitted = compute(passes, relearning_steps)
    if relearning_steps > 1 and _short_term_raises_stability(fitted, relearning_steps):
        fitted = compute(passes, relearning_steps, enable_short_term=False)
    fitted = within_bounds(fitted)
    before_weights = tuple(current) if current else tuple(DEFAULT_PARAMETERS)
    before = FSRS(list(before_weights)).evaluate(passes)
    after = FSRS(list(fitted)).evaluate(passes)
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
    "compute",
    "fit",
    "not_enough_message",
    "require_enough",
    "training_items",
    "usable_items",
    "within_bounds",
]
