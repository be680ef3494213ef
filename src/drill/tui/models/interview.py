"""The interview rubric, apart from any screen: a bank card's key points and the misconceptions its rubric lists,
pre-ticked by the answer judge (drill.judge) and changed by the learner at will, and the FSRS grade proposed
from them (the learner confirms or changes it before anything is saved).

Proposed grade from coverage = points ticked / points (thresholds in `Thresholds`, documented and overridable):

- coverage ≥ ``easy`` (default 1.0) → Easy
- coverage ≥ ``good`` (default 0.75) → Good
- coverage ≥ ``hard`` (default 0.4) → Hard
- below → Again

Each trap hit lowers the proposal by one grade (never below Again): an answer that states a pitfall as fact is
not a covered answer. The defaults are the config's (`drill config set ui.rubric_good 0.8`: declared once, in
`drill.srs.config.SrsConfig`). Pure Python: no textual, no fsrs (grades are their numbers 1–4, as
`drill.srs.Rating`).

The session (`InterviewSession`): N bank questions with points, in the order `question_order` gives — with an
interview date set (`drill plan`), weakest on the day first (`quiz_order.interview_order`); otherwise the
cards due now first, then the weakest now (lowest recall; a new card counts as 0), equals in a seeded random
order. After each question, with probability ``follow_up`` (a seeded draw), the next comes from the same
section as the last one (the first such card in the order) when one is left: an interviewer's follow-up.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from drill.content.sections import covers
from drill.errors import InputError
from drill.i18n import _
from drill.srs.config import DEFAULT_CONFIG, SrsConfig

if TYPE_CHECKING:
    from drill.content.misconceptions import Book
    from drill.content.models import Card
    from drill.judge import Span, Verdict
    from drill.store.api import Store

AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4


@dataclass(frozen=True)
class Thresholds:
    easy: float = DEFAULT_CONFIG.rubric_easy
    good: float = DEFAULT_CONFIG.rubric_good
    hard: float = DEFAULT_CONFIG.rubric_hard

    def __post_init__(self) -> None:
        if not 0.0 <= self.hard <= self.good <= self.easy <= 1.0:
            raise InputError(
                f"rubric thresholds must satisfy 0 <= hard <= good <= easy <= 1, got "
                f"hard={self.hard}, good={self.good}, easy={self.easy} "
                "(drill config: ui.rubric_hard, ui.rubric_good, ui.rubric_easy)"
            )

    @classmethod
    def of(cls, config: SrsConfig) -> Thresholds:
        return cls(easy=config.rubric_easy, good=config.rubric_good, hard=config.rubric_hard)


@dataclass
class Rubric:
    """One question's rubric: the card's points (verbatim clauses) and, as traps, the misconceptions its rubric
    lists (drill.content.misconceptions: wrong beliefs in drill's words, each with its correction). ``covered``
    and ``hit`` start as the judge's ticks (`judge_into`); the learner may change any of them."""

    card_id: str
    points: tuple[str, ...]
    traps: tuple[str, ...] = ()  # the wrong beliefs, in the UI language
    covered: set[int] = field(default_factory=set)
    hit: set[int] = field(default_factory=set)
    trap_ids: tuple[str, ...] = ()  # the misconceptions' ids, in the order of ``traps``
    corrections: tuple[
        str, ...
    ] = ()  # per trap: its correction (the chapter's bullet, or drill's erratum note)
    evidence: dict[int, tuple[Span, ...]] = field(default_factory=dict)  # point index -> the answer's spans
    trap_evidence: dict[int, tuple[Span, ...]] = field(default_factory=dict)
    judged: bool = False  # the ticks were set by the judge

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

    def stated(self) -> tuple[str, ...]:
        """The ids of the misconceptions ticked as stated (the trap texts when the rubric has no ids)."""
        names = self.trap_ids or self.traps
        return tuple(names[i] for i in sorted(self.hit))

    def proposed_grade(self, thresholds: Thresholds | None = None) -> int:
        return propose_grade(self.coverage, len(self.hit), thresholds)


def rubric_for(card: Card, book: Book | None, language: str) -> Rubric:
    """``card``'s rubric: its points, and the misconceptions ``book`` lists for it as traps (never the section's
    true statements)."""
    listed = book.for_card(card.id) if book is not None else ()
    return Rubric(
        card.id,
        card.points,
        tuple(m.wrong(language) for m in listed),
        trap_ids=tuple(m.id for m in listed),
        corrections=tuple(correction_text(m) for m in listed),
    )


def correction_text(misconception) -> str:
    """A misconception's corrections as the rubric shows them, in the UI language: a chapter bullet or point with
    drill's correction of any span it quotes, an erratum's note in the UI language (drill.content.errata)."""
    from drill.content.errata import active_errata, annotate, erratum_text

    errata = {e.id: e for e in active_errata()}
    parts = []
    for c in misconception.corrections:
        erratum = errata.get(c.ref.removeprefix("erratum/")) if c.drills else None
        parts.append(
            erratum_text(erratum) if erratum is not None else c.text if c.drills else annotate(c.text)
        )
    return "\n".join(parts)


def judge_into(rubric: Rubric, text: str) -> Verdict | None:
    """Tick ``rubric`` as the answer judge (drill.judge) reads ``text``; None (nothing ticked) for a card the
    judge has no cues for."""
    from drill.judge import has_cues, judge

    if not has_cues(rubric.card_id):
        return None
    verdict = judge(rubric.card_id, len(rubric.points), text, rubric.trap_ids)
    rubric.covered = set(verdict.covered)
    rubric.evidence = {p.index: p.evidence for p in verdict.points if p.covered}
    where = {mid: i for i, mid in enumerate(rubric.trap_ids)}
    rubric.hit = {where[m.id] for m in verdict.misconceptions}
    rubric.trap_evidence = {where[m.id]: m.evidence for m in verdict.misconceptions}
    rubric.judged = True
    return verdict


def model_answers(card: Card) -> tuple[str, ...]:
    """The model answer as the rubric shows it: the bank's answer first, then the section's (when it differs)."""
    return tuple(a for a in dict.fromkeys((card.bank_answer, card.answer)) if a)


def assessment(
    card: Card, text: str, book: Book | None, language: str, thresholds: Thresholds | None = None
) -> dict:
    """``drill interview --assess``'s JSON: points 1-based in the card's order, each with its evidence (offsets
    into ``text``), the misconceptions stated with their corrections, coverage and the proposed grade (1-4)."""
    rubric = rubric_for(card, book, language)
    judge_into(rubric, text)

    def spans(found: tuple[Span, ...]) -> list[dict]:
        return [{"start": s.start, "end": s.end, "text": s.text} for s in found]

    return {
        "card": card.id,
        "points": [
            {
                "index": i + 1,
                "text": point,
                "covered": i in rubric.covered,
                "evidence": spans(rubric.evidence.get(i, ())),
            }
            for i, point in enumerate(rubric.points)
        ],
        "misconceptions": [
            {
                "id": rubric.trap_ids[i],
                "text": rubric.traps[i],
                "evidence": spans(rubric.trap_evidence.get(i, ())),
                "correction": rubric.corrections[i],
            }
            for i in sorted(rubric.hit)
        ],
        "coverage": round(rubric.coverage, 4),
        "proposed_grade": rubric.proposed_grade(thresholds),
    }


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


# --- the session -------------------------------------------------------------------------------------------


def bank_cards(cards: Sequence[Card], section: str | None = None) -> list[Card]:
    """The 7.24 bank's cards that have a rubric (points), in content order, of ``section`` if given."""
    return [c for c in cards if c.bank is not None and c.points and covers(section, c.section)]


@dataclass(frozen=True)
class Candidate:
    """A card as `quiz_order.weakest_first` sees an item: its own id is the card it is judged by."""

    card: Card

    @property
    def cards(self) -> tuple[str, ...]:
        return (self.card.id,)

    @property
    def section(self) -> str:
        return self.card.section


def question_order(
    cards: Sequence[Card],
    states: dict[str, Any],
    now: datetime,
    config: SrsConfig = DEFAULT_CONFIG,
    *,
    seed: int = 0,
) -> list[Card]:
    """``cards`` due now first (earliest due first), then weakest now; ``states``: card id -> CardState (a card
    without one is new). Equal cards in an order drawn from ``seed``."""
    from drill.srs.deadline import recall

    shuffled = list(cards)
    random.Random(seed).shuffle(shuffled)

    def key(card: Card) -> tuple:
        state = states.get(card.id)
        if state is None or state.is_new:
            return (1, 0.0, 0.0)
        due = state.due is not None and state.due <= now
        return (0 if due else 1, state.due.timestamp() if due else 0.0, recall(state, now, config))

    return sorted(shuffled, key=key)


def store_order(cards: Sequence[Card], store: Store, now: datetime, *, seed: int = 0) -> list[Card]:
    """The order for ``store``'s learner: weakest on the interview day first when a date is set (the quiz's
    `interview_order`), else `question_order` (due, then weakest now)."""
    from drill.tui.models.quiz_order import interview_order

    ordered = question_order(
        cards, {cid: st for cid, _s, st in store.plan_cards()}, now, store.config, seed=seed
    )
    if store.interview_plan(now) is None:
        return ordered
    return [c.card for c in interview_order([Candidate(c) for c in ordered], store, now)]


@dataclass(frozen=True)
class Asked:
    card: Card
    position: int  # 1, 2, ...
    follow_up: bool  # chosen as a follow-up from the previous question's section


def covering(cards: Sequence[Card], missed: Sequence[str]) -> Card | None:
    """The first of ``cards`` whose points share the most glossary concepts (drill.judge.glossary) with the
    ``missed`` texts — at least two — or None."""
    if not missed:
        return None
    from drill.judge import concepts_in

    wanted = concepts_in(" ".join(missed))
    best, score = None, 1
    for card in cards:
        shared = len(wanted & concepts_in(" ".join(card.points)))
        if shared > score:
            best, score = card, shared
    return best


class InterviewSession:
    """Which bank question comes next: ``count`` of ``ordered`` (most wanted first), with follow-ups."""

    def __init__(self, ordered: Sequence[Card], count: int, follow_up: float, seed: int) -> None:
        if not 0.0 <= follow_up <= 1.0:
            message = _("the follow-up probability must be between 0 and 1, got {value}")
            raise InputError(message.format(value=follow_up))
        if count < 1:
            message = _("an interview needs at least 1 question, got {count}")
            raise InputError(message.format(count=count))
        self.pool = list(ordered)
        self.count = min(count, len(self.pool))
        self.follow_up = follow_up
        self._rng = random.Random(seed)
        self.asked: list[Asked] = []

    @property
    def finished(self) -> bool:
        return len(self.asked) >= self.count

    def next_question(self, missed: Sequence[str] = ()) -> Asked | None:
        """The next question; a follow-up (drawn with probability ``follow_up``) prefers the card whose key points
        share the most of the chapter's terms with ``missed`` (the last answer's missed points and the
        corrections of the misconceptions it stated), else the first card left from the same section."""
        if self.finished:
            return None
        seen = {a.card.id for a in self.asked}
        left = [c for c in self.pool if c.id not in seen]
        choice, follow = left[0], False
        if self.asked:
            draw = self._rng.random()  # drawn after every question, so a seed gives one sequence
            if draw < self.follow_up:
                best = covering(left, missed)
                same = [c for c in left if c.section == self.asked[-1].card.section]
                if best is not None:
                    choice, follow = best, True
                elif same:
                    choice, follow = same[0], True
        asked = Asked(choice, len(self.asked) + 1, follow)
        self.asked.append(asked)
        return asked
