"""The report's cards as columns: one row per card fetched once, then every per-card figure in numpy.

A collection can hold 100k cards. The report's own figures (cards per state, mastery and mean retrievability
per section, the forecast, the weakest and most-lapsed cards) are sums, counts and a top ten over the
columns, so no Python object is made per card for them. A ``CardFigure`` per card is built only when it is
listed: the top tens, or every card for the CSV and JSON exports (``figures``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from itertools import repeat
from typing import Any

import numpy as np

from drill.report.data import MASTERED_STABILITY_DAYS, RATINGS, STATES, CardFigure
from drill.srs import forgetting

# FSRS state codes (a card without a state row is new) and the shown-state codes, both indexes into STATES:
# the shown state is the FSRS state unless the card is suspended or retired.
NEW, LEARNING, REVIEW, RELEARNING, SUSPENDED, RETIRED = range(6)
STATE_CODES = {name: code for code, name in enumerate(STATES)}


@dataclass(frozen=True)
class CardTable:
    """One entry per card, in the collection's order (position, id)."""

    db_id: np.ndarray  # int64
    content_id: np.ndarray  # object (str)
    section_code: np.ndarray  # int64, an index into ``sections``
    sections: tuple[str, ...]
    retired: np.ndarray  # bool
    fsrs_state: np.ndarray  # int8: NEW, LEARNING, REVIEW or RELEARNING
    shown: np.ndarray  # int8: fsrs_state, or SUSPENDED / RETIRED
    stability: np.ndarray  # float64, NaN when none
    difficulty: np.ndarray  # float64, NaN when none
    due_raw: np.ndarray  # object: the database's values (parsed into datetimes only for listed cards)
    due_s: np.ndarray  # float64 seconds since 1970 (UTC), NaN when none
    last_s: np.ndarray  # float64 seconds since 1970 (UTC), NaN when never reviewed
    reps: np.ndarray  # int64
    lapses: np.ndarray  # int64
    first_reviews: np.ndarray  # int64, first-of-study-day grades (true retention), kept by the store
    first_passes: np.ndarray  # int64
    flag: np.ndarray  # int8: Anki's flag, 0 none
    marked: np.ndarray  # bool

    # Columns fetched, in this order, by ``from_rows``'s query (queries.Queries.card_table).
    COLUMNS = (
        "db_id",
        "content_id",
        "section",
        "retired",
        "state",
        "stability",
        "difficulty",
        "due",
        "last_review",
        "reps",
        "lapses",
        "suspended",
        "first_reviews",
        "first_passes",
        "flag",
        "marked",
    )

    @classmethod
    def from_rows(cls, rows: Sequence[tuple]) -> CardTable:
        n = len(rows)
        columns = list(zip(*rows, strict=True)) if rows else [()] * len(cls.COLUMNS)
        (
            db_id,
            content_id,
            section,
            retired,
            state,
            stability,
            difficulty,
            due,
            last_review,
            reps,
            lapses,
            suspended,
            first_reviews,
            first_passes,
            flag,
            marked,
        ) = columns
        # Codes by C-level look-ups (map over a dict), not a Python loop per card.
        present = set(section)
        names = sorted({s or "" for s in present})
        codes: dict[str | None, int] = {name: code for code, name in enumerate(names)}
        if None in present:
            codes[None] = codes[""]
        section_code = np.fromiter(map(codes.__getitem__, section), np.int64, n)
        fsrs_state = np.fromiter(map(STATE_CODES.get, state, repeat(NEW, n)), np.int8, n)
        retired_a = np.array(retired, dtype=bool).reshape(n)  # (None is False)
        shown = fsrs_state.copy()
        shown[np.array(suspended, dtype=bool).reshape(n)] = SUSPENDED
        shown[retired_a] = RETIRED
        return cls(
            db_id=np.array(db_id, dtype=np.int64).reshape(n),
            content_id=_objects(content_id),
            section_code=section_code,
            sections=tuple(names),
            retired=retired_a,
            fsrs_state=fsrs_state,
            shown=shown,
            stability=np.array(stability, dtype=np.float64).reshape(n),  # (None is NaN)
            difficulty=np.array(difficulty, dtype=np.float64).reshape(n),
            due_raw=_objects(due),
            due_s=epoch_seconds(list(due)),
            last_s=epoch_seconds(list(last_review)),
            reps=np.array(reps, dtype=np.int64).reshape(n),  # (the query coalesces these to 0)
            lapses=np.array(lapses, dtype=np.int64).reshape(n),
            first_reviews=np.array(first_reviews, dtype=np.int64).reshape(n),
            first_passes=np.array(first_passes, dtype=np.int64).reshape(n),
            flag=np.array(flag, dtype=np.int8).reshape(n),
            marked=np.array(marked, dtype=bool).reshape(n),
        )

    @classmethod
    def from_batches(cls, batches: Iterable[Sequence[tuple]]) -> CardTable:
        """``from_rows`` over rows that come a batch at a time (a streamed query): each batch becomes columns at
        once, so a million cards are never a million row objects; the sections are coded over all of them."""
        parts = [cls.from_rows(rows) for rows in batches]
        if len(parts) <= 1:
            return parts[0] if parts else cls.from_rows([])
        names = sorted({name for part in parts for name in part.sections})
        codes = {name: code for code, name in enumerate(names)}
        recoded = [
            replace(
                part, section_code=np.array([codes[n] for n in part.sections], np.int64)[part.section_code]
            )
            for part in parts
        ]
        return replace(
            parts[0],
            sections=tuple(names),
            **{name: np.concatenate([getattr(part, name) for part in recoded]) for name in _ARRAYS},
        )

    def __len__(self) -> int:
        return len(self.db_id)

    def where(self, mask: np.ndarray) -> CardTable:
        """The cards where ``mask`` holds, in the same order (sections keep their codes)."""
        return replace(self, **{name: getattr(self, name)[mask] for name in _ARRAYS})

    def in_sections(self, wanted: Callable[[str], bool]) -> np.ndarray:
        """A mask of the cards whose section satisfies ``wanted`` (asked once per section)."""
        chosen = np.array([wanted(s) for s in self.sections] or [False], dtype=bool)
        return chosen[self.section_code] if len(self) else np.zeros(0, dtype=bool)

    # -- figures over the columns ----------------------------------------------------------------------

    def retrievability(self, decay: float, now: datetime) -> np.ndarray:
        """R now for every card (NaN for a card never reviewed): drill.srs.forgetting's curve, with the time
        since the last review counted in whole days as py-fsrs counts it."""
        known = (self.fsrs_state != NEW) & (self.stability > 0) & ~np.isnan(self.last_s)  # (NaN > 0 is False)
        days = np.maximum(0.0, np.floor_divide(now.timestamp() - self.last_s[known], 86400.0))
        r = np.full(len(self), np.nan)
        r[known] = forgetting.retrievability(self.stability[known], days, decay)
        return r

    def by_state(self) -> dict[str, int]:
        counts = np.bincount(self.shown, minlength=len(STATES))
        return {name: int(counts[code]) for code, name in enumerate(STATES)}

    def per_section(self, mask: np.ndarray | None = None, weights: np.ndarray | None = None) -> np.ndarray:
        """Per section code: the number of cards (where ``mask``), or the sum of ``weights`` over them, summed
        in the cards' order."""
        codes, w = self.section_code, weights
        if mask is not None:
            codes = codes[mask]
            w = None if weights is None else weights[mask]
        return np.bincount(codes, weights=w, minlength=len(self.sections))

    def mastery_counts(self, r: np.ndarray) -> dict[str, np.ndarray]:
        """Per section code: cards, new, learning (+ relearning), review, mastered, out of rotation (suspended
        or retired), active, and the sum and count of R over active reviewed cards."""
        shown = self.shown
        active = shown < SUSPENDED
        with np.errstate(invalid="ignore"):
            mastered = (shown == REVIEW) & (self.stability >= MASTERED_STABILITY_DAYS)  # (NaN is not)
        has_r = active & ~np.isnan(r)
        return {
            "cards": self.per_section(),
            "new": self.per_section(shown == NEW),
            "learning": self.per_section((shown == LEARNING) | (shown == RELEARNING)),
            "review": self.per_section(shown == REVIEW),
            "mastered": self.per_section(mastered),
            "out": self.per_section(~active),
            "active": self.per_section(active),
            "sum_r": self.per_section(has_r, np.where(has_r, r, 0.0)),
            "n_r": self.per_section(has_r),
        }

    def scheduled(self) -> np.ndarray:
        """Cards in rotation with an FSRS schedule (not new, suspended or retired)."""
        return (self.shown >= LEARNING) & (self.shown <= RELEARNING)

    def due_counts(self, starts: Sequence[float]) -> tuple[int, list[int]]:
        """(cards due before ``starts[0]``, cards due in each [starts[i], starts[i+1])) over scheduled cards."""
        due = self.due_s[self.scheduled() & ~np.isnan(self.due_s)]
        bounds = np.asarray(starts, dtype=np.float64)
        overdue = int(np.count_nonzero(due < bounds[0]))
        upcoming = due[(due >= bounds[0]) & (due < bounds[-1])]
        days = np.searchsorted(bounds, upcoming, side="right") - 1
        return overdue, np.bincount(days, minlength=len(bounds) - 1).tolist()

    def weakest(self, r: np.ndarray, count: int) -> list[int]:
        """Indexes of the ``count`` scheduled cards least likely to be recalled (ties: more lapses, then id)."""
        chosen = np.flatnonzero(self.scheduled() & ~np.isnan(r))
        return self._top(chosen, (r, -self.lapses), count, r, lambda rv, lapses, cid: (rv, -lapses, cid))

    def most_lapsed(self, r: np.ndarray, count: int) -> list[int]:
        """Indexes of the ``count`` cards with the most lapses (ties: lower R, never reviewed last, then id)."""
        chosen = np.flatnonzero(self.lapses > 0)
        return self._top(
            chosen,
            (-self.lapses, np.where(np.isnan(r), 2.0, r)),
            count,
            r,
            lambda rv, lapses, cid: (-lapses, 2.0 if rv is None else rv, cid),
        )

    def _top(
        self, chosen: np.ndarray, numeric: tuple[np.ndarray, ...], count: int, r: np.ndarray, key
    ) -> list[int]:
        """The first ``count`` of ``chosen`` by ``key(R or None, lapses, id)``, whose leading elements order as
        the ``numeric`` columns do: numpy finds the count-th card by those, and only the cards up to it (its
        ties included) are sorted in Python, by the whole key."""
        if len(chosen) > count:
            columns = [column[chosen] for column in numeric]
            kth = np.lexsort(columns[::-1])[count - 1]  # (lexsort's last key is its primary one)
            before, tied = np.zeros(len(chosen), dtype=bool), np.ones(len(chosen), dtype=bool)
            for column in columns:
                before |= tied & (column < column[kth])
                tied &= column == column[kth]
            chosen = chosen[before | tied]
        keyed = [
            (key(None if rv != rv else rv, lapses, cid), i)
            for i, rv, lapses, cid in zip(
                chosen.tolist(),
                r[chosen].tolist(),
                self.lapses[chosen].tolist(),
                self.content_id[chosen].tolist(),
                strict=True,
            )
        ]
        keyed.sort()
        return [i for _, i in keyed[:count]]

    def figures(
        self,
        indexes: Sequence[int] | np.ndarray,
        r: np.ndarray,
        questions: dict[str, str],
        last_ratings: dict[int, int],
    ) -> list[CardFigure]:
        """A CardFigure for each card of ``indexes`` (every card for the exports; a top ten otherwise)."""
        at = np.asarray(indexes, dtype=np.int64)
        dues = timestamps(self.due_raw[at].tolist())
        sections = self.sections
        names = STATES
        get_question = questions.get
        get_rating = last_ratings.get
        ratings = RATINGS
        figure = CardFigure
        figures = []
        append = figures.append
        # Positional construction, names bound locally: for an export this loop runs once per card.
        for db_id, cid, code, fsrs, shown, stab, diff, due, rv, reps, lapses, flag, marked in zip(
            self.db_id[at].tolist(),
            self.content_id[at].tolist(),
            self.section_code[at].tolist(),
            self.fsrs_state[at].tolist(),
            self.shown[at].tolist(),
            self.stability[at].tolist(),
            self.difficulty[at].tolist(),
            dues,
            r[at].tolist(),
            self.reps[at].tolist(),
            self.lapses[at].tolist(),
            self.flag[at].tolist(),
            self.marked[at].tolist(),
            strict=True,
        ):
            if fsrs != NEW:
                rating = get_rating(db_id)
            else:
                rating = due = None
            append(
                figure(
                    cid,
                    sections[code],
                    get_question(cid, ""),
                    names[shown],
                    due,
                    None if stab != stab else stab,
                    None if diff != diff else diff,
                    None if rv != rv else rv,
                    reps,
                    lapses,
                    ratings.get(rating) if rating else None,
                    flag,
                    marked,
                )
            )
        return figures


