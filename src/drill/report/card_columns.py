"""Every card of a report as columns: what the CSV and JSON exports write, one row per card.

A collection can hold 100k cards. The exports used to build a ``CardFigure`` per card and then a dict or a row
from each; here each column is made once from the card table's arrays (numpy, then C-level ``map``s), and the
writers format rows straight from the columns. ``CardColumns`` still reads as a sequence of ``CardFigure`` for
callers that want objects (the top-ten lists, tests): ``cards[i]`` and iteration build them on demand.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from itertools import repeat
from json.encoder import encode_basestring  # the C encoder of one JSON string (with ensure_ascii=False)
from typing import Any

import numpy as np

from drill.report import sanitise
from drill.report.data import RATINGS, STATES, CardFigure


@dataclass(frozen=True)
class CardColumns:
    """One list per CardFigure field, every list one entry per card in the collection's order."""

    id: list[str]
    section: list[str]
    question: list[str]
    state: list[str]
    due: list[str | None]  # ISO 8601, aware UTC, always to the microsecond (iso_utc); None for a new card
    stability: list[float | None]
    difficulty: list[float | None]
    retrievability: list[float | None]
    reviews: list[int]
    lapses: list[int]
    last_rating: list[str | None]
    flag: list[int]
    marked: list[bool]

    @classmethod
    def of(cls, cards: Sequence[CardFigure]) -> CardColumns:
        """``cards`` as columns (themselves when they already are)."""
        if isinstance(cards, CardColumns):
            return cards
        values = {f.name: [getattr(card, f.name) for card in cards] for f in fields(cls)}
        values["due"] = [None if due is None else iso_utc(due) for due in values["due"]]
        return cls(**values)

    def __len__(self) -> int:
        return len(self.id)

    def __getitem__(self, i: int) -> CardFigure:
        due = self.due[i]
        return CardFigure(
            self.id[i],
            self.section[i],
            self.question[i],
            self.state[i],
            None if due is None else datetime.fromisoformat(due),
            self.stability[i],
            self.difficulty[i],
            self.retrievability[i],
            self.reviews[i],
            self.lapses[i],
            self.last_rating[i],
            self.flag[i],
            self.marked[i],
        )

    def __iter__(self) -> Iterator[CardFigure]:
        return (self[i] for i in range(len(self)))

    def sanitised(self) -> CardColumns:
        """The text columns through the output sanitiser (drill.report.sanitise); the same object when clean."""
        changes: dict[str, Any] = {  # (text columns only: typed loosely for replace's other fields)
            name: cleaned
            for name in ("id", "section", "question")
            if (cleaned := sanitise.texts(getattr(self, name))) is not getattr(self, name)
        }
        return replace(self, **changes) if changes else self

    def json_lines(self, start: int = 0, stop: int | None = None) -> list[str]:
        """Each card (of ``start:stop``) as one compact JSON object (keys in CardFigure's order), as the JSON
        report lists them: every column encoded at once, then each line joined from its pieces (C-level maps,
        no Python loop)."""
        text = encode_basestring
        part = slice(start, stop)
        columns = [
            map(text, self.id[part]),
            map(text, self.section[part]),
            map(text, self.question[part]),
            map(text, self.state[part]),
            ["null" if v is None else text(v) for v in self.due[part]],
            json_numbers(self.stability[part]),
            json_numbers(self.difficulty[part]),
            json_numbers(self.retrievability[part]),
            json_numbers(self.reviews[part]),
            json_numbers(self.lapses[part]),
            map(_RATINGS.__getitem__, self.last_rating[part]),
            json_numbers(self.flag[part]),
            json.dumps(self.marked[part])[1:-1].split(", ") if self.marked[part] else [],
        ]
        pieces: list = []
        for i, (f, column) in enumerate(zip(fields(self), columns, strict=True)):
            pieces += [repeat(("{" if i == 0 else ", ") + f'"{f.name}": '), column]
        pieces.append(repeat("}"))
        return list(map("".join, zip(*pieces, strict=False)))  # (the keys repeat without end)


_RATINGS = {None: "null", **{name: encode_basestring(name) for name in RATINGS.values()}}


def json_numbers(values: list) -> list[str]:
    """Each number (or None) of a column as JSON, by one call of json's C encoder over the whole column: a
    list of numbers encodes as ``[a, b, …]`` and no number's text holds ", "."""
    return json.dumps(values)[1:-1].split(", ") if values else []


def build(table, r: np.ndarray, questions: dict[str, str], last_ratings: dict[int, int]) -> CardColumns:
    """The columns of every card of ``table`` (a drill.report.card_table.CardTable), R from ``r``."""
    from drill.report.card_table import NEW

    n = len(table)
    reviewed = (table.fsrs_state != NEW).tolist()
    ids = table.content_id.tolist()
    names = np.array(table.sections or ("",), dtype=object)
    get_question = questions.get
    ratings = RATINGS.get
    get_rating = last_ratings.get
    return CardColumns(
        id=ids,
        section=names[table.section_code].tolist() if n else [],
        question=[get_question(cid, "") for cid in ids],
        state=np.array(STATES, dtype=object)[table.shown].tolist() if n else [],
        due=[d if seen else None for d, seen in zip(_iso(table.due_raw.tolist()), reviewed, strict=True)],
        stability=_floats(table.stability),
        difficulty=_floats(table.difficulty),
        retrievability=_floats(r),
        reviews=table.reps.tolist(),
        lapses=table.lapses.tolist(),
        last_rating=[
            ratings(get_rating(db_id)) if seen else None
            for db_id, seen in zip(table.db_id.tolist(), reviewed, strict=True)
        ],
        flag=table.flag.tolist(),
        marked=table.marked.tolist(),
    )


def _floats(column: np.ndarray) -> list[float | None]:
    return [None if v != v else v for v in column.tolist()]  # (NaN != NaN)


def _iso(values: list) -> list[str | None]:
    """Database timestamps as `iso_utc` of the aware UTC moment: SQLite's text parsed by numpy
    at once, PostgreSQL's datetimes one by one."""
    first = next((v for v in values if v is not None), None)
    if first is None:
        return [None] * len(values)
    if isinstance(first, datetime):
        return [
            None if v is None else iso_utc(v.replace(tzinfo=UTC) if v.tzinfo is None else v) for v in values
        ]
    micros = np.array([v if v is not None else "NaT" for v in values], dtype="datetime64[us]")
    text = np.datetime_as_string(micros, unit="us").tolist()
    return [None if t == "NaT" else t + "+00:00" for t in text]


def iso_utc(moment: datetime) -> str:
    """The one timestamp format of the machine-readable reports (CSV, JSON): ISO 8601 in UTC, always to the
    microsecond (``2026-05-01T08:00:00.000000+00:00``), so a reader such as pandas parses every value of a column
    with one format; ``datetime.isoformat()`` drops the fraction when it is zero."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")
