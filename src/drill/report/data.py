"""The figures of a progress report as plain dataclasses: computed once (``figures.compute``), rendered by every
renderer (terminal, Markdown, HTML, JSON, CSV). No heavy imports here, so renderers and tests stay light.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from operator import attrgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from drill.srs.skillready import SkillReadiness

from drill.report.interview_scores import InterviewScores

# 1.1: the interview section (drill plan); 1.2: the coding section (drill code); 1.3: mock interview scorecards
# (drill interview: drill.report.interview_scores); 1.4: their misconceptions stated most often (most_stated);
# 1.5: readiness per skill (skills: drill.srs.skillready), the interview's new cards a day the plan's own
# 1.6: each card's Anki flag (0 none, 1-7) and mark (flag, marked)
SCHEMA_VERSION = "1.6"

# The card states a report counts, in display order. "new" cards were never reviewed; "suspended" and "retired"
# cards are out of rotation whatever their FSRS state was.
STATES: tuple[str, ...] = ("new", "learning", "review", "relearning", "suspended", "retired")
RATINGS: dict[int, str] = {1: "again", 2: "hard", 3: "good", 4: "easy"}
# A card counts as mastered once it is in review with a stability of at least this many days (Anki's "mature").
MASTERED_STABILITY_DAYS = 21.0


@dataclass(frozen=True)
class Filters:
    since: date | None = None
    section: str | None = None
    user: str | None = None
    cohort: bool = False


@dataclass(frozen=True)
class Totals:
    cards: int
    by_state: dict[str, int]
    reviews: int
    review_seconds: float  # sum of the answer durations recorded with each review
    session_seconds: float | None  # sum of the study sessions' lengths; None under --section (not per card)
    study_seconds: (
        float  # the larger of the two: sessions include reading time, durations cover session-less reviews
    )
    days_studied: int
    current_streak: int  # consecutive local days with a review, ending today (or yesterday)


@dataclass(frozen=True)
class DayCount:
    day: date
    reviews: int


@dataclass(frozen=True)
class Calendar:
    """Reviews per local day over the last 26 weeks: ``days`` runs from ``start`` (a Monday) to ``end`` (today)."""

    start: date
    end: date
    days: list[DayCount]
    max_reviews: int


@dataclass(frozen=True)
class RetentionFigure:
    """True retention: the first review of a card on each local day; Again is a fail, Hard/Good/Easy a pass."""

    reviews: int
    passed: int
    rate: float | None  # passed / reviews, None when there is nothing to measure

    @classmethod
    def of(cls, reviews: int, passed: int) -> RetentionFigure:
        return cls(reviews=reviews, passed=passed, rate=(passed / reviews) if reviews else None)


@dataclass(frozen=True)
class SectionRetention:
    section: str
    retention: RetentionFigure


@dataclass(frozen=True)
class Retention:
    overall: RetentionFigure
    by_section: list[SectionRetention]


@dataclass(frozen=True)
class ForecastDay:
    day: date
    due: int


@dataclass(frozen=True)
class Forecast:
    """Cards due per local day for the next 30 days; ``overdue`` were due before today and are not in ``days``."""

    overdue: int
    days: list[ForecastDay]


@dataclass(slots=True)  # not frozen: a report may hold 100k of these, and frozen construction is 3x slower
class CardFigure:
    """One card as the report sees it: the CSV's row, and the weakest-cards lists' entry."""

    id: str
    section: str
    question: str
    state: str
    due: datetime | None
    stability: float | None
    difficulty: float | None
    retrievability: float | None  # None for cards never reviewed
    reviews: int
    lapses: int
    last_rating: str | None
    flag: int = 0  # Anki's flag: 0 none, 1-7 its colours (drill.store.types.FLAGS)
    marked: bool = False


@dataclass(frozen=True)
class QuizPoint:
    started_at: datetime
    quiz: str
    correct: int
    total: int
    percent: float | None


@dataclass(frozen=True)
class MistakeCount:
    mistake: str  # a drill.engine.mistakes id
    count: int  # runs in which it was diagnosed


@dataclass(frozen=True)
class CodingTask:
    """One `drill code` task's runs: the CSV's code columns on its card (``code-<task>``)."""

    task: str
    runs: int
    passed: bool  # some run passed every hidden test
    seconds: float
    mistakes: list[str]  # diagnosed, most often first


@dataclass(frozen=True)
class Coding:
    """`drill code`: tasks tried and passed, runs, time spent (writing in the code screen plus the runs), and
    the mistakes diagnosed most often."""

    tasks_tried: int
    tasks_passed: int
    attempts: int
    seconds: float
    mistakes: list[MistakeCount]
    # Per task, for the CSV (its code cards' rows); not in the JSON document, whose schema 1.2 has the totals.
    tasks: list[CodingTask] = field(default_factory=list, metadata={"json": False})


@dataclass(frozen=True)
class SectionMastery:
    section: str
    cards: int
    new: int
    learning: int  # learning + relearning
    review: int
    mastered: int
    suspended: int  # suspended + retired
    mean_retrievability: float | None  # over reviewed, active cards
    retention: float | None
    mastery: float  # mastered / active cards (active = not suspended or retired)


@dataclass(frozen=True)
class CohortUser:
    rank: int
    user: str
    cards_seen: int
    mastered: int
    reviews: int
    retention: float | None
    progress: float  # mastered / active cards of the report's scope


@dataclass(frozen=True)
class QuestionFailure:
    card: str
    section: str
    question: str
    users: int  # users who reviewed it
    reviews: int  # first-of-day reviews across the cohort (as in true retention)
    failures: int
    failure_rate: float | None


@dataclass(frozen=True)
class Cohort:
    users: list[CohortUser]
    questions: list[QuestionFailure]


@dataclass(frozen=True)
class InterviewSection:
    section: str
    cards: int
    if_followed: float  # mean recall on the day if every planned review is done and recalled
    if_no_reviews: float  # mean recall on the day if the learner stops reviewing now


@dataclass(frozen=True)
class InterviewCard:
    card: str
    section: str
    question: str
    recall: float  # recall on the day if not reviewed again


@dataclass(frozen=True)
class InterviewDay:
    day: date
    reviews: int  # reviews due that day if the plan is followed
    new: int  # new cards the plan introduces that day
    readiness: float  # mean recall at the day's start if the plan is followed up to it


@dataclass(frozen=True)
class Interview:
    """Readiness for the learner's interview day (``drill plan``): None in a report when no date is set."""

    interview_day: date
    target: float
    days_left: int
    if_followed: float
    if_no_reviews: float
    new_needed_per_day: int  # the new cards a day the plan introduces (drill plan's new_per_day: one figure)
    new_limit: int  # the daily limit (the learner's new_per_day setting)
    sections: list[InterviewSection]
    at_risk: list[InterviewCard]
    days: list[InterviewDay]
    recall: dict[str, float]  # every planned card's recall on the day if not reviewed again, by card id