_ARRAYS = (
    "db_id",
    "content_id",
    "section_code",
    "retired",
    "fsrs_state",
    "shown",
    "stability",
    "difficulty",
    "due_raw",
    "due_s",
    "last_s",
    "reps",
    "lapses",
    "first_reviews",
    "first_passes",
    "flag",
    "marked",
)


def _objects(values: Sequence[Any]) -> np.ndarray:
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return array


# Database timestamps: SQLite's stored text (fetched as text, parsed by numpy at once), or datetimes.


def timestamps(values: list) -> list[datetime | None]:
    """Aware UTC datetimes of database timestamps."""
    if isinstance(_first_value(values), datetime):
        return [utc(v) for v in values]
    naive = np.array([v if v is not None else "NaT" for v in values], dtype="datetime64[us]").astype(object)
    return [None if v is None else v.replace(tzinfo=UTC) for v in naive.tolist()]


def epoch_seconds(values: list) -> np.ndarray:
    """Seconds since 1970 (UTC) of database timestamps; NaN for None. The same float as
    ``datetime.timestamp()`` (the whole microseconds divided by 10**6)."""
    if isinstance(_first_value(values), datetime):
        return np.array([utc(v).timestamp() if v is not None else np.nan for v in values], dtype=np.float64)
    micros = np.array([v if v is not None else "NaT" for v in values], dtype="datetime64[us]")
    seconds = micros.astype(np.int64) / 1e6
    seconds[np.isnat(micros)] = np.nan
    return seconds


def utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _first_value(values: list):
    return next((v for v in values if v is not None), None)
