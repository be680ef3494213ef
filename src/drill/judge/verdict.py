"""The verdict on one typed answer: which key points it covers (with the evidence, character offsets into the
learner's own text) and which misconceptions it states.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from drill.judge import cues
from drill.judge.match import Answer, Hit, evaluate
from drill.judge.normalize import normalize

POINT_WINDOW = 2  # a key point may be stated across two neighbouring sentences
MISCONCEPTION_WINDOW = 1  # a misconception within one


@dataclass(frozen=True)
class Span:
    start: int  # offsets into the learner's text, [start, end)
    end: int
    text: str


@dataclass(frozen=True)
class PointVerdict:
    index: int  # 0-based, in the card's order
    covered: bool
    evidence: tuple[Span, ...] = ()


@dataclass(frozen=True)
class MisconceptionVerdict:
    id: str
    evidence: tuple[Span, ...]


@dataclass(frozen=True)
class Verdict:
    card_id: str
    points: tuple[PointVerdict, ...]
    misconceptions: tuple[MisconceptionVerdict, ...]

    @property
    def covered(self) -> set[int]:
        return {p.index for p in self.points if p.covered}

    @property
    def coverage(self) -> float:
        return len(self.covered) / len(self.points) if self.points else 0.0


class UnknownCard(KeyError):
    """The judge has no cues for this card."""


def has_cues(card_id: str) -> bool:
    return card_id in cues.POINTS


def judge(card_id: str, n_points: int, text: str, misconceptions: Sequence[str] = ()) -> Verdict:
    """Judge ``text`` against card ``card_id``'s ``n_points`` key points and the ``misconceptions`` (ids) its
    rubric lists. Deterministic: no randomness, no network, no model."""
    point_cues = cues.POINTS.get(card_id)
    if point_cues is None:
        raise UnknownCard(card_id)
    if len(point_cues) != n_points:
        raise ValueError(f"card {card_id} has {n_points} points but the judge has {len(point_cues)} cues")
    norm = normalize(text)
    answer = Answer(norm)

    def spans(hits: list[Hit]) -> tuple[Span, ...]:
        merged: list[tuple[int, int]] = []
        for hit in sorted(hits, key=lambda h: h.start):
            start, end = norm.span(hit.start, hit.end)
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return tuple(Span(s, e, text[s:e]) for s, e in merged if e > s)

    points = []
    for i, cue in enumerate(point_cues):
        hits = evaluate(answer, cue, POINT_WINDOW)
        points.append(PointVerdict(i, hits is not None, spans(hits) if hits else ()))
    found = []
    for mid in misconceptions:
        cue = cues.MISCONCEPTIONS.get(mid)
        if cue is None:
            continue
        hits = evaluate(answer, cue, MISCONCEPTION_WINDOW)
        if hits is not None:
            found.append(MisconceptionVerdict(mid, spans(hits)))
    return Verdict(card_id, tuple(points), tuple(found))