@dataclass(frozen=True)
class ReportData:
    generated_at: datetime
    user: str
    filters: Filters
    timezone: str
    day_start_hour: int
    day_start_source: str  # where the day start came from ("drill.srs config" or "default: midnight")
    totals: Totals
    calendar: Calendar
    retention: Retention
    forecast: Forecast
    weakest: list[CardFigure]
    most_lapses: list[CardFigure]
    quizzes: list[QuizPoint]
    mastery: list[SectionMastery]
    # Every card (drill.report.card_columns.CardColumns: a sequence of CardFigure kept as columns), or None
    # when computed without the per-card list (compute(cards=False))
    cards: Sequence[CardFigure] | None
    cohort: Cohort | None = None
    interview: Interview | None = None
    coding: Coding | None = None  # drill code (None only for a ReportData built without it)
    interview_scores: InterviewScores | None = (
        None  # drill interview scorecards (None: no interview answered)
    )
    # Readiness per skill (drill.srs.skillready: recall / explain / calculate / code, never-tried items 0), now
    # and, with an interview date, on the day; None for a report computed without the content (no kinds)
    skills: list[SkillReadiness] | None = None
    schema_version: str = field(default=SCHEMA_VERSION)

    def to_dict(self) -> dict:
        """Plain JSON-ready data: dates and datetimes as ISO 8601 strings."""
        return jsonable(self)


def jsonable(value, skip: tuple[str, ...] = ()):
    """``value`` as plain JSON-ready data (a dataclass's fields in ``skip`` left out)."""
    # Hand-rolled rather than dataclasses.asdict (which deep-copies): a report may hold 100k cards.
    if isinstance(value, CardFigure):  # the common case by far: one per card
        return card_json(value)
    if hasattr(value, "__dataclass_fields__"):
        return {
            name: _jsonable(getattr(value, name))
            for name, spec in value.__dataclass_fields__.items()
            if name not in skip and spec.metadata.get("json", True)
        }
    return _jsonable(value)


def _jsonable(value):
    if value is None or isinstance(value, str | int | float):
        return value
    if isinstance(value, datetime):
        from drill.report.card_columns import iso_utc  # the one timestamp format (CSV, JSON)

        return iso_utc(value)
    if isinstance(value, date):
        return value.isoformat()
    if hasattr(value, "json_lines"):  # the report's card columns: a list of cards in JSON
        return [card_json(card) for card in value]
    if hasattr(value, "__dataclass_fields__"):
        return jsonable(value)
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    return value


def card_json(card: CardFigure) -> dict:
    """A card as JSON-ready data: its fields as they are (text, numbers, None), its due time in ISO 8601."""
    values = dict(zip(_CARD_FIELDS, _card_values(card), strict=True))
    if card.due is not None:
        from drill.report.card_columns import iso_utc

        values["due"] = iso_utc(card.due)
    return values


_CARD_FIELDS = tuple(CardFigure.__dataclass_fields__)
_card_values = attrgetter(*_CARD_FIELDS)
